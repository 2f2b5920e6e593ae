import Dispatch
import InMemoryTracing
import Tracing

/// A tracer whose spans go to a ``TranscriptCapture``; it records through swift-distributed-
/// tracing's `InMemoryTracer` and notes when each span starts, so the transcript keeps order.
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
    let parent = context()
    guard let capture = capture ?? TranscriptCapture.current ?? parent[TranscriptCaptureKey.self]
    else {
      return TranscriptSpan(inner: nil, capture: nil, noOpContext: parent)
    }
    var context = parent
    context[TranscriptCaptureKey.self] = capture
    let inner = capture.inMemoryTracer.startSpan(
      operationName, context: context, ofKind: kind, at: instant(), function: function,
      file: fileID, line: line)
    capture.started(
      TranscriptSpanRecord(
        spanID: inner.spanID, parentSpanID: inner.parentSpanID, name: operationName, kind: kind))
    return TranscriptSpan(inner: inner, capture: capture, noOpContext: parent)
  }

  public func forceFlush() {}

  public func extract<Carrier, Extract: Extractor>(
    _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
  ) where Extract.Carrier == Carrier {
    (capture ?? TranscriptCapture.current)?.inMemoryTracer.extract(
      carrier, into: &context, using: extractor)
  }

  public func inject<Carrier, Inject: Injector>(
    _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
  ) where Inject.Carrier == Carrier {
    (capture ?? TranscriptCapture.current)?.inMemoryTracer.inject(
      context, into: &carrier, using: injector)
  }
}

/// The bootstrapped tracer: routes to the capture of the task (or context) that starts a span.
typealias RoutingTracer = TranscriptTracer

extension TranscriptTracer {
  init() { self.init(capture: nil) }
}

/// A span of a ``TranscriptTracer``: an `InMemorySpan` that also notices a second `end`.
public struct TranscriptSpan: Span {
  let inner: InMemorySpan?
  let capture: TranscriptCapture?
  let noOpContext: ServiceContext

  public var context: ServiceContext { inner?.context ?? noOpContext }

  public var operationName: String {
    get { inner?.operationName ?? "" }
    nonmutating set { inner?.operationName = newValue }
  }

  public var attributes: SpanAttributes {
    get { inner?.attributes ?? [:] }
    nonmutating set { inner?.attributes = newValue }
  }

  public var isRecording: Bool { inner?.isRecording ?? false }

  public func setStatus(_ status: SpanStatus) { inner?.setStatus(status) }

  public func addEvent(_ event: SpanEvent) { inner?.addEvent(event) }

  public func recordError<Instant: TracerInstant>(
    _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
  ) {
    inner?.recordError(error, attributes: attributes, at: instant())
  }

  public func addLink(_ link: SpanLink) { inner?.addLink(link) }

  public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
    guard let inner, let capture else { return }
    _ = capture.ended(inner.spanID)
    inner.end(at: instant())
  }
}
