import Foundation
import InMemoryTracing
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
    let state = TranscriptSpanState(
      capture: capture,
      parent: parent,
      inheritedTraceID: parent == nil ? parentContext.inMemorySpanContext?.traceID : nil,
      name: operationName,
      kind: kind,
      startNanoseconds: instant().nanosecondsSinceEpoch
    )
    var spanContext = parentContext
    spanContext[TranscriptSpanKey.self] = state
    capture.start(state)
    return TranscriptSpan(state: state, spanContext: spanContext)
  }

  public func forceFlush() {}

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

  public var context: ServiceContext { spanContext }

  public var operationName: String {
    get { state?.read { $0.name } ?? "" }
    nonmutating set { state?.change { $0.name = newValue } }
  }

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

  public var isRecording: Bool { state?.read { $0.isRecording } ?? false }

  public func setStatus(_ status: SpanStatus) { state?.change { $0.status = status } }

  public func addEvent(_ event: SpanEvent) { state?.change { $0.events.append(event) } }

  public func recordError<Instant: TracerInstant>(
    _ error: any Error,
    attributes: SpanAttributes,
    at instant: @autoclosure () -> Instant
  ) {
    state?.change { $0.errors.append(error) }
  }

  public func addLink(_ link: SpanLink) { state?.change { $0.links.append(link) } }

  public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
    guard let state else { return }
    let nanoseconds = instant().nanosecondsSinceEpoch
    state.capture.lock.withLock {
      guard !state.capture.closed else { return }
      state.endCount += 1
      if state.endCount == 1 {
        state.endNanoseconds = nanoseconds
        state.endName = state.name
      }
    }
  }
}

/// One span's record in a capture: what it was started with, and what was set on it until it
/// ended. The mutable part is guarded by the capture's lock, and final once the capture closes.
final class TranscriptSpanState: @unchecked Sendable {
  /// Strong: the capture lets go of its events when it closes, so this makes no cycle.
  let capture: TranscriptCapture
  let parent: TranscriptSpanState?
  /// The trace of a parent context from elsewhere (`extract`, an `InMemoryTracer`'s span).
  let inheritedTraceID: String?
  let startName: String
  let kind: SpanKind
  let startNanoseconds: UInt64

  /// In start order within the capture, from 1 (0 for a span left out of a closed capture).
  @exclusivity(unchecked) var number = 0
  /// A root's trace, numbered in start order; a child's comes from its root.
  @exclusivity(unchecked) var traceNumber = 0
  @exclusivity(unchecked) var name: String
  @exclusivity(unchecked) var attributes: SpanAttributes = [:]
  @exclusivity(unchecked) var events: [SpanEvent] = []
  @exclusivity(unchecked) var errors: [any Error] = []
  @exclusivity(unchecked) var links: [SpanLink] = []
  @exclusivity(unchecked) var status: SpanStatus?
  @exclusivity(unchecked) var endCount = 0
  @exclusivity(unchecked) var endNanoseconds: UInt64 = 0
  /// The name when it first ended: a server framework renames its span once the route is known.
  @exclusivity(unchecked) var endName: String?

  init(
    capture: TranscriptCapture,
    parent: TranscriptSpanState?,
    inheritedTraceID: String?,
    name: String,
    kind: SpanKind,
    startNanoseconds: UInt64
  ) {
    self.capture = capture
    self.parent = parent
    self.inheritedTraceID = inheritedTraceID
    self.startName = name
    self.name = name
    self.kind = kind
    self.startNanoseconds = startNanoseconds
  }

  var isRecording: Bool { endCount == 0 && !capture.closed }

  var traceID: String {
    if let parent { return parent.traceID }
    return inheritedTraceID ?? "trace-\(traceNumber)"
  }

  var spanID: String { "span-\(number)" }

  var spanContext: InMemorySpanContext {
    InMemorySpanContext(traceID: traceID, spanID: spanID, parentSpanID: parent?.spanID)
  }

  func read<T: Sendable>(_ body: (TranscriptSpanState) -> T) -> T {
    capture.lock.withLock { body(self) }
  }

  /// The attributes, left empty here until they are set again; a copy once the span no longer
  /// records, since a change is then dropped.
  func takeAttributes() -> SpanAttributes {
    capture.lock.withLock {
      guard isRecording else { return attributes }
      defer { attributes = [:] }
      return attributes
    }
  }

  /// Applies a change while the span records; once it ended or the capture closed, drops it.
  func change(_ body: (TranscriptSpanState) -> Void) {
    capture.lock.withLock {
      if isRecording { body(self) }
    }
  }
}

/// Carries a span of a ``TranscriptTracer`` in its `ServiceContext`, and with it the capture.
enum TranscriptSpanKey: ServiceContextKey {
  typealias Value = TranscriptSpanState
}
