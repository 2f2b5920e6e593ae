import Foundation
import SnapshotTesting
import Testing

@testable import HTTPSnapshotTesting

/// A JSON body is read once, whatever it holds: a body that `.json` cannot print used to be
/// parsed again for each reason it might have failed (up to four passes over a large body).
struct JSONBodyReadingTests {
  func read(_ text: String) -> (reading: JSONBody.Reading<JSONBody>, passes: Int) {
    JSONBody.read(Data(text.utf8))
  }

  @Test func aValidBodyIsReadInOnePass() {
    let (reading, passes) = read(#"{"b": [1, 2.5, "x"], "a": null}"#)
    guard case .value(let value) = reading else {
      Issue.record("not read as a value: \(reading)")
      return
    }
    #expect(passes == 1)
    #expect(
      prettyJSONText(of: value)
        == "{\n  \"a\" : null,\n  \"b\" : [\n    1,\n    2.5,\n    \"x\"\n  ]\n}"
    )
  }

  @Test func eachReasonABodyCannotBePrintedIsFoundInOnePass() {
    let beyond = read("[1, 1e400]")
    guard case .numberBeyondDoubleRange("1e400") = beyond.reading else {
      Issue.record("1e400 not named: \(beyond.reading)")
      return
    }
    #expect(beyond.passes == 1)

    let twins = read("{\"\u{E9}\": 1, \"e\u{301}\": 2}")
    guard case .namesDifferingOnlyInNormalization("\u{E9}", "e\u{301}") = twins.reading else {
      Issue.record("twins not named: \(twins.reading)")
      return
    }
    #expect(twins.passes == 1)

    let invalid = read(#"{"a": [1, 2,]}"#)
    guard case .invalid = invalid.reading else {
      Issue.record("a trailing comma read as \(invalid.reading)")
      return
    }
    #expect(invalid.passes == 1)
  }

  /// Only a body that reaches the depth limit is read a second time, by the pass that keeps no
  /// values, to tell "too deep" from "invalid".
  @Test func onlyABodyAtTheDepthLimitTakesASecondPass() {
    let depth = JSONBody.depthLimit + 1
    let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let tooDeep = read(deep)
    guard case .tooDeep = tooDeep.reading else {
      Issue.record("a deep body read as \(tooDeep.reading)")
      return
    }
    #expect(tooDeep.passes == 2)
    let brokenAndDeep = read(deep + ",")
    guard case .invalid = brokenAndDeep.reading else {
      Issue.record("a broken deep body read as \(brokenAndDeep.reading)")
      return
    }
    #expect(brokenAndDeep.passes == 2)
  }

  /// `.http` prints a JSON body with the same function as `.json` (no strategy run as a
  /// function): the texts are the same bytes.
  @Test func httpAndJSONShareOneText() throws {
    struct Model: Encodable {
      var name = "Blob \u{E9} / \"quoted\""
      var sizes = [1.5, 2, -0.0, 1e21]
      var nested = ["z": 1, "a": 2]
    }
    let body = try JSONEncoder().encode(Model())
    guard case .value(let value) = JSONBody.read(body).reading else {
      Issue.record("the model's body did not read")
      return
    }
    #expect(prettyJSONText(of: value) == prettyJSONText(of: Model()))
  }
}
