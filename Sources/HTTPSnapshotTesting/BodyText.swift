import Foundation
import RunRecord
import SnapshotTesting

/// A body as text, chosen by its media type. Never fails: a body that cannot be shown as its type
/// says so in a line of its own, and is shown the next best way.
enum BodyText {
  /// The most bytes a compressed body is decoded to; a body that would give more is summarised.
  static let decodedSizeLimit = 64 * 1024 * 1024

  /// The body as text: decoded from its `Content-Encoding` (under a line naming it), then shown
  /// by its type, after `prefix` (the message's head), so that a body of many megabytes is
  /// written once into the message's text rather than copied into it.
  static func render(
    _ body: Data,
    contentType: MediaType?,
    contentEncoding: String?,
    after prefix: String = ""
  ) -> String {
    let codings = (contentEncoding ?? "").split(separator: ",")
      .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
      .filter { !$0.isEmpty && $0 != "identity" }
    guard !codings.isEmpty else { return render(body, contentType: contentType, after: prefix) }
    let typeName =
      contentType.map { $0.essence.isEmpty ? "blank Content-Type" : $0.essence }
      ?? "no Content-Type"
    let names = codings.joined(separator: ", ")
    var decoded = body
    // The last coding applied is the first to undo.
    for coding in codings.reversed() {
      do {
        switch coding {
        case "gzip", "x-gzip": decoded = try Inflate.gunzip(decoded, limit: decodedSizeLimit)
        case "deflate":
          decoded = try Inflate.inflateZlibOrRaw(decoded, limit: decodedSizeLimit)
        default:
          return prefix
            + summary(of: body, type: typeName, why: "\(names)-encoded, which is not decoded")
        }
      } catch {
        return prefix
          + summary(
            of: body,
            type: typeName,
            why: "\(names)-encoded, and it does not decode: \(error)"
          )
      }
    }
    // No sizes: a server that compresses at another level sends other bytes for the same body,
    // and the reference must not change with them.
    return render(
      decoded,
      contentType: contentType,
      after: prefix + "[body decoded from \(names)]\n"
    )
  }

  static func render(_ body: Data, contentType: MediaType?, after prefix: String = "") -> String {
    if let type = contentType, type.isJSON, type.stringEncoding == .utf8 {
      return json(body, type: type, after: prefix)
    }
    return prefix + renderByType(body, contentType: contentType)
  }

  private static func renderByType(_ body: Data, contentType: MediaType?) -> String {
    guard let type = contentType else {
      return summary(of: body, type: "no Content-Type")
    }
    if type.essence.isEmpty {
      return summary(of: body, type: "blank Content-Type")
    }
    if type.isJSON || type.isFormURLEncoded || type.isText {
      // Another charset is read into UTF-8 first, so every rendering below reads UTF-8.
      guard let encoding = type.stringEncoding else {
        let charset = type.charset ?? ""
        return summary(of: body, type: type.essence, why: "charset \(charset) is not read")
      }
      if encoding != .utf8 {
        // Foundation drops a UTF-16 body's odd last byte; it is not UTF-16.
        let isUTF16 = [.utf16, .utf16LittleEndian, .utf16BigEndian].contains(encoding)
        guard !(isUTF16 && body.count % 2 == 1), let text = String(data: body, encoding: encoding)
        else {
          return summary(of: body, type: type.essence, why: "not \(type.charset ?? "")")
        }
        return render(Data(text.utf8), contentType: MediaType(type.essence), after: "")
      }
    }
    if type.isJSON { return json(body, type: type) }
    if type.isFormURLEncoded { return form(body, type: type) }
    if type.isText {
      return String(validatingUTF8Bytes: body)
        ?? summary(of: body, type: type.essence, why: "not UTF-8")
    }
    return summary(of: body, type: type.essence)
  }

  /// Pretty-printed with sorted keys as `.json` prints it, from the values the body holds, so
  /// the text is the bytes `.json` prints for the model the server encoded. A body that does not
  /// parse is shown as text under a note, so a broken API is never recorded as if it had sent
  /// JSON. The body is checked once, whatever it holds (twice only when it reaches the depth
  /// limit), then written from its bytes after `prefix` (``PrettyJSONWriter``), with no values
  /// in memory: the text is the bytes `prettyJSONText(of:)` makes of the parsed values.
  static func json(_ body: Data, type: MediaType, after prefix: String = "") -> String {
    let note: String
    switch JSONBody.check(body).reading {
    case .value(let extents):
      return PrettyJSONWriter.text(of: body, extents: extents, after: prefix)
    case .numberBeyondDoubleRange(let number):
      note = "holds \(number), beyond a Double's range"
    case .namesDifferingOnlyInNormalization(let first, let second):
      let names = [first, second].map(\.unicodeScalars.escapedScalars).joined(separator: " and ")
      note = "has names \(names), equal but for Unicode normalization"
    case .tooDeep:
      note = "nests deeper than \(JSONBody.depthLimit) levels"
    case .invalid:
      note = "is not valid JSON"
    }
    guard let text = String(validatingUTF8Bytes: body) else {
      return prefix + summary(of: body, type: type.essence, why: "not UTF-8")
    }
    return prefix + "[\(type.essence) body \(note); shown as text]\n" + text
  }

  /// One field a line, `name=value`, both decoded (`+` is a space, `%XX` a byte). A line break
  /// inside a value is written `\n`, so that each line stays one field.
  static func form(_ body: Data, type: MediaType) -> String {
    guard let text = String(validatingUTF8Bytes: body) else {
      return summary(of: body, type: type.essence, why: "not UTF-8")
    }
    return text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = decodeFormComponent(parts[0])
      guard parts.count == 2 else { return name }
      return "\(name)=\(decodeFormComponent(parts[1]))"
    }.joined(separator: "\n")
  }

  static func decodeFormComponent(_ component: Substring) -> String {
    let spaced = component.replacingOccurrences(of: "+", with: " ")
    // A malformed escape (`%zz`) is kept as it was sent.
    let decoded = spaced.removingPercentEncoding ?? spaced
    return decoded.replacingOccurrences(of: "\r", with: "\\r")
      .replacingOccurrences(of: "\n", with: "\\n")
  }

  /// `[image/png body: 1024 bytes, SHA-256 9f86…]`: what a body that is not text is, in a line
  /// that changes whenever its bytes do.
  static func summary(of body: Data, type: String, why: String? = nil) -> String {
    let reason = why.map { ", \($0)" } ?? ""
    let noun = body.count == 1 ? "byte" : "bytes"
    return "[\(type) body\(reason): \(body.count) \(noun), SHA-256 \(SHA256.hexDigest(of: body))]"
  }
}

extension String.UnicodeScalarView {
  /// The scalars as a quoted Swift literal with every non-ASCII scalar escaped (`"e\u{301}"`), so
  /// that two names a reader would see as the same are told apart.
  var escapedScalars: String {
    "\"" + map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined() + "\""
  }
}

extension String {
  /// The bytes as a string, or `nil` if they are not valid UTF-8.
  init?(validatingUTF8Bytes data: Data) {
    guard let text = String(bytes: data, encoding: .utf8) else { return nil }
    self = text
  }
}
