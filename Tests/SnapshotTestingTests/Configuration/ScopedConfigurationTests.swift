import Testing

@_spi(Internals) @testable import SnapshotTesting

@Suite struct ScopedConfigurationTests {
  @Test func innerScopeOverridesOnlyWhatItSets() {
    withSnapshotTesting(record: .never, diffTool: "outer") {
      withSnapshotTesting(record: .all) {
        #expect(SnapshotTestingConfiguration.current?.record == .all)
        let tool = SnapshotTestingConfiguration.current?.diffTool
        #expect(tool?(currentFilePath: "a", failedFilePath: "b") == "outer a b")
      }
      #expect(SnapshotTestingConfiguration.current?.record == .never)
    }
    #expect(SnapshotTestingConfiguration.current == nil)
  }

  @Test func asyncScopeIsVisibleAcrossSuspension() async {
    await withSnapshotTesting(record: .failed) {
      await Task.yield()
      #expect(SnapshotTestingConfiguration.current?.record == .failed)
      #expect(_record == .failed)
    }
  }

  @Test(.snapshots(record: .never, diffTool: .ksdiff))
  func traitSetsTheConfiguration() {
    #expect(SnapshotTestingConfiguration.current?.record == .never)
    #expect(
      _diffTool(currentFilePath: "/a b", failedFilePath: "/c")
        == "ksdiff '/a b' /c"
    )
  }

  @Test(.snapshots(record: .all))
  func scopeInsideTraitWins() {
    withSnapshotTesting(record: .missing) {
      #expect(_record == .missing)
    }
    #expect(_record == .all)
  }

  @Test func stringLiteralDiffToolAppendsThePaths() {
    let tool: SnapshotTestingConfiguration.DiffTool = "opendiff"
    #expect(
      tool(currentFilePath: "/ref.txt", failedFilePath: "/tmp/new.txt")
        == "opendiff /ref.txt /tmp/new.txt"
    )
  }

  @Test func defaultDiffToolShowsBothFilesAsURLs() {
    let text = SnapshotTestingConfiguration.DiffTool.default(
      currentFilePath: "/ref.txt",
      failedFilePath: "/tmp/new.txt"
    )
    #expect(text.hasPrefix("@\u{2212}\n\"file:///ref.txt\"\n@+\n\"file:///tmp/new.txt\"\n"))
  }
}
