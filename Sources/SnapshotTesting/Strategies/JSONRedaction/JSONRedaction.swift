/// The selectors a `.json(redacting:)` strategy was created with, parsed once, and how they are
/// applied to a snapshot: every failure is reported through `UnavailableSnapshot`, so the
/// assertion fails and nothing is written.
struct JSONRedaction: Sendable {
  /// The parsed selectors, or the first selector that could not be parsed.
  let selectors: Result<[RedactionSelector], RedactionSelectorError>

  init(_ sources: [String]) {
    selectors = Result { () throws(RedactionSelectorError) -> [RedactionSelector] in
      try sources.map { (source) throws(RedactionSelectorError) in
        try RedactionSelector.parse(source)
      }
    }
  }

  /// `json` with the selected values replaced by placeholders, or a reported reason.
  func apply(to json: String) -> String {
    let selectors: [RedactionSelector]
    switch self.selectors {
    case .success(let parsed): selectors = parsed
    case .failure(let error): return UnavailableSnapshot.report(error.description)
    }
    let result: JSONRedactor.Result
    do {
      result = try JSONRedactor.redact(json, selectors: selectors)
    } catch {
      return UnavailableSnapshot.report(
        "Could not redact the JSON: it is not valid at byte \(error.byteOffset)."
      )
    }
    guard result.unmatched.isEmpty else {
      return UnavailableSnapshot.report(Self.unmatchedMessage(result.unmatched, in: json))
    }
    return result.text
  }

  /// Names every selector that matched nothing, and says how to reach into a top-level array,
  /// the usual reason a selector that looks right matches nothing.
  static func unmatchedMessage(_ unmatched: [RedactionSelector], in json: String) -> String {
    let names = unmatched.map { "\"\($0.source)\"" }.joined(separator: ", ")
    var message =
      unmatched.count == 1
      ? "The redaction selector \(names) matched nothing in the JSON."
      : "The redaction selectors \(names) matched nothing in the JSON."
    let startsWithKey = unmatched.contains { selector in
      if case .key = selector.components.first { true } else { false }
    }
    if startsWithKey, json.first(where: { !$0.isWhitespace }) == "[" {
      message += " The document is an array: start a selector with \"[*]\" or \"**\"."
    }
    return message
  }
}
