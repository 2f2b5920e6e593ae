import Foundation
import RunRecord

/// Runs a snapshot's scrubbers, in order, over its text, and checks that the result is still
/// valid for the strategy's format (JSON, property list). A scrubber that throws or breaks the
/// format is reported through ``UnavailableSnapshot``, by name, so the assertion fails and
/// nothing is written.
enum ScrubbingPass {
  static func scrub(_ text: String, with scrubbers: [Scrubber], pathExtension: String?) -> String {
    var scrubbed = text
    for scrubber in scrubbers {
      do {
        scrubbed = try scrubber.scrub(scrubbed)
      } catch {
        return UnavailableSnapshot.report(#"The scrubber "\#(scrubber.name)" threw: \#(error)"#)
      }
    }
    guard let format = TextFormat(pathExtension: pathExtension), scrubbed != text,
      !(format == .json && identitiesKeptJSONValid(text, scrubbed, by: scrubbers)),
      !format.isValid(scrubbed), format.isValid(text)
    else { return scrubbed }
    return UnavailableSnapshot.report(
      formatBreakage(of: text, by: scrubbers, format: format)
    )
  }

  /// Whether `scrubbed` is known to be valid JSON whenever `text` is, without parsing either, so
  /// that the pass can skip the check (parsing costs about as much as encoding the text did).
  ///
  /// True only when every scrubber is a built-in identity scrubber and `scrubbed` has no `\`
  /// right before a placeholder. Then, in a valid JSON text (as `JSONSerialization` reads it):
  ///
  /// - every match lies inside one string: outside strings, a run of hex digits or digits
  ///   between word boundaries followed by `-` (a UUID, a date) or `0x` (an address) is not JSON;
  ///   and no match holds `"` or `\`;
  /// - so a match becomes a placeholder (letters, digits, `_`) inside the same string, which
  ///   stays valid unless the match began with the letter of an escape (`\b`, `\f` are hex
  ///   digits): that leaves `\U` (`UUID_`), and no later scrubber can match from `U`, `D` or `A`
  ///   on, so such a pair is still there at the end. `\\` before a placeholder is fine but is
  ///   left to the parse too.
  ///
  /// `JSONSerialization` reads a text whose first four bytes hold a NUL as UTF-16 or UTF-32,
  /// where none of this holds; such texts are parsed as before.
  static func identitiesKeptJSONValid(
    _ text: String,
    _ scrubbed: String,
    by scrubbers: [Scrubber]
  ) -> Bool {
    guard scrubbers.allSatisfy(\.replacesIdentities), !text.utf8.prefix(4).contains(0) else {
      return false
    }
    // The first letters of the placeholders: UUID_, DATE_, ADDRESS_.
    let backslash = UInt8(ascii: "\\"), u = UInt8(ascii: "U"), d = UInt8(ascii: "D"),
      a = UInt8(ascii: "A")
    var previous: UInt8 = 0
    for byte in scrubbed.utf8 {
      if (byte == u || byte == d || byte == a) && previous == backslash { return false }
      previous = byte
    }
    return true
  }

  /// Replays the scrubbers to name the first one after which the text stopped being valid.
  private static func formatBreakage(
    of text: String,
    by scrubbers: [Scrubber],
    format: TextFormat
  ) -> String {
    var scrubbed = text
    for scrubber in scrubbers {
      scrubbed = (try? scrubber.scrub(scrubbed)) ?? scrubbed
      if !format.isValid(scrubbed) {
        return """
          The scrubber "\(scrubber.name)" made the snapshot invalid \(format.name): scrub values, \
          not the syntax around them (for JSON, keep strings quoted).
          """
      }
    }
    return "The scrubbers made the snapshot invalid \(format.name)."
  }

  /// A text format whose validity scrubbing must keep.
  enum TextFormat {
    case json, propertyList

    init?(pathExtension: String?) {
      switch pathExtension {
      case "json": self = .json
      case "plist": self = .propertyList
      default: return nil
      }
    }

    var name: String { self == .json ? "JSON" : "property list" }

    func isValid(_ text: String) -> Bool {
      let data = Data(text.utf8)
      switch self {
      case .json:
        return (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil
      case .propertyList:
        return (try? SystemCalls.propertyList(from: data)) != nil
      }
    }
  }
}
