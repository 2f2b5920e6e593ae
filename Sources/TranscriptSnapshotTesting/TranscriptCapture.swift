import Foundation
import HTTPSnapshotTesting
import HTTPTypes
import InMemoryTracing
import Logging
import RunRecord
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
  /// The events in the order they happened, in the blocks the capture filled.
  let blocks: [[TranscriptEvent]]

  /// The events in the order they happened.
  var events: FlattenSequence<[[TranscriptEvent]]> { blocks.joined() }

  init(blocks: [[TranscriptEvent]]) {
    self.blocks = blocks
  }

  /// A transcript of the given events, in one block.
  init(events: [TranscriptEvent]) {
    self.blocks = [events]
  }

  /// Runs `work` with a capture of its own and returns what it recorded.
  ///
  /// The capture is the task's for as long as `work` runs: entries from loggers made by a
  /// bootstrapped `LoggingSystem` and spans from `InstrumentationSystem.tracer` reach it when
  /// ``bootstrap(fallbackLogHandler:)`` was called, and the capture's own
  /// ``TranscriptCapture/logger(label:)`` and ``TranscriptCapture/tracer`` always do. An error
  /// `work` throws ends the transcript, after what was recorded so far. Once `record` returns
  /// the capture is closed: what a task that outlives it still logs or traces is dropped, never
  /// written into another test's transcript.
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
///
/// Capture is kept cheap because it runs inside the work a test measures: an entry or a span
/// start is one append of a compact record (the `LogEvent` and metadata as given, a span's
/// state) under one lock; nothing is formatted, merged or sorted until the text is rendered.
public final class TranscriptCapture: Sendable {
  @TaskLocal static var current: TranscriptCapture?

  /// The events so far and the numbering of spans, behind the capture's one lock.
  private let state = Locked(CaptureState())
  /// Carries span identities across process boundaries (`inject`, `extract`) with the header
  /// names of swift-distributed-tracing's `InMemoryTracer`; it records no spans.
  let propagation = InMemoryTracer(recordInjections: false, recordExtractions: false)

  private struct CaptureState: Sendable {
    /// The events so far: full blocks, then the one being filled. A full block is never copied
    /// into a larger one; the next block is twice its size, up to `largestBlock`.
    var blocks: [[TranscriptEvent]] = []
    var filling: [TranscriptEvent] = []
    /// Set by `close()`; from then on entries, spans and changes to spans are left out.
    var closed = false
    var spanCount = 0
    var traceCount = 0
    static let firstBlock = 64
    static let largestBlock = 4_096

    init() {
      filling.reserveCapacity(Self.firstBlock)
    }

    /// Appends an event, starting a new block when the one being filled is full.
    mutating func add(_ event: consuming TranscriptEvent) {
      if filling.count == filling.capacity {
        let size = min(filling.capacity * 2, Self.largestBlock)
        blocks.append(filling)
        filling = []
        filling.reserveCapacity(size)
      }
      filling.append(event)
    }
  }

  init() {}

  /// The tracer whose spans go to this capture, to pass to work that takes one.
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

  func append(_ event: consuming TranscriptEvent) {
    // The event is moved in, not copied (a copy retains and then releases each of its strings
    // and dictionaries): out of this optional, inside the lock.
    var event = Optional(event)
    state.withLock { state in
      // A closed capture's transcript is taken: what arrives now is nobody's.
      if !state.closed, let event = event.take() { state.add(event) }
    }
  }

  /// Starts a span: numbered (and its trace, for a root of a new trace) in start order and noted,
  /// unless the capture is closed, when it is numbered 0 and never recorded.
  func startSpan(
    parent: TranscriptSpanState?,
    inheritedTraceID: String?,
    name: String,
    kind: SpanKind,
    startNanoseconds: UInt64
  ) -> TranscriptSpanState {
    state.withLock { state in
      var number = 0
      var trace = parent?.trace ?? inheritedTraceID.map(SpanTrace.inherited) ?? .numbered(0)
      if !state.closed {
        state.spanCount += 1
        number = state.spanCount
        if parent == nil && inheritedTraceID == nil {
          state.traceCount += 1
          trace = .numbered(state.traceCount)
        }
      }
      let span = TranscriptSpanState(
        capture: self,
        number: number,
        parentNumber: parent?.number ?? 0,
        trace: trace,
        name: name,
        kind: kind,
        startNanoseconds: startNanoseconds
      )
      if number > 0 { state.add(.span(span)) }
      return span
    }
  }

  /// Runs `body` while the capture is open, under its lock, so that nothing changes once the
  /// transcript is taken; returns `nil` once it is closed.
  func whileOpen<T: Sendable>(_ body: () -> T) -> T? {
    state.withLock { state in state.closed ? nil : body() }
  }

  func close() -> Transcript {
    state.withLock { state in
      state.closed = true
      // Spans hold their capture; letting go of them here leaves no cycle.
      if !state.filling.isEmpty { state.blocks.append(state.filling) }
      state.filling = []
      defer { state.blocks = [] }
      return Transcript(blocks: state.blocks)
    }
  }
}

enum TranscriptEvent: Sendable {
  case http(HTTPMessage, outgoing: Bool)
  case log(TranscriptLogRecord)
  /// A span, at its start; its state is final once the capture is closed.
  case span(TranscriptSpanState)
  case error(String)
}

/// An entry as the handler got it: merging the logger's metadata with the entry's waits for the
/// text.
struct TranscriptLogRecord: Sendable {
  var label: String
  var loggerMetadata: Logger.Metadata
  /// Which value `loggerMetadata` is (``LoggerMetadataVersion``).
  var metadataVersion: Int
  var event: LogEvent
}

enum TranscriptBootstrap {
  /// Whether the bootstrap ran; the lock is held while it runs, so no caller returns before.
  private static let done = Locked(false)

  static func once(_ fallback: @escaping @Sendable (String) -> any LogHandler) {
    done.withLock { done in
      guard !done else { return }
      done = true
      LoggingSystem.bootstrap { label in
        RoutingLogHandler(label: label, fallback: fallback(label))
      }
      InstrumentationSystem.bootstrap(RoutingTracer())
    }
  }
}
