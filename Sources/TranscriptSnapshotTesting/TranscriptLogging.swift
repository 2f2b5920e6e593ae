import Logging
import RunRecord
import Tracing

/// Writes each entry into one capture, whatever task logs it.
struct TranscriptLogHandler: LogHandler {
  var label: String
  let capture: TranscriptCapture
  var metadata: Logger.Metadata = [:] {
    didSet { metadataVersion = LoggerMetadataVersion.next() }
  }
  /// Which value `metadata` holds (see ``LoggerMetadataVersion``).
  private var metadataVersion = 0
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
    capture.append(
      .log(
        TranscriptLogRecord(
          label: label, loggerMetadata: metadata, metadataVersion: metadataVersion, event: event)
      )
    )
  }
}

/// The bootstrapped handler: an entry goes to the capture of the task that logs it (or of the
/// `ServiceContext` it carries), and to the fallback handler outside any capture.
struct RoutingLogHandler: LogHandler {
  var label: String
  var fallback: any LogHandler
  /// The logger's metadata, kept here as well as given to the fallback: a fallback may drop it
  /// (swift-log's no-op handler, the default, does), and the capture still needs it.
  private var ownMetadata: Logger.Metadata = [:] {
    didSet { metadataVersion = LoggerMetadataVersion.next() }
  }
  /// Which value `ownMetadata` holds (see ``LoggerMetadataVersion``).
  private var metadataVersion = 0
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
  /// Every level inside a capture (the strategy filters by level), found as `log(event:)` finds
  /// it: swift-log asks for the level first and drops what is below it, so a level that looked
  /// only at the task would drop entries made on a task that carries a capture's context alone.
  var logLevel: Logger.Level {
    get { Self.capture == nil ? fallback.logLevel : .trace }
    set { fallback.logLevel = newValue }
  }

  /// The capture of the task that logs, or of the `ServiceContext` it carries.
  private static var capture: TranscriptCapture? {
    TranscriptCapture.current ?? ServiceContext.current?.transcriptCapture
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
    if let capture = Self.capture {
      capture.append(
        .log(
          TranscriptLogRecord(
            label: label, loggerMetadata: metadata, metadataVersion: metadataVersion, event: event)
        )
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

/// Numbers each value a handler's metadata takes, process-wide: every change gets a number never
/// given before, and 0 is the empty metadata a handler starts with. Two entries with one number
/// were logged with the same metadata (copies of one handler included), so the text sorts and
/// writes a logger's pairs once per number, without comparing dictionaries.
enum LoggerMetadataVersion {
  private static let last = Locked(0)

  static func next() -> Int {
    last.withLock { last in
      last += 1
      return last
    }
  }
}
