import Foundation
import Testing

@testable import SnapshotTesting

/// What the property list writer does where upstream has no output to compare with (it crashes on
/// fragments) or where the corpus cannot reach (`userInfo`, the binary format, odd dates).
@Suite struct PropertyListTests {
  static let header = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">

    """

  func render<Value: Encodable>(
    _ value: Value,
    as strategy: Snapshotting<Value, String> = .plist
  ) -> String {
    var text = ""
    strategy.snapshot(value).run { text = $0 }
    return text
  }

  @Test func fragmentsAtTheTopLevelSayWhyTheyCannotBeWritten() {
    #expect(render("text").hasPrefix("Could not encode String as property list:"))
    #expect(render("text").contains("Top-level String encoded as string property list fragment."))
    #expect(render(1.5).contains("Top-level Double encoded as number property list fragment."))
    #expect(render(true).contains("Top-level Bool encoded as number property list fragment."))
    #expect(render(Date()).contains("Top-level Date encoded as date property list fragment."))
    let none: String = render(Int?.none)
    #expect(none.contains("Top-level Optional<Int> encoded as string"))
  }

  struct Silent: Encodable {
    func encode(to encoder: Encoder) throws {}
  }

  @Test func aTopLevelValueThatEncodesNothingSaysSo() {
    #expect(render(Silent()).contains("Top-level Silent did not encode any values."))
  }

  @Test func dataIsAllowedAtTheTopLevel() {
    #expect(render(Data([1, 2, 3])) == Self.header + "<data>\nAQID\n</data>\n</plist>\n")
  }

  struct Units: Encodable {
    static let key = CodingUserInfoKey(rawValue: "units")!
    func encode(to encoder: Encoder) throws {
      var container = encoder.unkeyedContainer()
      try container.encode(encoder.userInfo[Self.key] as? String ?? "none")
    }
  }

  @Test func theEncodersUserInfoReachesTheValue() {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml
    encoder.userInfo[Units.key] = "metric"
    #expect(
      render(Units(), as: .plist(encoder))
        == Self.header + "<array>\n\t<string>metric</string>\n</array>\n</plist>\n"
    )
  }

  @Test func otherFormatsComeFromFoundation() {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .binary
    #expect(render(["a": 1], as: .plist(encoder)).hasPrefix("bplist00"))
  }

  @Test func extremeDatesDoNotCrash() {
    for seconds in [Double.infinity, -.infinity, .nan, 1e300, -1e300] {
      let date = Date(timeIntervalSince1970: seconds)
      #expect(PropertyListXMLWriter.formatted(date).hasSuffix("Z"))
    }
    #expect(
      PropertyListXMLWriter.formatted(Date(timeIntervalSince1970: -62_135_769_600))
        == "0000-12-30T00:00:00Z"
    )
  }

  @Test func escapingLeavesQuotesAlone() {
    #expect(
      PropertyListXMLWriter.escaped(#"<a href="x">&'</a>"#)
        == #"&lt;a href="x"&gt;&amp;'&lt;/a&gt;"#
    )
  }
}
