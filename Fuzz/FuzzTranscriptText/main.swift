// libFuzzer harness: the text `.transcript` writes (`TranscriptText`) for arbitrary log entries,
// metadata, spans and attributes, and its scrubbing of identities. Run with
// `scripts/fuzz.sh FuzzTranscriptText SECONDS`.
//
// The input is a program of a few operations, read byte by byte: set or remove a logger's
// metadata, log an entry (level, message, metadata of every kind, an error), start a span under
// the innermost open one, set an attribute of every kind, add an event, record an error, set a
// status, end a span, record an error event. Strings are any bytes decoded as UTF-8 (control and
// combining characters, invalid bytes as U+FFFD), some repeated past the 4,096-character cut.
// They go through the capture's real logger and tracer. Invariants, for any program:
// - the text, whose `String` is made from its bytes without validating them, is valid UTF-8;
// - it is, line for line, the plain rule written out here: each entry's section and its merged,
//   sorted metadata (request IDs numbered by first appearance), each span tree in start order
//   with sorted attributes, events, errors and status, each value escaped onto one line by
//   `TranscriptText.escaped` (cut after 4,096 characters) and spans deeper than 1,000 levels
//   counted in one line;
// - scrubbing only the values noted as possible identities gives the same text as scrubbing the
//   whole text with `.uuids` and `.iso8601Dates`;
// - no line is longer than its indent and two cut values (6 bytes a character at most, and the
//   note of what was cut);
// - each input takes at most 1 s of processor time.

import Foundation
import FuzzingChecks
import FuzzingSupport
import SnapshotTesting

@testable import TranscriptSnapshotTesting

/// One run of libFuzzer, on one input.
private func fuzzTranscriptText(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = [UInt8](UnsafeBufferPointer(start: data, count: size))
  return withinTimeBound(.seconds(1), size: size) { check(input) }
}

private struct FuzzError: Error, CustomStringConvertible {
  var description: String
}

/// The input, read a byte at a time; zeros once it is used up.
private struct Program {
  let bytes: [UInt8]
  var position = 0

  var isAtEnd: Bool { position >= bytes.count }

  mutating func byte() -> UInt8 {
    defer { position += 1 }
    return position < bytes.count ? bytes[position] : 0
  }

  /// A length byte, then that many bytes (below 0xF0: up to 47) decoded as UTF-8; from 0xF0,
  /// the next few bytes repeated past 4,096 characters, by 0 to 15 more.
  mutating func string() -> String {
    let length = byte()
    if length >= 0xF0 {
      let piece = string(count: Int(byte() % 4) + 1)
      let characters = max(piece.unicodeScalars.count, 1)
      let repeats = (TranscriptOptions.maximumValueLength - 8) / characters + Int(length - 0xF0)
      return String(repeating: piece, count: repeats)
    }
    return string(count: Int(length % 48))
  }

  mutating func string(count: Int) -> String {
    let end = min(position + count, bytes.count)
    defer { position = max(position, end) }
    guard position < end else { return "" }
    return String(decoding: bytes[position..<end], as: UTF8.self)
  }

  /// Keys are more often a few fixed ones, so that loggers' and entries' pairs meet.
  mutating func key() -> String {
    let choice = byte()
    let fixed = ["a", "error", "request_id", "e\u{301}", "\u{E9}", "id", "hb.request.id", ""]
    return choice < 0xC0 ? fixed[Int(choice) % fixed.count] : string()
  }

  mutating func metadataValue(depth: Int = 0) -> Logger.MetadataValue {
    switch byte() % 5 {
    case 0 where depth < 3:
      return .array((0..<Int(byte() % 3)).map { _ in metadataValue(depth: depth + 1) })
    case 1 where depth < 3:
      var dictionary: Logger.Metadata = [:]
      for _ in 0..<Int(byte() % 3) { dictionary[key()] = metadataValue(depth: depth + 1) }
      return .dictionary(dictionary)
    case 2:
      return .stringConvertible(Int(Int8(bitPattern: byte())))
    default:
      return .string(string())
    }
  }

  mutating func attribute() -> SpanAttribute {
    switch byte() % 9 {
    case 0: return .int64(Int64(bitPattern: UInt64(byte()) << 56 | UInt64(byte())))
    case 1: return .int32(Int32(Int8(bitPattern: byte())))
    case 2: return .bool(byte() % 2 == 0)
    case 3: return .double(Double(Int8(bitPattern: byte())) / 8)
    case 4: return .stringArray([string(), string()])
    case 5: return .int64Array([Int64(byte()), -1])
    case 6: return .stringConvertible(string())
    default: return .string(string())
    }
  }
}

