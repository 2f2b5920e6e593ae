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

/// Renders a transcript: one section per event, spans as an indented tree at their root's start.
struct TranscriptText {
  let transcript: Transcript
  let options: TranscriptOptions
  private var lines: [String] = []
  private var traceIDs: [String: Int] = [:]
  private var spanIDs: [String: Int] = [:]
  private var requestIDs: [String: Int] = [:]
  private let children: [String: [String]]

  init(_ transcript: Transcript, options: TranscriptOptions) {
    self.transcript = transcript
    self.options = options
    var children: [String: [String]] = [:]
    for case .span(let id) in transcript.events {
      guard let parent = transcript.spans[id]?.parentSpanID else { continue }
      children[parent, default: []].append(id)
    }
    self.children = children
  }

  static func render(_ transcript: Transcript, options: TranscriptOptions) -> String {
    var text = TranscriptText(transcript, options: options)
    return text.render()
  }

  private mutating func render() -> String {
    for event in transcript.events {
      switch event {
      case .http(let message, let outgoing):
        let kind: String
        switch message.head {
        case .request: kind = outgoing ? "outgoing request" : "request"
        case .response: kind = outgoing ? "outgoing response" : "response"
        }
        lines.append("── \(kind)")
        lines.append(Self.http(message))
      case .log(let record):
        guard record.level >= options.minimumLevel else { continue }
        log(record)
      case .span(let id):
        guard let span = transcript.spans[id] else { continue }
        if let parent = span.parentSpanID, transcript.spans[parent] != nil { continue }
        lines.append("── span")
        self.span(span, depth: 0)
      case .error(let description):
        lines.append("── error")
        lines.append(Self.escaped(description))
      }
    }
    if transcript.ignored > 0 {
      lines.append("── after the transcript was taken")
      lines.append("\(transcript.ignored) entries or spans arrived and were left out")
    }
    return lines.joined(separator: "\n")
  }

  /// The message exactly as `.http` prints it.
  static func http(_ message: HTTPMessage) -> String {
    var text = ""
    Snapshotting<HTTPMessage, String>.http.snapshot(message).run { text = $0 }
    return text.hasSuffix("\n") ? String(text.dropLast()) : text
  }

  private mutating func log(_ record: TranscriptLogRecord) {
    let label = Self.escaped(record.label)
    var line = "── log \(record.level) \(label): \(Self.escaped(record.message))"
    if options.sourceLocations { line += " (\(record.file):\(record.line))" }
    lines.append(line)
    for (key, value) in record.metadata.sorted(by: { $0.key < $1.key }) {
      var value = "\(value)"
      if Self.namesARequestID(key) { value = requestID(value) }
      lines.append("  \(Self.escaped(key)): \(Self.escaped(value))")
    }
  }

  private mutating func span(_ span: TranscriptSpanRecord, depth: Int) {
    let indent = String(repeating: "  ", count: depth)
    // The name it ended with: a server framework renames its span once the route is known.
    let name = span.finished?.operationName ?? span.name
    lines.append("\(indent)\(Self.escaped(name)) (\(span.kind))")
    let inner = indent + "  "
    if let finished = span.finished {
      lines += Self.attributeLines(finished.attributes, indent: inner)
      for event in finished.events {
        lines.append("\(inner)event \(Self.escaped(event.name))")
        lines += Self.attributeLines(event.attributes, indent: inner + "  ")
      }
      for error in finished.errors {
        lines.append("\(inner)error \(Self.escaped(String(describing: error.error)))")
      }
      for link in finished.links {
        if let context = link.context.inMemorySpanContext {
          lines.append("\(inner)link \(traceID(context.traceID)) \(spanID(context.spanID))")
        } else {
          lines.append("\(inner)link (a context with no span)")
        }
      }
      if let status = finished.status {
        var line = "\(inner)status \(status.code)"
        if let message = status.message { line += ": \(Self.escaped(message))" }
        lines.append(line)
      }
      if let bucket = options.durationBucket {
        let nanoseconds = finished.endInstant.nanosecondsSinceEpoch
          &- finished.startInstant.nanosecondsSinceEpoch
        lines.append("\(inner)duration \(Self.rounded(nanoseconds, to: bucket))")
      }
      if span.endCount > 1 { lines.append("\(inner)! ended \(span.endCount) times") }
    } else {
      lines.append("\(inner)! never ended")
    }
    for child in children[span.spanID] ?? [] {
      if let record = transcript.spans[child] { self.span(record, depth: depth + 1) }
    }
  }

  /// One `key = value` line an attribute, keys sorted.
  static func attributeLines(_ attributes: SpanAttributes, indent: String) -> [String] {
    var pairs: [(key: String, value: String)] = []
    attributes.forEach { pairs.append(($0, describe($1))) }
    return pairs.sorted { $0.key < $1.key }.map {
      "\(indent)\(escaped($0.key)) = \(escaped($0.value))"
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
