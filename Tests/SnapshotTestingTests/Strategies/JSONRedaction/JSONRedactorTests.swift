import Foundation
import Testing

@testable import SnapshotTesting

@Suite struct JSONRedactorTests {
  func redact(_ json: String, _ selectors: [String]) throws -> JSONRedactor.Result {
    try JSONRedactor.redact(json, selectors: selectors.map { try RedactionSelector.parse($0) })
  }

  @Test func aPlaceholderKeepsEachJSONTypeVisible() throws {
    let json =
      #"{"a":"x","b":-1.5e3,"c":true,"d":false,"e":null,"f":{"g":1},"h":[1,[2]],"i":{},"j":[]}"#
    let result = try redact(json, ["a", "b", "c", "d", "e", "f", "h", "i", "j"])
    #expect(
      result.text
        == #"{"a":"[redacted string]","b":"[redacted number]","c":"[redacted boolean]","#
        + #""d":"[redacted boolean]","e":"[redacted null]","f":"[redacted object]","#
        + #""h":"[redacted array]","i":"[redacted object]","j":"[redacted array]"}"#
    )
    #expect(result.unmatched == [])
  }

  @Test func pathsIndicesAndAnyDepth() throws {
    let json = #"{"items":[{"id":1,"n":{"id":2}},{"id":3}],"meta":{"a":{"b":{"c":"deep"}}},"id":4}"#
    #expect(
      try redact(json, ["items[*].id"]).text
        == #"{"items":[{"id":"[redacted number]","n":{"id":2}},{"id":"[redacted number]"}],"#
        + #""meta":{"a":{"b":{"c":"deep"}}},"id":4}"#
    )
    #expect(
      try redact(json, ["items[1]", "meta.a.b.c"]).text
        == #"{"items":[{"id":1,"n":{"id":2}},"[redacted object]"],"#
        + #""meta":{"a":{"b":{"c":"[redacted string]"}}},"id":4}"#
    )
    #expect(
      try redact(json, ["**.id"]).text
        == #"{"items":[{"id":"[redacted number]","n":{"id":"[redacted number]"}},"#
        + #"{"id":"[redacted number]"}],"meta":{"a":{"b":{"c":"deep"}}},"id":"[redacted number]"}"#
    )
    #expect(try redact(json, ["meta.**.c"]).text.contains(#"{"c":"[redacted string]"}"#))
  }

  @Test func aSelectorThatMatchesNothingIsReturned() throws {
    let result = try redact(#"{"meta":{"requestID":"r"}}"#, ["meta.requestId", "meta.requestID"])
    #expect(result.unmatched.map(\.source) == ["meta.requestId"])
    #expect(result.text == #"{"meta":{"requestID":"[redacted string]"}}"#)
    #expect(try redact(#"{"items":[]}"#, ["items[0]"]).unmatched.map(\.source) == ["items[0]"])
    #expect(try redact(#"{"items":{"0":1}}"#, ["items[0]"]).unmatched.count == 1)
  }

  /// A selector matching only inside a value another one redacts still counts as matched, so
  /// overlapping selectors never fail; the outer placeholder wins.
  @Test func aMatchInsideARedactedValueCounts() throws {
    let result = try redact(#"{"items":[{"id":1}]}"#, ["items[*].id", "items"])
    #expect(result.text == #"{"items":"[redacted array]"}"#)
    #expect(result.unmatched == [])
  }

  @Test func insideATopLevelArray() throws {
    let json = #"[{"id":1,"name":"a"},{"id":2,"name":"b"}]"#
    #expect(
      try redact(json, ["[*].id"]).text
        == #"[{"id":"[redacted number]","name":"a"},{"id":"[redacted number]","name":"b"}]"#
    )
    #expect(try redact(json, ["[0]"]).text == #"["[redacted object]",{"id":2,"name":"b"}]"#)
    #expect(try redact(json, ["**.name"]).text.components(separatedBy: "[redacted").count == 3)
    #expect(try redact(json, ["id"]).unmatched.map(\.source) == ["id"])
    #expect(try redact(#""top""#, ["**.a"]).unmatched.count == 1)
  }

  @Test func keysAreComparedDecoded() throws {
    let json = #"{"a\/b":1,"caf\u00e9":2,"\ud83c\udf89":3,"q\"":4}"#
    let result = try redact(json, ["a/b", "café", "🎉", #"["q\""]"#])
    #expect(result.unmatched == [])
    #expect(
      result.text
        == #"{"a\/b":"[redacted number]","caf\u00e9":"[redacted number]","#
        + #""\ud83c\udf89":"[redacted number]","q\"":"[redacted number]"}"#
    )
  }

  @Test func malformedTextThrowsInsteadOfCrashing() {
    for json in [#"{"a":1"#, #"{"a" 1}"#, "[1,", #"{"a":1}x"#, #""open"#, "", "]", #"{1:2}"#] {
      #expect(throws: JSONRedactor.MalformedJSON.self, "\(json)") {
        try redact(json, ["**.a"])
      }
    }
  }

  @Test func deepNestingNeedsNoRecursion() throws {
    let depth = 100_000
    let json = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
    let selector = String(repeating: "[0]", count: depth)
    let result = try redact(json, [selector])
    #expect(result.text.contains(#"["[redacted number]"]"#))
  }
}
