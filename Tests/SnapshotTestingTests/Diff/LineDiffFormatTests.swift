import Foundation
import Testing

@testable import SnapshotTesting

@Suite struct LineDiffFormatTests {
  let minus = "\u{2212}"
  let space = "\u{2007}"

  @Test func equalTextsMatch() {
    #expect(Diffing<String>.lines.diffV2("a\nb", "a\nb") == nil)
    #expect(Diffing<String>.lines.diffV2("", "") == nil)
  }

  @Test func canonicallyEquivalentTextsMatchLikeSwiftStrings() {
    #expect(Diffing<String>.lines.diffV2("caf\u{E9}", "cafe\u{301}") == nil)
  }

  @Test func changeIsRemovalThenAdditionWithContext() {
    let diff = lineDiff(old: "a\nb\nc", new: "a\nB\nc")
    #expect(diff == "@@ \(minus)1,3 +1,3 @@\n\(space)a\n\(minus)b\n+B\n\(space)c")
  }

  @Test func headerCountsFromOneEvenForEmptySides() {
    // Inserting at the very start shows no old line: the old side still reads "1,0".
    let diff = lineDiff(old: "x\ny", new: "new\nx\ny")
    #expect(diff == "@@ \(minus)1,2 +1,3 @@\n+new\n\(space)x\n\(space)y")
  }

  @Test func emptyTextIsOneEmptyLine() {
    #expect(lineDiff(old: "", new: "a") == "@@ \(minus)1,1 +1,1 @@\n\(minus)\n+a")
    #expect(lineDiff(old: "a", new: "") == "@@ \(minus)1,1 +1,1 @@\n\(minus)a\n+")
  }

  @Test func trailingSpacesGetAMarkButTabsDoNot() {
    let diff = lineDiff(old: "a \nb\t\nc", new: "a \nb\t\nC ")
    #expect(
      diff == "@@ \(minus)1,3 +1,3 @@\n\(space)a ¬\n\(space)b\t\n\(minus)c\n+C ¬"
    )
  }

  @Test func onlyWhitespaceChangesAreShown() {
    let diff = lineDiff(old: "x\n  y\nz", new: "x\n\ty\nz")
    #expect(diff == "@@ \(minus)1,3 +1,3 @@\n\(space)x\n\(minus)  y\n+\ty\n\(space)z")
    #expect(lineDiff(old: "a\n \nb", new: "a\n  \nb")?.contains("\(minus) ¬\n+  ¬") == true)
  }

  @Test func windowsLineEndingsAreComparedLineByLine() {
    let diff = lineDiff(old: "a\r\nb\r\nc", new: "a\r\nB\r\nc")
    #expect(diff == "@@ \(minus)1,3 +1,3 @@\n\(space)a\r\n\(minus)b\r\n+B\r\n\(space)c")
  }

  @Test func distantChangesMakeSeparateHunksWithFourLinesOfContext() {
    let old = (1...30).map { "\($0)" }
    var new = old
    new[2] = "three"
    new[25] = "twenty-six"
    let diff = lineDiff(old: old.joined(separator: "\n"), new: new.joined(separator: "\n"))
    let headers = diff?.split(separator: "\n").filter { $0.hasPrefix("@@") }
    #expect(headers == ["@@ \(minus)1,7 +1,7 @@", "@@ \(minus)22,9 +22,9 @@"])
  }

  @Test func attachesThePatch() throws {
    let result = try #require(Diffing<String>.lines.diffV2("a", "b"))
    #expect(result.1.count == 1)
    guard case .data(let data, let name) = result.1.first else {
      Issue.record("expected a data attachment")
      return
    }
    #expect(name == "difference.patch")
    #expect(String(decoding: data, as: UTF8.self) == result.0)
  }

  @Test func snapshottingUsesTxtAndTheLineDiff() {
    #expect(Snapshotting<String, String>.lines.pathExtension == "txt")
    #expect(
      Snapshotting<String, String>.lines.diffing.diffV2("a", "b")?.0 == lineDiff(old: "a", new: "b")
    )
  }
}
