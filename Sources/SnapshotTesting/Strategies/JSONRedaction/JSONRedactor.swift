/// Replaces the values that selectors match in a JSON text, leaving every other byte as it was.
///
/// It works on the text, not on a decoded tree, because decoding and re-serializing would not
/// give back the encoder's bytes (`JSONEncoder` and `JSONSerialization` write numbers and "/"
/// differently). The text is walked once, with an explicit stack instead of recursion, so deep
/// documents cannot overflow the stack.
///
/// ```swift
/// let selectors = [try RedactionSelector.parse("items[*].id")]
/// let result = try JSONRedactor.redact(#"{"items":[{"id":7}]}"#, selectors: selectors)
/// // result.text == #"{"items":[{"id":"[redacted number]"}]}"#
/// ```
///
/// Complexity: O(*n* × *p*) for a text of *n* bytes and selectors of *p* components in all.
enum JSONRedactor {
  struct Result: Equatable {
    var text: String
    /// The selectors that matched no value, in the order given.
    var unmatched: [RedactionSelector]
  }

  /// The text is not JSON. The strategies only pass an encoder's output, so this means a bug.
  struct MalformedJSON: Error, Equatable {
    let byteOffset: Int
  }

  static func redact(
    _ text: String,
    selectors: [RedactionSelector]
  ) throws(MalformedJSON) -> Result {
    let bytes = Array(text.utf8)
    var walk = JSONRedactionWalk(bytes: bytes, selectors: selectors)
    try walk.run()
    let unmatched = selectors.indices.filter { !walk.matched[$0] }.map { selectors[$0] }
    return Result(text: splice(bytes, walk.redactions), unmatched: unmatched)
  }

  /// `bytes` with each redacted range replaced by its placeholder.
  private static func splice(_ bytes: [UInt8], _ redactions: [JSONRedactionWalk.Redaction])
    -> String
  {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var copied = 0
    for redaction in redactions {
      output.append(contentsOf: bytes[copied..<redaction.range.lowerBound])
      output.append(contentsOf: redaction.kind.placeholder.utf8)
      copied = redaction.range.upperBound
    }
    output.append(contentsOf: bytes[copied...])
    return String(decoding: output, as: UTF8.self)
  }
}

/// The JSON type of a redacted value, which its placeholder keeps visible.
enum JSONValueKind: String, Sendable {
  case string, number, boolean, null, object, array

  /// A JSON string, so the redacted document is still JSON: `"[redacted number]"`.
  var placeholder: String { "\"[redacted \(rawValue)]\"" }
}
