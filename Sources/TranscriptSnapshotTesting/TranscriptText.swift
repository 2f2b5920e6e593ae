import Foundation
import HTTPSnapshotTesting
import InMemoryTracing
import Logging
import Tracing

/// What the transcript strategy prints and leaves out.
struct TranscriptOptions: Sendable {
  var minimumLevel: Logger.Level
  var durationBucket: Duration?
  var sourceLocations: Bool
  /// Longer log messages and values are cut here, with a note of how much was left out.
  static let maximumValueLength = 4096
}

/// Renders a transcript into one text: one section per event, spans as an indented tree at their
/// root's start.
///
/// It also notes where the text's values lie that may hold a UUID or an ISO 8601 date (the only
/// places an identity can be, see ``TranscriptIdentities``), so that scrubbing reads those
/// values rather than the whole text.
struct TranscriptText {
  let transcript: Transcript
  let options: TranscriptOptions
  private var text = ""
  /// UTF-8 offsets in `text` of the values that may hold a UUID or a date, in order.
  private var candidates: [Range<Int>] = []
  private var traceIDs: [String: Int] = [:]
  private var spanIDs: [String: Int] = [:]
  private var requestIDs: [String: Int] = [:]
  private let children: [ObjectIdentifier: [TranscriptSpanState]]

  init(_ transcript: Transcript, options: TranscriptOptions) {
    self.transcript = transcript
    self.options = options
    var children: [ObjectIdentifier: [TranscriptSpanState]] = [:]
    for case .span(let span) in transcript.events {
      guard let parent = span.parent else { continue }
      children[ObjectIdentifier(parent), default: []].append(span)
    }
    self.children = children
  }

  static func render(_ transcript: Transcript, options: TranscriptOptions) -> String {
    rendered(transcript, options: options).text
  }

  /// The text, and the ranges of its values that may hold an identity.
  static func rendered(
    _ transcript: Transcript, options: TranscriptOptions
  ) -> (text: String, candidates: [Range<Int>]) {
    var text = TranscriptText(transcript, options: options)
    text.render()
    return (text.text, text.candidates)
  }

  private mutating func render() {
    for event in transcript.events {
      switch event {
      case .http(let message, let outgoing):
        let kind: String
        switch message.head {
        case .request: kind = outgoing ? "outgoing request" : "request"
        case .response: kind = outgoing ? "outgoing response" : "response"
        }
        line("── \(kind)")
        newLine()
        value(Self.http(message))
      case .log(let record):
        guard record.event.level >= options.minimumLevel else { continue }
        log(record)
      case .span(let span):
        // A child is written under its parent.
        guard span.parent == nil else { continue }
        line("── span")
        self.span(span, depth: 0)
      case .error(let description):
        line("── error")
        newLine()
        value(Self.escaped(description))
      }
    }
    if transcript.ignored > 0 {
      line("── after the transcript was taken")
      line("\(transcript.ignored) entries or spans arrived and were left out")
    }
  }

  /// Starts a line: a line break before every line but the first.
  private mutating func newLine() {
    if !text.isEmpty { text += "\n" }
  }

  /// A line of the transcript's own words, which never hold an identity.
  private mutating func line(_ words: String) {
    newLine()
    text += words
  }

  /// Appends a value that came from the work (already escaped), noting it when it may hold an
  /// identity.
  private mutating func value(_ value: String) {
    let start = text.utf8.count
    text += value
    if TranscriptIdentities.mayHoldIdentity(value) {
      candidates.append(start..<text.utf8.count)
    }
  }

  private mutating func log(_ record: TranscriptLogRecord) {
    newLine()
    text += "── log "
    text += record.event.level.rawValue
    text += " "
    value(Self.escaped(record.label))
    text += ": "
    value(Self.escaped(record.event.message.description))
    if options.sourceLocations {
      text += " ("
      value(record.event.file)
      text += ":\(record.event.line))"
    }
    for (key, metadataValue) in record.metadata.sorted(by: { $0.key < $1.key }) {
      var metadataValue = "\(metadataValue)"
      if Self.namesARequestID(key) { metadataValue = requestID(metadataValue) }
      newLine()
      text += "  "
      value(Self.escaped(key))
      text += ": "
      value(Self.escaped(metadataValue))
    }
  }

