// libFuzzer harness: the served report's request reader (`HTTPRequestHead`, `HTTPConnection`) on
// arbitrary bytes from a client. Run with `scripts/fuzz.sh FuzzHTTPRequest SECONDS`.
//
// `snapshot-testing review --serve` listens on loopback, where any page of the browser can send it
// anything. The input is what a client sends; its first byte also says how the bytes arrive (in
// pieces of 1 to 16 bytes). Invariants, for any bytes:
// - the end of the head found while the bytes arrive piece by piece (resuming each search) is the
//   end found in all the bytes at once;
// - a head is refused with 400, 417, 431, 501 or 505 and a reason of one line, or read into a
//   head whose method is a token, whose path starts with `/` (or is `*`), with at most 100
//   fields, a valid host and a length of 0 or more;
// - a head read back from its canonical text (`METHOD TARGET HTTP/1.n`, then `name: value` per
//   field) reads as the same head: the canonical text is a fixed point;
// - over a real socket (a socket pair, closed for writing after the input), `HTTPConnection`
//   gives that same head or refusal, refuses a head beyond 16 KiB, and the body it reads is the
//   bytes after the head, exactly `Content-Length` of them, or the client is gone when fewer came;
// - each input takes at most 250 ms of processor time.
//
// `FuzzHTTPRequest --verdict FILE…` prints instead, for each file, a line of JSON with what the
// server reads from it over a socket (the head and body, or the refusal), for
// `scripts/h11-differential.py`.

import Foundation
import FuzzingChecks
import FuzzingSupport

@testable import SnapshotReview

#if canImport(Glibc)
  import Glibc
#endif

/// One run of libFuzzer, on one input.
private func fuzzHTTPRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = [UInt8](UnsafeBufferPointer(start: data, count: size))
  return withinTimeBound(.milliseconds(250), size: size) { check(input) }
}

private let refusalStatuses: Set<Int> = [400, 417, 431, 501, 505]
private let limits = HTTPServerLimits()

private func check(_ input: [UInt8]) {
  let end = HTTPRequestHead.end(in: input)
  checkIncrementalSearch(input, end: end)
  var parsed: Result<HTTPRequestHead, HTTPRequestHead.Refusal>?
  if let end {
    require(end <= input.count && end >= 2, "the head ends at \(end) of \(input.count)")
    require(input[end - 1] == 0x0A, "the head ends at \(end), not after a line feed")
    do throws(HTTPRequestHead.Refusal) {
      let head = try HTTPRequestHead.parse(input[..<end])
      checkHead(head)
      parsed = .success(head)
    } catch {
      checkRefusal(error)
      parsed = .failure(error)
    }
  }
  if input.count <= 60_000 { checkConnection(input, end: end, parsed: parsed) }
}

/// Feeds the bytes in pieces, as `HTTPConnection` does, resuming each search where the last one
/// stopped.
private func checkIncrementalSearch(_ input: [UInt8], end: Int?) {
  guard let first = input.first else { return }
  let piece = Int(first % 16) + 1
  var buffer: [UInt8] = []
  var searched = 0
  var found: Int?
  var start = 0
  while start < input.count {
    let stop = min(start + piece, input.count)
    searched = buffer.count
    buffer += input[start..<stop]
    start = stop
    if let end = HTTPRequestHead.end(in: buffer, searchedUpTo: searched) {
      found = end
      break
    }
  }
  require(
    found == end,
    "in pieces of \(piece) bytes the head ends at \(found.map(String.init) ?? "nil"), "
      + "in one piece at \(end.map(String.init) ?? "nil")"
  )
}

private func checkRefusal(_ refusal: HTTPRequestHead.Refusal) {
  require(refusalStatuses.contains(refusal.status), "refused with status \(refusal.status)")
  require(!refusal.reason.isEmpty, "refused (\(refusal.status)) without a reason")
  require(
    !refusal.reason.unicodeScalars.contains { $0 == "\r" || $0 == "\n" },
    "the reason is more than one line: \(refusal.reason.debugDescription)"
  )
}

