import Foundation
import InMemoryTracing
import RunRecord
import Tracing

/// A tracer whose spans go to a ``TranscriptCapture``, in the order they start.
///
/// Each span is one light record in the capture, its changes kept under the capture's lock;
/// a span's context carries it, so that children, log entries and spans made from that context
/// (even on a detached task) reach the same capture. `inject` and `extract` use the header
/// names of swift-distributed-tracing's `InMemoryTracer` (`in-memory-trace-id`,
/// `in-memory-span-id`), and a link to a span of `InMemoryTracer` is numbered like one of ours.
public struct TranscriptTracer: Tracer {
  let capture: TranscriptCapture?

  init(capture: TranscriptCapture?) {
    self.capture = capture
  }

  /// Starts a span in the capture of this tracer, of the current task, or of the parent span
  /// in `context`; outside any capture, a span that records nothing.
  public func startSpan<Instant: TracerInstant>(
    _ operationName: String,
    context: @autoclosure () -> ServiceContext,
    ofKind kind: SpanKind,
    at instant: @autoclosure () -> Instant,
    function: String,
    file fileID: String,
    line: UInt
  ) -> TranscriptSpan {
    let parentContext = context()
    let parentSpan = parentContext[TranscriptSpanKey.self]
    guard
      let capture = capture ?? TranscriptCapture.current ?? parentSpan?.capture
    else {
      return TranscriptSpan(state: nil, spanContext: parentContext)
    }
    // A parent of another capture (a context handed across tests) starts a new tree here.
    let parent = parentSpan?.capture === capture ? parentSpan : nil
    let state = capture.startSpan(
      parent: parent,
      inheritedTraceID: parent == nil ? parentContext.inMemorySpanContext?.traceID : nil,
      name: operationName,
      kind: kind,
      startNanoseconds: instant().nanosecondsSinceEpoch
    )
    var spanContext = parentContext
    spanContext[TranscriptSpanKey.self] = state
    return TranscriptSpan(state: state, spanContext: spanContext)
  }

  /// Does nothing: spans are in the capture as soon as they end.
  public func forceFlush() {}

  /// Reads a span context from `carrier` with `InMemoryTracer`'s header names.
  public func extract<Carrier, Extract: Extractor>(
    _ carrier: Carrier,
    into context: inout ServiceContext,
    using extractor: Extract
  ) where Extract.Carrier == Carrier {
    (capture ?? TranscriptCapture.current)?.propagation.extract(
      carrier,
      into: &context,
      using: extractor
    )
  }

  /// Writes the current span's context into `carrier` with `InMemoryTracer`'s header names.
  public func inject<Carrier, Inject: Injector>(
    _ context: ServiceContext,
    into carrier: inout Carrier,
    using injector: Inject
  ) where Inject.Carrier == Carrier {
    guard let capture = capture ?? TranscriptCapture.current else { return }
    var context = context
    if let span = context[TranscriptSpanKey.self] {
      context.inMemorySpanContext = span.spanContext
    }
    capture.propagation.inject(context, into: &carrier, using: injector)
  }
}

/// The bootstrapped tracer: routes to the capture of the task (or context) that starts a span.
typealias RoutingTracer = TranscriptTracer

extension TranscriptTracer {
  init() { self.init(capture: nil) }
}

/// A span of a ``TranscriptTracer``. Changes after its first `end`, or after the transcript was
/// taken, are left out; a second `end` is counted and shown.
public struct TranscriptSpan: Span {
  let state: TranscriptSpanState?
  /// The context it was started with, and the span in it; the state never holds it, since the
  /// context holds the state.
  let spanContext: ServiceContext

  /// The context the span was started with, holding the span itself.
  public var context: ServiceContext { spanContext }

  /// The span's name, as the transcript shows it.
  public var operationName: String {
    get { state?.read { $0.name } ?? "" }
    nonmutating set { state?.change { $0.name = newValue } }
  }

  /// The span's attributes, shown sorted by key in the transcript.
  public var attributes: SpanAttributes {
    get { state?.read { $0.attributes } ?? [:] }
    nonmutating set { state?.change { $0.attributes = newValue } }
    // `span.attributes[key] = value`: the attributes are moved out and back rather than read and
    // written, so that setting one changes the dictionary in place instead of copying it.
    // A span's first attribute makes room for four, so that the next few are added without
    // growing the dictionary again and again.
    nonmutating _modify {
      var attributes = state?.takeAttributes() ?? [:]
      if attributes.isEmpty { attributes.reserveCapacity(4) }
      defer { state?.change { $0.attributes = attributes } }
      yield &attributes
    }
  }

  /// Whether changes are still kept: until the span ends or its transcript is taken.
  public var isRecording: Bool { state?.isRecording ?? false }

