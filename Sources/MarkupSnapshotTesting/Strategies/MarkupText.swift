import SnapshotTesting

/// The canonical text of HTML or XML bytes, or the reason reported through
/// `UnavailableSnapshot` (so the assertion fails and nothing is recorded).
enum MarkupText {
  /// The canonical text of `text`.
  static func html(_ text: String, redacting redactions: [MarkupRedaction]) -> String {
    html(Array(text.utf8), redacting: redactions)
  }

  static func html(_ bytes: [UInt8], redacting redactions: [MarkupRedaction]) -> String {
    // Redaction edits the tree; without it most pages print straight from their tokens.
    if redactions.isEmpty, let text = DirectHTMLPrinter.canonicalText(bytes) { return text }
    let document: MarkupDocument
    do {
      document = try HTMLReader.read(bytes)
    } catch {
      return UnavailableSnapshot.report(tooDeep(error, in: bytes, format: "HTML"))
    }
    return canonicalText(document, flavor: .html, redacting: redactions)
  }

  static func xml(_ bytes: [UInt8], redacting redactions: [MarkupRedaction]) -> String {
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
      return UnavailableSnapshot.report("The XML is UTF-16; only UTF-8 XML can be snapshotted.")
    }
    let document: MarkupDocument
    do {
      document = try XMLReader.read(bytes)
    } catch where error.isTooDeep {
      return UnavailableSnapshot.report(tooDeep(error, in: bytes, format: "XML"))
    } catch where error.isNotUTF8 {
      return UnavailableSnapshot.report(
        "The XML is not valid UTF-8 at \(error.position(in: bytes)) (byte \(error.offset))."
      )
    } catch {
      return UnavailableSnapshot.report(
        "The XML is not well-formed at \(error.position(in: bytes)): \(error.reason)."
      )
    }
    return canonicalText(document, flavor: .xml, redacting: redactions)
  }

  /// The document with `redactions` applied, printed; or why one could not be applied, reported.
  private static func canonicalText(
    _ document: MarkupDocument,
    flavor: CanonicalPrinter.Flavor,
    redacting redactions: [MarkupRedaction]
  ) -> String {
    let format = flavor == .xml ? "XML" : "HTML"
    let caseSensitive = flavor == .xml
    if let failure = MarkupRedaction.apply(
      redactions,
      to: document,
      caseSensitive: caseSensitive,
      format: format
    ) {
      return UnavailableSnapshot.report(failure)
    }
    return CanonicalPrinter(flavor: flavor).print(document)
  }

  /// Why a document nested deeper than ``MarkupDocument/maximumDepth`` is refused.
  private static func tooDeep(
    _ error: MarkupSyntaxError,
    in bytes: [UInt8],
    format: String
  ) -> String {
    "The \(format) nests elements more than \(MarkupDocument.maximumDepth) levels deep (the "
      + "element at \(error.position(in: bytes)) is one too many); a snapshot refuses it rather "
      + "than print a tree that deep."
  }

  /// The offset of the first byte that does not begin or continue valid UTF-8, or `nil`.
  static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    // The standard library's validation is quick even in a debug build; the scalar-by-scalar
    // search below runs only when it finds a fault.
    if String(validating: bytes, as: UTF8.self) != nil { return nil }
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): offset += scalar.count
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }
}