private func checkHead(_ head: HTTPRequestHead) {
  require(
    !head.method.isEmpty && head.method.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F },
    "the method \(head.method.debugDescription) is not a token"
  )
  require(
    head.path.hasPrefix("/") || head.target == "*",
    "the path \(head.path.debugDescription) of \(head.target.debugDescription) is not absolute"
  )
  require(head.fields.count <= HTTPRequestHead.fieldLimit, "\(head.fields.count) fields")
  require(head.contentLength >= 0, "a length of \(head.contentLength)")
  if let host = head.host {
    require(HTTPRequestHead.isValidHost(host), "the host \(host.debugDescription) is not valid")
  }
  require(head.minorVersion == 0 || head.host != nil, "an HTTP/1.1 request without a host")
  // The canonical text: the same head.
  let canonical = canonicalText(of: head)
  require(HTTPRequestHead.end(in: canonical) == canonical.count, "the canonical head's end")
  do throws(HTTPRequestHead.Refusal) {
    let again = try HTTPRequestHead.parse(canonical[...])
    require(
      again == head,
      "the canonical text \(String(decoding: canonical, as: UTF8.self).debugDescription) reads "
        + "as \(again), not \(head)"
    )
    require(canonicalText(of: again) == canonical, "the canonical text is not a fixed point")
  } catch {
    fail(
      "the canonical text \(String(decoding: canonical, as: UTF8.self).debugDescription) is "
        + "refused: \(error)"
    )
  }
}

/// `METHOD TARGET HTTP/1.n`, each field as `name: value` (its value's scalars as the bytes they
/// were read from), then the blank line.
private func canonicalText(of head: HTTPRequestHead) -> [UInt8] {
  var bytes = Array("\(head.method) \(head.target) HTTP/1.\(head.minorVersion)\r\n".utf8)
  for field in head.fields {
    bytes += Array(field.name.utf8) + Array(": ".utf8)
    bytes += field.value.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
    bytes += [0x0D, 0x0A]
  }
  return bytes + [0x0D, 0x0A]
}

/// The same bytes through a real connection: a socket pair whose other end sends the input and
/// closes for writing.
private func checkConnection(
  _ input: [UInt8],
  end: Int?,
  parsed: Result<HTTPRequestHead, HTTPRequestHead.Refusal>?
) {
  var pair: [Int32] = [-1, -1]
  guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
    fail("socketpair: \(String(cString: strerror(errno)))")
  }
  defer {
    close(pair[0])
    close(pair[1])
  }
  var written = 0
  while written < input.count {
    let count = write(pair[1], Array(input[written...]), input.count - written)
    guard count > 0 else { fail("write: \(String(cString: strerror(errno)))") }
    written += count
  }
  shutdown(pair[1], Int32(SHUT_WR))
  var connection = HTTPConnection(descriptor: pair[0], limits: limits)
  let outcome = connection.readHead(since: HTTPConnection.now())
  let withinLimit = end.map { $0 <= limits.headBytes + 1 } ?? false
  switch (outcome, parsed) {
  case (.head(let head), .success(let expected)?) where withinLimit:
    require(head == expected, "the connection read \(head), not \(expected)")
    checkBody(&connection, input: input, after: end!, length: head.contentLength)
  case (.refused(let refusal), .failure(let expected)?) where withinLimit:
    require(refusal == expected, "the connection refused with \(refusal), not \(expected)")
  case (.refused(let refusal), _) where !withinLimit && input.count > limits.headBytes:
    require([414, 431].contains(refusal.status), "a long head refused with \(refusal)")
  case (.gone, nil) where input.count <= limits.headBytes:
    break
  default:
    fail(
      "the connection gave \(outcome) for a head ending at "
        + "\(end.map(String.init) ?? "nil") of \(input.count) bytes, read as "
        + "\(parsed.map { "\($0)" } ?? "nothing")"
    )
  }
}

