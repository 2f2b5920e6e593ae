import Foundation
import RunRecord

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Receives the events of one DevTools session (one attached page).
protocol DevToolsSessionListener: AnyObject, Sendable {
  /// An event of the session, on the connection's reading thread.
  func receive(event method: String, params: JSONMessage)
  /// The connection closed: the browser is gone.
  func connectionClosed(_ error: WebSnapshotError)
}

/// The Chrome DevTools protocol over the browser's pipes: JSON messages, each ended by a NUL
/// byte. Commands carry an `id` that the reply repeats; a `sessionId` routes a command to an
/// attached page and marks that page's events.
///
/// One thread reads the reply pipe and resumes the waiting commands, handing each event to its
/// session's listener on that thread (a listener never blocks; it only posts commands); another
/// waits for the browser's exit. Writes are serialised by a lock. Once the browser is gone every waiting and later command fails with
/// ``WebSnapshotError/browserExited(_:)``.
final class DevToolsConnection: @unchecked Sendable {
  private struct Pending {
    var method: String
    var sessionId: String?
    var resume: @Sendable (Result<JSONMessage, WebSnapshotError>) -> Void
  }

  private let process: BrowserProcess
  private let lock = NSLock()
  private var nextIdentifier = 1
  private var pending: [Int: Pending] = [:]
  private var listeners: [String: any DevToolsSessionListener] = [:]
  private var closedError: WebSnapshotError?
  private var commandDescriptorOpen = true

  init(process: BrowserProcess) {
    self.process = process
    let reader = Thread { [self] in readReplies() }
    reader.name = "snapshot-testing DevTools reader"
    reader.start()
    // The browser's helpers may hold its reply pipe open after it died, so its end is noticed
    // by waiting for the process, not by end-of-file.
    let watcher = Thread { [self] in
      // Its renderers and other helpers are killed with it, before it is reaped (after, its
      // process id could name another process).
      let reason = process.waitForExit()
      close(because: reason)
    }
    watcher.name = "snapshot-testing browser watcher"
    watcher.start()
  }

  /// Whether the browser has gone away.
  var isClosed: Bool { lock.withLock { closedError != nil } }

  /// Sends a command and returns its `result`.
  func send(
    _ method: String,
    _ params: [String: Any] = [:],
    sessionId: String? = nil
  ) async throws(WebSnapshotError) -> JSONMessage {
    let parameters = JSONMessage(params)
    let result: Result<JSONMessage, WebSnapshotError> = await withCheckedContinuation {
      continuation in
      post(method, parameters, sessionId: sessionId) { continuation.resume(returning: $0) }
    }
    return try result.get()
  }

  /// Sends every command at once, in their order, each to its session (`nil`: the browser's),
  /// and waits once for all their replies: one round trip instead of one each. The replies come
  /// in the commands' order; a failure is the first failed command's, once every reply is in.
  func sendTogether(
    _ commands: [(method: String, params: [String: Any], sessionId: String?)]
  ) async throws(WebSnapshotError) -> [JSONMessage] {
    guard !commands.isEmpty else { return [] }
    let messages = commands.map { ($0.method, JSONMessage($0.params), $0.sessionId) }
    let results = await withCheckedContinuation { continuation in
      let replies = Replies(count: messages.count) { continuation.resume(returning: $0) }
      for (index, (method, params, sessionId)) in messages.enumerated() {
        post(method, params, sessionId: sessionId) { replies.receive($0, at: index) }
      }
    }
    return try results.map { (result) throws(WebSnapshotError) in try result.get() }
  }

  /// The replies to ``sendTogether(_:)``'s commands, handed on once all are in.
  private final class Replies: Sendable {
    private let state: Locked<(results: [Result<JSONMessage, WebSnapshotError>?], left: Int)>
    private let whenAllIn: @Sendable ([Result<JSONMessage, WebSnapshotError>]) -> Void

    init(
      count: Int,
      whenAllIn: @escaping @Sendable ([Result<JSONMessage, WebSnapshotError>]) -> Void
    ) {
      state = Locked((Array(repeating: nil, count: count), count))
      self.whenAllIn = whenAllIn
    }

    func receive(_ result: Result<JSONMessage, WebSnapshotError>, at index: Int) {
      let all = state.withLock { state -> [Result<JSONMessage, WebSnapshotError>]? in
        state.results[index] = result
        state.left -= 1
        return state.left == 0 ? state.results.compactMap { $0 } : nil
      }
      if let all { whenAllIn(all) }
    }
  }

  /// Sends a command without waiting for its reply.
  func post(_ method: String, _ params: [String: Any] = [:], sessionId: String? = nil) {
    post(method, JSONMessage(params), sessionId: sessionId) { _ in }
  }

  private func post(
    _ method: String,
    _ params: JSONMessage,
    sessionId: String?,
    resume: @escaping @Sendable (Result<JSONMessage, WebSnapshotError>) -> Void
  ) {
    var message: [String: Any] = ["method": method, "params": params.object]
    if let sessionId { message["sessionId"] = sessionId }
    let failure: WebSnapshotError? = lock.withLock {
      if let closedError { return closedError }
      let identifier = nextIdentifier
      nextIdentifier += 1
      message["id"] = identifier
      guard var data = try? JSONSerialization.data(withJSONObject: message) else {
        return .malformedReply(method: method, detail: "its parameters are not JSON")
      }
      data.append(0)
      trace("→ \(String(decoding: data.prefix(300), as: UTF8.self))")
      pending[identifier] = Pending(method: method, sessionId: sessionId, resume: resume)
      // Written under the lock, so messages never interleave.
      if !writeAll(data) {
        pending[identifier] = nil
        return .browserExited("its command pipe is closed")
      }
      return nil
    }
    if let failure { resume(.failure(failure)) }
  }