  private mutating func span(_ span: TranscriptSpanState, depth: Int) {
    let indent = String(repeating: "  ", count: depth)
    newLine()
    text += indent
    // The name it ended with: a server framework renames its span once the route is known.
    value(Self.escaped(span.endName ?? span.startName))
    text += " ("
    text += Self.name(of: span.kind)
    text += ")"
    let inner = indent + "  "
    if span.endCount > 0 {
      attributes(span.attributes, indent: inner)
      for event in span.events {
        newLine()
        text += inner
        text += "event "
        value(Self.escaped(event.name))
        attributes(event.attributes, indent: inner + "  ")
      }
      for error in span.errors {
        newLine()
        text += inner
        text += "error "
        value(Self.escaped(String(describing: error)))
      }
      for link in span.links {
        if let linked = link.context[TranscriptSpanKey.self] {
          line("\(inner)link \(traceID(linked.traceID)) \(spanID(linked.spanID))")
        } else if let context = link.context.inMemorySpanContext {
          line("\(inner)link \(traceID(context.traceID)) \(spanID(context.spanID))")
        } else {
          line("\(inner)link (a context with no span)")
        }
      }
      if let status = span.status {
        newLine()
        text += inner
        text += "status "
        text += status.code == .ok ? "ok" : "error"
        if let message = status.message {
          text += ": "
          value(Self.escaped(message))
        }
      }
      if let bucket = options.durationBucket {
        let nanoseconds = span.endNanoseconds &- span.startNanoseconds
        line("\(inner)duration \(Self.rounded(nanoseconds, to: bucket))")
      }
      if span.endCount > 1 { line("\(inner)! ended \(span.endCount) times") }
    } else {
      line("\(inner)! never ended")
    }
    for child in children[ObjectIdentifier(span)] ?? [] {
      self.span(child, depth: depth + 1)
    }
  }

  /// The name swift-distributed-tracing gives the kind's case.
  static func name(of kind: SpanKind) -> String {
    switch kind {
    case .server: "server"
    case .client: "client"
    case .producer: "producer"
    case .consumer: "consumer"
    case .internal: "internal"
    }
  }

  /// The message exactly as `.http` prints it.
  static func http(_ message: HTTPMessage) -> String {
    var text = ""
    Snapshotting<HTTPMessage, String>.http.snapshot(message).run { text = $0 }
    return text.hasSuffix("\n") ? String(text.dropLast()) : text
  }

  /// One `key = value` line an attribute, keys sorted.
  private mutating func attributes(_ attributes: SpanAttributes, indent: String) {
    var pairs: [(key: String, value: SpanAttribute)] = []
    attributes.forEach { pairs.append(($0, $1)) }
    for (key, attribute) in pairs.sorted(by: { $0.key < $1.key }) {
      newLine()
      text += indent
      value(Self.escaped(key))
      text += " = "
      value(Self.escaped(Self.describe(attribute)))
    }
  }

  private mutating func traceID(_ id: String) -> String {
    if traceIDs[id] == nil { traceIDs[id] = traceIDs.count + 1 }
    return "TRACE_ID_\(traceIDs[id]!)"
  }

  /// Whether a metadata key holds a request's identifier, which changes from run to run:
  /// Hummingbird's `hb.request.id`, and any key ending in `request.id`, `request_id`,
  /// `request-id` or `requestID` (in any case).
  static func namesARequestID(_ key: String) -> Bool {
    let key = key.lowercased()
    return ["request.id", "request_id", "request-id", "requestid"].contains { key.hasSuffix($0) }
  }

  private mutating func requestID(_ id: String) -> String {
    if requestIDs[id] == nil { requestIDs[id] = requestIDs.count + 1 }
    return "REQUEST_ID_\(requestIDs[id]!)"
  }

  private mutating func spanID(_ id: String) -> String {
    if spanIDs[id] == nil { spanIDs[id] = spanIDs.count + 1 }
    return "SPAN_ID_\(spanIDs[id]!)"
  }

  /// Rounds up to a whole number of buckets, so that jitter below a bucket leaves the text alone.
  static func rounded(_ nanoseconds: UInt64, to bucket: Duration) -> String {
    let (seconds, attoseconds) = bucket.components
    let size = max(UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000), 1)
    let buckets = max((nanoseconds + size - 1) / size, 1)
    return "≤ \(Duration.nanoseconds(Int64(buckets * size)))"
  }

  static func describe(_ attribute: SpanAttribute) -> String {
    switch attribute {
    case .int32(let value): "\(value)"
    case .int64(let value): "\(value)"
    case .double(let value): "\(value)"
    case .bool(let value): "\(value)"
    case .string(let value): "\"\(value)\""
    case .stringConvertible(let value): "\(value)"
    case .int32Array(let value): "\(value)"
    case .int64Array(let value): "\(value)"
    case .doubleArray(let value): "\(value)"
    case .boolArray(let value): "\(value)"
    case .stringArray(let value): "\(value)"
    case .stringConvertibleArray(let value): "\(value.map(\.description))"
    default: "\(attribute)"
    }
  }

  /// One line whatever the value holds: control characters as `\u{…}` escapes (newlines and
  /// tabs too), and values beyond ``TranscriptOptions/maximumValueLength`` cut with a note.
  static func escaped(_ value: String) -> String {
    // Most values are short and plain: a scan of their bytes shows nothing needs escaping or
    // cutting. A byte 0xC2 may begin a C1 control character (U+0080 to U+009F), so it sends the
    // value the long way, which decides.
    if value.utf8.count <= TranscriptOptions.maximumValueLength,
      !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 })
    {
      return value
    }
    var result = ""
    var count = 0
    for scalar in value.unicodeScalars {
      if count == TranscriptOptions.maximumValueLength {
        let rest = value.unicodeScalars.count - count
        result += "… (\(rest) more characters)"
        break
      }
      count += 1
      switch scalar {
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      // The control characters (general category Cc): C0, DEL and C1.
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
