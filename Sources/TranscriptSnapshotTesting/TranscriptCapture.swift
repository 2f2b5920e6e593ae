import Foundation
import HTTPSnapshotTesting
import HTTPTypes
import InMemoryTracing
import Logging
import Tracing

/// What one piece of server work did, in the order it happened: the HTTP exchange, log entries,
/// spans, outgoing requests and the error it threw, ready for the `.transcript` strategy.
///
/// Make one with ``record(_:)``:
///
/// ```swift
/// let transcript = await Transcript.record { capture in
///   capture.record(request)
///   let response = try await handler(request, capture.logger(label: "app"), capture.tracer)
///   capture.record(response)
/// }
/// assertSnapshot(of: transcript, as: .transcript)
/// ```
public struct Transcript: Sendable {
  let events: [TranscriptEvent]
  let spans: [String: TranscriptSpanRecord]
  let ignored: Int

  /// Runs `work` with a capture of its own and returns what it recorded.
  ///
  /// The capture is the task's for as long as `work` runs: entries from loggers made by a
  /// bootstrapped `LoggingSystem` and spans from `InstrumentationSystem.tracer` reach it when
  /// ``bootstrap(fallbackLogHandler:)`` was called, and the capture's own
  /// ``TranscriptCapture/logger(label:)`` and ``TranscriptCapture/tracer`` always do. An error
  /// `work` throws ends the transcript, after what was recorded so far. Once `record` returns
  /// the capture is closed: a task that outlives it and still logs is counted, never written
  /// into another test's transcript.
  public static func record(
    _ work: (TranscriptCapture) async throws -> Void
  ) async -> Transcript {
    let capture = TranscriptCapture()
    do {
      try await TranscriptCapture.$current.withValue(capture) {
        try await work(capture)
      }
    } catch {
      capture.append(.error(String(describing: error)))
    }
    return capture.close()
  }

  /// Routes the process's logging and tracing to the capture of the task that logs or starts a
  /// span; call it once per test process before any `Logger` is made (for example in a test
  /// suite's `init`). Calling it again does nothing.
  ///
  /// swift-log and swift-distributed-tracing accept one bootstrap per process: if the code under
  /// test bootstraps its own, call this instead in tests and pass that handler as
  /// `fallbackLogHandler`, which receives every entry made outside a capture. Work that takes a
  /// `Logger` or a tracer as a parameter needs no bootstrap: pass the capture's.
  public static func bootstrap(
    fallbackLogHandler: @escaping @Sendable (String) -> any LogHandler = { _ in
      SwiftLogNoOpLogHandler()
    }
  ) {
    TranscriptBootstrap.once(fallbackLogHandler)
  }
}

/// The recording side of a ``Transcript``: HTTP messages, a logger and a tracer writing into it.
public final class TranscriptCapture: @unchecked Sendable {
  @TaskLocal static var current: TranscriptCapture?

  private let lock = NSLock()
  private var events: [TranscriptEvent] = []
  private var spans: [String: TranscriptSpanRecord] = [:]
  private var closed = false
  private var ignored = 0
  let inMemoryTracer = InMemoryTracer()

  init() {}

  /// The tracer whose spans go to this capture, to pass to work that takes one. It records
  /// through swift-distributed-tracing's `InMemoryTracer`.
  public var tracer: TranscriptTracer { TranscriptTracer(capture: self) }

  /// A logger whose entries go to this capture, at every level (the strategy filters by level).
  public func logger(label: String) -> Logger {
    var logger = Logger(label: label) { label in TranscriptLogHandler(label: label, capture: self) }
    logger.logLevel = .trace
    return logger
  }

  /// Records the request the work handles, with its body, as `.http` prints it.
  public func record(_ request: HTTPRequest, body: Data? = nil) {
    append(.http(HTTPMessage(request, body: body), outgoing: false))
  }

  /// Records the response the work gave, with its body, as `.http` prints it.
  public func record(_ response: HTTPResponse, body: Data? = nil) {
    append(.http(HTTPMessage(response, body: body), outgoing: false))
  }

  /// Records a request the work sent to another service, or that service's response.
  public func recordOutgoing(_ message: HTTPMessage) {
    append(.http(message, outgoing: true))
  }

  func append(_ event: TranscriptEvent) {
    lock.lock()
    defer { lock.unlock() }
    if closed {
      ignored += 1
    } else {
      events.append(event)
    }
  }

  /// Notes a span's start; returns false when the capture is closed.
  func started(_ record: TranscriptSpanRecord) {
    lock.lock()
    defer { lock.unlock() }
    if closed {
      ignored += 1
      return
    }
    spans[record.spanID] = record
    events.append(.span(record.spanID))
  }

  /// Counts an end of the span; returns how many times it has now been ended.
  func ended(_ spanID: String) -> Int {
    lock.lock()
    defer { lock.unlock() }
    spans[spanID]?.endCount += 1
    return spans[spanID]?.endCount ?? 0
  }

  func close() -> Transcript {
    let finished = inMemoryTracer.finishedSpans
    lock.lock()
    defer { lock.unlock() }
    closed = true
    for span in finished where spans[span.spanID] != nil {
      spans[span.spanID]?.finished = span
    }
    return Transcript(events: events, spans: spans, ignored: ignored)
  }
}

enum TranscriptEvent: Sendable {
  case http(HTTPMessage, outgoing: Bool)
  case log(TranscriptLogRecord)
  case span(String)
  case error(String)
}

struct TranscriptLogRecord: Sendable {
  var label: String
  var level: Logger.Level
  var message: String
  var metadata: Logger.Metadata
  var file: String
  var line: UInt
}

struct TranscriptSpanRecord: Sendable {
  var spanID: String
  var parentSpanID: String?
  var name: String
  var kind: SpanKind
  var endCount = 0
  var finished: FinishedInMemorySpan?
}

enum TranscriptBootstrap {
  nonisolated(unsafe) private static var done = false
  private static let lock = NSLock()

  static func once(_ fallback: @escaping @Sendable (String) -> any LogHandler) {
    lock.lock()
    defer { lock.unlock() }
    guard !done else { return }
    done = true
    LoggingSystem.bootstrap { label in RoutingLogHandler(label: label, fallback: fallback(label)) }
    InstrumentationSystem.bootstrap(RoutingTracer())
  }
}