  private func writeAll(_ data: Data) -> Bool {
    guard commandDescriptorOpen else { return false }
    return data.withUnsafeBytes { buffer -> Bool in
      guard var pointer = buffer.baseAddress else { return true }
      var remaining = buffer.count
      while remaining > 0 {
        let written = write(process.commandDescriptor, pointer, remaining)
        if written < 0 {
          if errno == EINTR { continue }
          return false
        }
        remaining -= written
        pointer += written
      }
      return true
    }
  }

  /// The "session" of the browser's own events, those without a `sessionId`.
  static let browserSession = ""

  /// Routes the events of `sessionId` (``browserSession`` for the browser's own) to `listener`
  /// until ``removeListener(for:)``.
  func addListener(_ listener: any DevToolsSessionListener, for sessionId: String) {
    let closed: WebSnapshotError? = lock.withLock {
      if closedError == nil { listeners[sessionId] = listener }
      return closedError
    }
    if let closed { listener.connectionClosed(closed) }
  }

  func removeListener(for sessionId: String) {
    _ = lock.withLock { listeners.removeValue(forKey: sessionId) }
  }

  /// Fails every command still waiting for a reply in `sessionId` (its page crashed, or the
  /// assertion gave up on it).
  func failCommands(of sessionId: String, with error: WebSnapshotError) {
    let failed: [Pending] = lock.withLock {
      let identifiers = pending.filter { $0.value.sessionId == sessionId }.map(\.key)
      return identifiers.compactMap { pending.removeValue(forKey: $0) }
    }
    for command in failed { command.resume(.failure(error)) }
  }

  // MARK: Reading

  private func readReplies() {
    var buffer = Data()
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes {
        read(process.replyDescriptor, $0.baseAddress, $0.count)
      }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      // Only the bytes just read are searched for the end of a message: a large reply (a
      // screenshot is megabytes of base64) arrives in many reads, and rescanning all of it after
      // each would be quadratic. Messages read are dropped once, after the loop.
      var searchFrom = buffer.endIndex
      buffer.append(contentsOf: chunk[0..<count])
      var consumed = buffer.startIndex
      while let end = buffer[searchFrom...].firstIndex(of: 0) {
        dispatch(buffer[consumed..<end])
        consumed = end + 1
        searchFrom = consumed
      }
      if consumed > buffer.startIndex { buffer = Data(buffer[consumed...]) }
    }
    closeDescriptor(process.replyDescriptor)
    // The watcher says how the browser ended (killed by a signal, an exit status); give it a
    // moment to do so before settling for less.
    let deadline = Date(timeIntervalSinceNow: 1)
    while !isClosed && Date() < deadline { usleep(10_000) }
    close(because: "its pipe closed")
  }

  /// Fails every waiting command and tells every listener, once.
  private func close(because reason: String) {
    let (failed, closedListeners): ([Pending], [any DevToolsSessionListener]) = lock.withLock {
      guard closedError == nil else { return ([], []) }
      closedError = .browserExited(reason)
      commandDescriptorOpen = false
      closeDescriptor(process.commandDescriptor)
      let failed = Array(pending.values)
      pending = [:]
      let closedListeners = Array(listeners.values)
      listeners = [:]
      return (failed, closedListeners)
    }
    for command in failed { command.resume(.failure(.browserExited(reason))) }
    for listener in closedListeners { listener.connectionClosed(.browserExited(reason)) }
  }

  private func dispatch(_ data: Data) {
    trace("← \(String(decoding: data.prefix(300), as: UTF8.self))")
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      return
    }
    let message = JSONMessage(object)
    if let identifier = message.int("id") {
      guard let command = lock.withLock({ pending.removeValue(forKey: identifier) }) else { return }
      if let error = message.message("error") {
        let text = error.string("message") ?? "an unknown error"
        let data = error.string("data").map { " (\($0))" } ?? ""
        command.resume(.failure(.protocolError(method: command.method, message: text + data)))
      } else {
        command.resume(.success(message.message("result") ?? JSONMessage()))
      }
      return
    }
    guard let method = message.string("method") else { return }
    let params = message.message("params") ?? JSONMessage()
    let sessionId = message.string("sessionId") ?? Self.browserSession
    if let listener = lock.withLock({ listeners[sessionId] }) {
      listener.receive(event: method, params: params)
    }
  }
}

/// Read once per process, whatever environment a test binds.
private let tracing = RunEnvironment.process[.webTrace] != nil

/// Writes a line about the protocol to standard error when `SNAPSHOT_TESTING_WEB_TRACE` is set.
func trace(_ line: @autoclosure () -> String) {
  guard tracing else { return }
  let milliseconds = Double(DispatchTime.now().uptimeNanoseconds / 100_000) / 10
  FileHandle.standardError.write(Data("[web \(milliseconds)] \(line())\n".utf8))
}

/// `close(2)`, out of reach of the connection's own `close(because:)`.
private func closeDescriptor(_ descriptor: Int32) {
  _ = close(descriptor)
}
