import Foundation
import TestSupport
import Testing

@testable import MarkupSnapshotTesting

/// Token soups from a fixed seed: the reader never crashes on them, and the canonical text is a
/// fixed point (its own canonical text), which any real browser-equivalence implies.
@Suite struct RandomHTMLTests {
  /// SplitMix64, so that every run reads the same pages.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var value = state
      value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
      value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
      return value ^ (value >> 31)
    }
  }

  static let pieces = [
    "<p>", "</p>", "<b>", "</b>", "<i>", "</i>", "<a href=x>", "</a>", "<div>", "</div>", "<table>",
    "</table>", "<tr>", "<td>", "</td>", "<li>", "<ul>", "</ul>", "<pre>", "</pre>", "<svg>",
    "</svg>", "<path/>", "<math>", "<mi>", "<script>", "</script>", "<style>", "<textarea>",
    "</textarea>", "<!--", "-->", "<br>", "</br>", "<select>", "<option>", "<h1>", "<h2>", "</h1>",
    "<nobr>", "<button>", "<em>", "</em>", "<caption>", "<title>", "</title>", "<head>", "<body>",
    "<html>", "text", " ", "\n", "&amp;", "&", "<", ">", "\"", "'", "=", "<form>", "<dd>", "<dt>",
    "<object>", "</object>", "<template>", "</template>", "<plaintext>", "<foreignObject>",
  ]

  static func soup(_ generator: inout Generator) -> String {
    let count = Int.random(in: 1...40, using: &generator)
    return (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
  }

  /// Whether a heading is a child of a heading: a tree the parser makes (`<h2><em><h1></em>`)
  /// that no markup with end tags can make again, since a heading's start tag closes an open one
  /// that is the current element (see the article).
  static func nestsAHeading(_ html: String) -> Bool {
    let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]
    return (try! HTMLReader.read(Array(html.utf8))).elements.contains { element in
      headings.contains(element.name)
        && element.children.contains {
          if case .element(let child) = $0 { headings.contains(child.name) } else { false }
        }
    }
  }

  @Test func soupsNeverCrashAndTheirCanonicalTextIsAFixedPoint() {
    var generator = Generator(state: 35)
    var notFixed: [String] = []
    var headingNests = 0
    for _ in 0..<3_000 {
      let html = Self.soup(&generator)
      let once = snapshotText(html, as: .html).text
      if Self.nestsAHeading(html) {
        headingNests += 1
        continue
      }
      let twice = snapshotText(once, as: .html).text
      if once != twice { notFixed.append(html) }
    }
    #expect(notFixed.isEmpty, "\(notFixed.count) pages, first: \(notFixed.prefix(5))")
    #expect(headingNests < 30)
  }
}