private let kinds: [SpanKind] = [.server, .client, .producer, .consumer, .internal]
private let levels: [Logger.Level] = [.trace, .debug, .info, .notice, .warning, .error, .critical]

/// Runs the program on a capture of its own and returns what it recorded.
private func record(_ input: [UInt8]) -> Transcript {
  var program = Program(bytes: input)
  let capture = TranscriptCapture()
  var logger = capture.logger(label: "app")
  var open: [TranscriptSpan] = []
  while !program.isAtEnd {
    switch program.byte() % 8 {
    case 0:
      logger[metadataKey: program.key()] = program.metadataValue()
    case 1:
      logger[metadataKey: program.key()] = nil
    case 2:
      let level = levels[Int(program.byte()) % levels.count]
      let message = program.string()
      var metadata: Logger.Metadata? = nil
      let pairs = program.byte()
      if pairs % 4 != 0 {
        metadata = [:]
        for _ in 0..<Int(pairs % 4 - 1) { metadata![program.key()] = program.metadataValue() }
      }
      let error = pairs >= 0x80 ? FuzzError(description: program.string()) : nil
      logger.log(level: level, "\(message)", error: error, metadata: metadata)
    case 3:
      if program.byte() % 4 == 0 { logger = capture.logger(label: program.string()) }
    case 4:
      let name = program.string()
      let kind = kinds[Int(program.byte()) % kinds.count]
      let parent = open.last?.context ?? .topLevel
      open.append(capture.tracer.startSpan(name, context: parent, ofKind: kind))
    case 5:
      guard let span = open.last else { continue }
      span.attributes[program.key()] = program.attribute()
    case 6:
      guard let span = open.last else { continue }
      switch program.byte() % 5 {
      case 0:
        var attributes: SpanAttributes = [:]
        for _ in 0..<Int(program.byte() % 3) { attributes[program.key()] = program.attribute() }
        span.addEvent(SpanEvent(name: program.string(), attributes: attributes))
      case 1: span.recordError(FuzzError(description: program.string()))
      case 2: span.setStatus(SpanStatus(code: .ok))
      case 3:
        let message = program.byte() % 2 == 0 ? program.string() : nil
        span.setStatus(SpanStatus(code: .error, message: message))
      default: span.operationName = program.string()
      }
    default:
      // End the innermost span (once, or twice), or leave it open, or record an error event.
      switch program.byte() % 4 {
      case 0, 1:
        open.popLast()?.end()
      case 2:
        open.last?.end()
        open.popLast()?.end()
      default:
        capture.append(.error(program.string()))
      }
    }
  }
  return capture.close()
}

private func check(_ input: [UInt8]) {
  let transcript = record(input)
  let options = TranscriptOptions(minimumLevel: .trace, durationBucket: nil, sourceLocations: false)
  let (text, candidates) = TranscriptText.rendered(transcript, options: options)
  let bytes = Array(text.utf8)
  require(String(validating: bytes, as: UTF8.self) != nil, "the text is not valid UTF-8")
  let expected = plainText(transcript)
  require(
    text == expected,
    "the text\n\(text.debugDescription)\nis not the plain rule's\n\(expected.debugDescription)"
  )
  for range in candidates {
    require(range.lowerBound >= 0 && range.upperBound <= bytes.count, "a candidate \(range)")
  }
  let scrubbedWhole = try! Scrubber.iso8601Dates.scrub(Scrubber.uuids.scrub(text))
  let scrubbed = TranscriptIdentities.scrub(text, candidates: candidates)
  require(
    scrubbed == scrubbedWhole,
    "scrubbing the candidates gives\n\(scrubbed.debugDescription)\nthe whole text\n"
      + scrubbedWhole.debugDescription
  )
  let value = TranscriptOptions.maximumValueLength * 6 + 40
  for line in text.utf8.split(separator: 0x0A) {
    let indent = line.prefix { $0 == 0x20 }.count
    require(line.count <= indent + 2 * value + 40, "a line of \(line.count) bytes")
  }
}

// MARK: - The plain rule

