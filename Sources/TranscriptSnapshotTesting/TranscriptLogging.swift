import Logging
import Tracing

/// Writes each entry into one capture, whatever task logs it.
struct TranscriptLogHandler: LogHandler {
  var label: String
  let capture: TranscriptCapture
  var metadata: Logger.Metadata = [:]
  var metadataProvider: Logger.MetadataProvider?
  var logLevel: Logger.Level = .trace

  init(label: String, capture: TranscriptCapture) {
    self.label = label
    self.capture = capture
  }

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    capture.append(.log(TranscriptLogRecord(label: label, loggerMetadata: metadata, event: event)))
  }
}

/// The bootstrapped handler: an entry goes to the capture of the task that logs it (or of the
/// `ServiceContext` it carries), and to the fallback handler outside any capture.
struct RoutingLogHandler: LogHandler {
  var label: String
  var fallback: any LogHandler
  /// The logger's metadata, kept here as well as given to the fallback: a fallback may drop it
  /// (swift-log's no-op handler, the default, does), and the capture still needs it.
  private var ownMetadata: Logger.Metadata = [:]
  var metadata: Logger.Metadata {
    get { ownMetadata }
    set {
      ownMetadata = newValue
      fallback.metadata = newValue
    }
  }
  var metadataProvider: Logger.MetadataProvider? {
    get { fallback.metadataProvider }
    set { fallback.metadataProvider = newValue }
  }
  var logLevel: Logger.Level {
    get { TranscriptCapture.current == nil ? fallback.logLevel : .trace }
    set { fallback.logLevel = newValue }
  }

  init(label: String, fallback: any LogHandler) {
    self.label = label
    self.fallback = fallback
  }

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { ownMetadata[key] }
    set {
      ownMetadata[key] = newValue
      fallback[metadataKey: key] = newValue
    }
  }

  func log(event: LogEvent) {
    if let capture = TranscriptCapture.current ?? ServiceContext.current?.transcriptCapture {
      capture.append(
        .log(TranscriptLogRecord(label: label, loggerMetadata: metadata, event: event))
      )
    } else {
      fallback.log(event: event)
    }
  }
}

extension ServiceContext {
  /// The capture this context leads to: the one its span of a ``TranscriptTracer`` records into,
  /// so that entries made from the context reach the test that made it even from a task of
  /// another tree.
  var transcriptCapture: TranscriptCapture? { self[TranscriptSpanKey.self]?.capture }
}
