import Foundation
import Testing

@testable import SnapshotTesting

/// Compares `Diffing<String>.lines` with the output of upstream swift-snapshot-testing 1.19.7,
/// recorded for each pair `NAME.old.txt` / `NAME.new.txt` in `__Fixtures__/LineDiff` as
/// `NAME.patch` (the message) or `NAME.match` (upstream reported no difference).
@Suite struct UpstreamFixtureTests {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("__Fixtures__/LineDiff")

  static let caseNames: [String] = {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter { $0.hasSuffix(".old.txt") }
      .map { String($0.dropLast(".old.txt".count)) }
      .sorted()
  }()

  /// Cases where several minimal diffs exist and upstream's longest-common-substring search
  /// pairs other equal lines than Myers' algorithm does. Here both diffs have the same hunks and
  /// the same number of removed and added lines; only the order inside a hunk differs.
  static let tieBreakDifferences: Set<String> = ["insert-into-empty-line"]

  @Test func fixturesArePresent() {
    #expect(Self.caseNames.count >= 30)
  }

  @Test(arguments: caseNames)
  func matchesUpstream(_ name: String) throws {
    func read(_ suffix: String) throws -> String {
      let data = try Data(contentsOf: Self.directory.appendingPathComponent(name + suffix))
      return String(decoding: data, as: UTF8.self)
    }
    let old = try read(".old.txt")
    let new = try read(".new.txt")
    let result = Diffing<String>.lines.diffV2(old, new)
    if FileManager.default.fileExists(
      atPath: Self.directory.appendingPathComponent(name + ".match").path
    ) {
      #expect(result == nil)
    } else {
      let expected = try read(".patch")
      if Self.tieBreakDifferences.contains(name) {
        let ours = try #require(result?.0)
        #expect(ours != expected, "now identical: remove \(name) from tieBreakDifferences")
        #expect(Self.summary(ours) == Self.summary(expected))
      } else {
        #expect(result?.0 == expected)
      }
    }
  }

  /// The hunk headers and the sorted lines of a printed diff.
  static func summary(_ diff: String) -> [String] {
    let lines = diff.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    return lines.filter { $0.hasPrefix("@@") } + lines.filter { !$0.hasPrefix("@@") }.sorted()
  }

  @Test func tieBreakCaseIsStillMinimal() {
    // Old: two empty lines; new: an empty line and "x". Myers keeps the first empty line.
    #expect(
      lineDiff(old: "\n", new: "\nx") == "@@ \u{2212}1,2 +1,2 @@\n\u{2007}\n\u{2212}\n+x"
    )
  }
}