private func checkBody(
  _ connection: inout HTTPConnection,
  input: [UInt8],
  after end: Int,
  length: Int
) {
  let available = input.count - end
  switch connection.readBody(count: length) {
  case .body(let body):
    require(length <= available, "a body of \(length) bytes read from \(available)")
    require(
      body.elementsEqual(input[end..<end + length]),
      "the body is not the \(length) bytes after the head"
    )
  case .gone:
    require(length > available, "the client is gone with \(available) bytes of \(length) sent")
  case .timedOut:
    fail("the body timed out on a closed socket")
  }
}

// MARK: - The server's verdict, for the h11 differential

/// What the server reads from one client's bytes: a head (method, target, version, fields, and
/// the body or that the client left before it all came), a refusal, or nothing (the client left
/// before the head ended).
private struct Verdict: Encodable {
  var file: String
  /// `head`, `refused` or `gone`.
  var outcome: String
  var status: Int?
  var reason: String?
  var method: String?
  var target: String?
  var minorVersion: Int?
  /// Name (lower case) and value, the value's scalars standing for its bytes (ISO-8859-1).
  var fields: [[String]]?
  /// `body`, `gone` (fewer bytes came than `Content-Length` says) or `tooLarge` (413, unread).
  var bodyOutcome: String?
  /// The body's bytes as ISO-8859-1 scalars.
  var body: String?
}

private func verdict(of input: [UInt8], file: String) -> Verdict {
  var result = Verdict(file: file, outcome: "gone")
  var pair: [Int32] = [-1, -1]
  guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
    fail("socketpair: \(String(cString: strerror(errno)))")
  }
  // The client writes from another thread, as the server may stop reading (a head too long)
  // before an input larger than the socket's buffer is all written.
  let (server, client) = (pair[0], pair[1])
  let writer = Thread {
    var written = 0
    while written < input.count {
      let count = send(client, Array(input[written...]), input.count - written, Int32(MSG_NOSIGNAL))
      guard count > 0 else { break }
      written += count
    }
    shutdown(client, Int32(SHUT_WR))
  }
  writer.start()
  defer {
    close(server)
    while !writer.isFinished { usleep(1_000) }
    close(client)
  }
  var connection = HTTPConnection(descriptor: server, limits: limits)
  switch connection.readHead(since: HTTPConnection.now()) {
  case .gone:
    return result
  case .refused(let refusal):
    result.outcome = "refused"
    result.status = refusal.status
    result.reason = refusal.reason
    return result
  case .head(let head):
    result.outcome = "head"
    result.method = head.method
    result.target = head.target
    result.minorVersion = head.minorVersion
    result.fields = head.fields.map { [$0.name, $0.value] }
    guard head.contentLength <= limits.bodyBytes else {
      result.bodyOutcome = "tooLarge"
      return result
    }
    switch connection.readBody(count: head.contentLength) {
    case .body(let body):
      result.bodyOutcome = "body"
      result.body = String(String.UnicodeScalarView(body.map { UnicodeScalar($0) }))
    case .gone, .timedOut:
      result.bodyOutcome = "gone"
    }
    return result
  }
}

private func printVerdicts(_ paths: ArraySlice<String>) -> Int32 {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  for path in paths {
    guard let data = FileManager.default.contents(atPath: path) else {
      FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
      return 1
    }
    guard let line = try? encoder.encode(verdict(of: Array(data), file: path)) else { return 1 }
    FileHandle.standardOutput.write(line + Data("\n".utf8))
  }
  return 0
}

// Last: globals of main.swift are initialised in order, as the top-level code runs.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--verdict" {
  exit(printVerdicts(CommandLine.arguments.dropFirst(2)))
}
exit(fuzzing_support_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzHTTPRequest))