  /// Sets the status the transcript shows.
  public func setStatus(_ status: SpanStatus) { state?.change { $0.status = status } }

  /// Adds an event, shown under the span in the order added.
  public func addEvent(_ event: SpanEvent) { state?.change { $0.events.append(event) } }

  /// Records an error, shown under the span.
  public func recordError<Instant: TracerInstant>(
    _ error: any Error,
    attributes: SpanAttributes,
    at instant: @autoclosure () -> Instant
  ) {
    state?.change { $0.errors.append(error) }
  }

  /// Adds a link to another span, shown by that span's number.
  public func addLink(_ link: SpanLink) { state?.change { $0.links.append(link) } }

  /// Ends the span; a second end is counted and shown.
  public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
    state?.end(atNanoseconds: instant().nanosecondsSinceEpoch)
  }
}

/// The trace of a span: numbered in start order for a root of the capture, or the trace of a
/// parent context from elsewhere (`extract`, an `InMemoryTracer`'s span); a child has its root's.
enum SpanTrace: Sendable {
  case numbered(Int)
  case inherited(String)
}

/// One span's record in a capture: what it was started with, and behind a lock what was set on
/// it until it ended. Changes are made while the capture's lock is held too, so that none lands
/// once the capture is closed: the record is final when the transcript is taken.
///
/// A span names its parent by number, never by reference: a chain of a million nested spans
/// would otherwise be freed by a million nested releases.
final class TranscriptSpanState: Sendable {
  /// Strong: the capture lets go of its events when it closes, so this makes no cycle.
  let capture: TranscriptCapture
  /// In start order within the capture, from 1 (0 for a span left out of a closed capture).
  let number: Int
  /// The parent's number in the same capture, or 0 for a root.
  let parentNumber: Int
  let trace: SpanTrace
  let startName: String
  let kind: SpanKind
  let startNanoseconds: UInt64
  private let record: Locked<SpanRecord>

  /// What changes on a span while it records.
  struct SpanRecord: Sendable {
    var name: String
    var attributes: SpanAttributes = [:]
    var events: [SpanEvent] = []
    var errors: [any Error] = []
    var links: [SpanLink] = []
    var status: SpanStatus?
    var endCount = 0
    var endNanoseconds: UInt64 = 0
    /// The name when it first ended: a server framework renames its span once the route is
    /// known.
    var endName: String?
  }

  init(
    capture: TranscriptCapture,
    number: Int,
    parentNumber: Int,
    trace: SpanTrace,
    name: String,
    kind: SpanKind,
    startNanoseconds: UInt64
  ) {
    self.capture = capture
    self.number = number
    self.parentNumber = parentNumber
    self.trace = trace
    self.startName = name
    self.kind = kind
    self.startNanoseconds = startNanoseconds
    self.record = Locked(SpanRecord(name: name))
  }

  /// What was set on the span so far (final once the capture is closed).
  var recorded: SpanRecord { record.withLock { $0 } }

  var isRecording: Bool {
    capture.whileOpen { record.withLock { $0.endCount == 0 } } ?? false
  }

  var traceID: String {
    switch trace {
    case .numbered(let number): "trace-\(number)"
    case .inherited(let id): id
    }
  }

  var spanID: String { "span-\(number)" }

  var spanContext: InMemorySpanContext {
    InMemorySpanContext(
      traceID: traceID,
      spanID: spanID,
      parentSpanID: parentNumber == 0 ? nil : "span-\(parentNumber)"
    )
  }

  func read<T: Sendable>(_ body: (SpanRecord) -> T) -> T {
    record.withLock { body($0) }
  }

  /// The attributes, left empty here until they are set again; a copy once the span no longer
  /// records, since a change is then dropped.
  func takeAttributes() -> SpanAttributes {
    capture.whileOpen {
      record.withLock { record in
        guard record.endCount == 0 else { return record.attributes }
        defer { record.attributes = [:] }
        return record.attributes
      }
    } ?? read { $0.attributes }
  }

  /// Applies a change while the span records; once it ended or the capture closed, drops it.
  func change(_ body: (inout SpanRecord) -> Void) {
    _ = capture.whileOpen {
      record.withLock { record in
        if record.endCount == 0 { body(&record) }
      }
    }
  }

  /// Counts an end; the first one sets the end time and name.
  func end(atNanoseconds nanoseconds: UInt64) {
    _ = capture.whileOpen {
      record.withLock { record in
        record.endCount += 1
        if record.endCount == 1 {
          record.endNanoseconds = nanoseconds
          record.endName = record.name
        }
      }
    }
  }
}

/// Carries a span of a ``TranscriptTracer`` in its `ServiceContext`, and with it the capture.
enum TranscriptSpanKey: ServiceContextKey {
  typealias Value = TranscriptSpanState
}
