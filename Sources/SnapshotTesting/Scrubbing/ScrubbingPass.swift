import Foundation

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
      !format.isValid(scrubbed), format.isValid(text)
    else { return scrubbed }
    return UnavailableSnapshot.report(
      formatBreakage(of: text, by: scrubbers, format: format)
    )
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
        return (try? PropertyListSerialization.propertyList(from: data, format: nil)) != nil
      }
    }
  }
}
