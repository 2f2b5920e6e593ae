import Foundation
import HTTPTypes
import SnapshotTesting
import TestSupport
import Testing

@testable import HTTPSnapshotTesting

/// A body that cannot be shown as its type says precisely why: valid JSON nested deeper than the
/// parser reads is named as too deep, not as invalid, and a blank `Content-Type` is named.
struct BodyNamingTests {
  func bodyText(_ body: Data) -> String {
    let response = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])
    let text = snapshotText(HTTPMessage(response, body: body), as: .http).text
    return String(text.dropFirst("HTTP/1.1 200 OK\nContent-Type: application/json\n\n".count))
  }

  @Test func validJSONDeeperThanTheLimitIsNamedTooDeep() {
    let depth = JSONBody.depthLimit + 1
    let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    #expect(JSONBody.parse(Data(nested.utf8)) == nil)
    #expect(
      bodyText(Data(nested.utf8))
        == "[application/json body nests deeper than 511 levels; shown as text]\n" + nested
    )
    // Objects too, with members around the deep one.
    let objects =
      #"{"a": 1, "b": "#
      + String(repeating: #"{"k": ["#, count: depth) + "true"
      + String(repeating: "]}", count: depth) + #", "c": null}"#
    #expect(bodyText(Data(objects.utf8)).hasPrefix("[application/json body nests deeper than"))
  }

  /// A million levels: no stack overflow, and the verdict is still exact.
  @Test func aMillionLevelsAreReadWithoutTheCallStack() {
    let depth = 1_000_000
    let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let nested = Data(text.utf8)
    #expect(JSONBody.isWellFormedBeyondDepthLimit(nested))
    var broken = nested
    broken.removeLast()
    #expect(!JSONBody.isWellFormedBeyondDepthLimit(broken))
  }

  /// A million levels through `.http`: the whole body under the note, and a million unclosed
  /// levels named invalid. Neither the check nor the printer recurses on the body's depth (the
  /// values and the writer go no deeper than ``JSONBody/depthLimit``); a few seconds and tens of
  /// megabytes in a debug build.
  @Test func aMillionLevelsThroughHTTPAreShownAsTextUnderANote() {
    let depth = 1_000_000
    let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let text = bodyText(Data(nested.utf8))
    #expect(text.utf8.count == "[application/json body nests deeper than 511 levels; shown as text]\n".utf8.count + 2 * depth)
    #expect(text.hasPrefix("[application/json body nests deeper than 511 levels; shown as text]\n[[["))
    let unclosed = String(repeating: "[", count: depth)
    #expect(
      bodyText(Data(unclosed.utf8))
        == "[application/json body is not valid JSON; shown as text]\n" + unclosed)
  }

  @Test(arguments: [
    "[[1,]]", "[[1]", "[[1]]]", #"{"a" 1}"#, #"{"a": 1,}"#, "[tru]", "[1] x", #"[{"a": }]"#,
  ])
  func malformedDeepOrShallowIsStillNotValidJSON(_ text: String) {
    let depth = JSONBody.depthLimit
    let deep = String(repeating: "[", count: depth) + text + String(repeating: "]", count: depth)
    #expect(!JSONBody.isWellFormedBeyondDepthLimit(Data(deep.utf8)), "\(text)")
    #expect(bodyText(Data(deep.utf8)).hasPrefix("[application/json body is not valid JSON"))
  }

  @Test func shallowValidJSONIsNotTooDeep() {
    #expect(!JSONBody.isWellFormedBeyondDepthLimit(Data(#"{"a": [1, {"b": null}]}"#.utf8)))
  }

  @Test func aBlankContentTypeIsNamed() {
    let response = HTTPResponse(status: .ok, headerFields: [.contentType: " "])
    let (text, _) = snapshotText(HTTPMessage(response, body: Data("x".utf8)), as: .http)
    #expect(text.contains("\n\n[blank Content-Type body: 1 byte, SHA-256 "), "\(text)")
    #expect(!text.contains("[ body"))
  }
}

/// Names that differ only in Unicode normalisation are two names in JSON but one `String` key to
/// `JSONEncoder`: the body keeps both, as text under a line that names them.
struct NormalizationTwinTests {
  @Test func bothNamesStayInTheSnapshot() {
    let body = #"{"\#u{E9}": 1, "e\#u{301}": 2}"#
    let text = BodyNamingTests().bodyText(Data(body.utf8))
    #expect(
      text
        == #"[application/json body has names "\u{e9}" and "e\u{301}", equal but for Unicode "#
        + "normalization; shown as text]\n" + body
    )
    #expect(JSONBody.parse(Data(body.utf8)) == nil)
  }

  @Test func theSameNameTwiceStillKeepsItsLastValue() {
    let body = Data(#"{"a": 1, "a": 2}"#.utf8)
    #expect(JSONBody.namesDifferingOnlyInNormalization(in: body) == nil)
    #expect(BodyNamingTests().bodyText(body) == "{\n  \"a\" : 2\n}")
  }

  /// In a large object (names looked up through a dictionary) too.
  @Test func twinsAreFoundPastTheLinearSearch() {
    let members = (0..<40).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
    let body = Data(#"{\#(members), "\#u{C5}": 1, "A\#u{30A}": 2}"#.utf8)
    let twins = JSONBody.namesDifferingOnlyInNormalization(in: body)
    #expect(twins?.0 == "\u{C5}" && twins?.1.unicodeScalars.count == 2)
  }
}