/// The text as the rule says, written the plain way: escaped values, metadata merged with a
/// dictionary lookup a key, spans by a recursion-free walk over their start order.
private func plainText(_ transcript: Transcript) -> String {
  var lines: [String] = []
  var requestIDs: [String: Int] = [:]
  var children: [Int: [TranscriptSpanState]] = [:]
  for case .span(let span) in transcript.events where span.parentNumber != 0 {
    children[span.parentNumber, default: []].append(span)
  }
  func escaped(_ value: String) -> String { TranscriptText.escaped(value) }
  for event in transcript.events {
    switch event {
    case .log(let record):
      lines.append(
        "── log \(record.event.level.rawValue) \(escaped(record.label)): "
          + escaped(record.event.message.description)
      )
      for (key, value) in merged(record) {
        var text: String
        if case .string(let string) = value { text = string } else { text = plainDescription(value) }
        if TranscriptText.namesARequestID(key) {
          if requestIDs[text] == nil { requestIDs[text] = requestIDs.count + 1 }
          text = "REQUEST_ID_\(requestIDs[text]!)"
        }
        lines.append("  \(escaped(key)): \(escaped(text))")
      }
    case .span(let root) where root.parentNumber == 0:
      lines.append("── span")
      var stack: [(TranscriptSpanState, Int)] = [(root, 0)]
      while let (span, depth) = stack.popLast() {
        lines += spanLines(span, depth: depth)
        let under = children[span.number] ?? []
        guard !under.isEmpty else { continue }
        if depth >= TranscriptText.maximumSpanDepth {
          var count = 0
          var pending = under
          while let next = pending.popLast() {
            count += 1
            pending += children[next.number] ?? []
          }
          lines.append(
            String(repeating: " ", count: depth * 2 + 2)
              + "! \(count) spans nested deeper than \(TranscriptText.maximumSpanDepth) levels "
              + "left out"
          )
          continue
        }
        stack += under.reversed().map { ($0, depth + 1) }
      }
    case .span:
      break
    case .error(let description):
      lines += ["── error", escaped(description)]
    case .http:
      fail("the program records no HTTP message")
    }
  }
  return lines.joined(separator: "\n")
}

/// The logger's metadata, the entry's over it, and the entry's error under `error`, sorted.
private func merged(_ record: TranscriptLogRecord) -> [(key: String, value: Logger.MetadataValue)] {
  let entry = record.event.metadata
  let hasError = record.event.error != nil
  var pairs: [(key: String, value: Logger.MetadataValue)] = []
  for pair in record.loggerMetadata
  where entry?[pair.key] == nil && !(hasError && pair.key == "error") {
    pairs.append(pair)
  }
  for pair in entry ?? [:] where !(hasError && pair.key == "error") { pairs.append(pair) }
  if let error = record.event.error { pairs.append(("error", "\(error)")) }
  pairs.sort { $0.key < $1.key }
  return pairs
}

private func spanLines(_ state: TranscriptSpanState, depth: Int) -> [String] {
  let span = state.recorded
  let indent = String(repeating: " ", count: depth * 2)
  let inner = indent + "  "
  func escaped(_ value: String) -> String { TranscriptText.escaped(value) }
  func attributeLines(_ attributes: SpanAttributes, _ indent: String) -> [String] {
    var pairs: [(String, SpanAttribute)] = []
    attributes.forEach { pairs.append(($0, $1)) }
    return pairs.sorted { $0.0 < $1.0 }.map {
      "\(indent)\(escaped($0.0)) = \(escaped(TranscriptText.describe($0.1)))"
    }
  }
  var lines = [
    "\(indent)\(escaped(span.endName ?? state.startName)) (\(TranscriptText.name(of: state.kind)))"
  ]
  guard span.endCount > 0 else { return lines + ["\(inner)! never ended"] }
  lines += attributeLines(span.attributes, inner)
  for event in span.events {
    lines.append("\(inner)event \(escaped(event.name))")
    lines += attributeLines(event.attributes, inner + "  ")
  }
  for error in span.errors { lines.append("\(inner)error \(escaped(String(describing: error)))") }
  if let status = span.status {
    lines.append(
      "\(inner)status \(status.code == .ok ? "ok" : "error")"
        + (status.message.map { ": \(escaped($0))" } ?? "")
    )
  }
  if span.endCount > 1 { lines.append("\(inner)! ended \(span.endCount) times") }
  return lines
}

// Last: globals of main.swift are initialised in order, as the top-level code runs.
exit(fuzzing_support_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzTranscriptText))

/// A metadata value as swift-log describes it, but a dictionary's keys sorted at every depth (the
/// transcript's rule; swift-log's own order is the dictionary's, different in each process). A
/// call a level: the generator above nests values a few levels at most.
private func plainDescription(_ value: Logger.MetadataValue, inCollection: Bool = false) -> String {
  switch value {
  case .string(let string): inCollection ? string.debugDescription : string
  case .stringConvertible(let convertible):
    inCollection ? convertible.description.debugDescription : convertible.description
  case .array(let values):
    "[" + values.map { plainDescription($0, inCollection: true) }.joined(separator: ", ") + "]"
  case .dictionary(let pairs) where pairs.isEmpty: "[:]"
  case .dictionary(let pairs):
    "["
      + pairs.sorted { $0.key < $1.key }.map {
        "\($0.key.debugDescription): \(plainDescription($0.value, inCollection: true))"
      }.joined(separator: ", ") + "]"
  }
}
