import Foundation
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

  #if os(Linux)
    @Test func defaultDiffToolSuggestsLinuxToolsInTwoLines() {
      let text = SnapshotTestingConfiguration.DiffTool.default(
        currentFilePath: "/ref.txt",
        failedFilePath: "/tmp/new.txt"
      )
      #expect(
        text == """
          @\u{2212}
          "file:///ref.txt"
          @+
          "file:///tmp/new.txt"

          Review it with 'swift run snapshot-testing review', or set a diff tool:
          withSnapshotTesting(diffTool: "diff -u") { … } (or "git diff --no-index", "meld")
          """
      )
      #expect(!text.contains("ksdiff"))
    }

    /// The configuration the hint suggests works as written: `"diff -u"` gives a command that a
    /// shell runs on the two files, even when a folder's name has a space.
    @Test func suggestedDiffToolRunsInAShell() throws {
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("diff tool \(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let reference = folder.appendingPathComponent("ref.txt")
      let failed = folder.appendingPathComponent("new.txt")
      try Data("old\n".utf8).write(to: reference)
      try Data("new\n".utf8).write(to: failed)
      let tool: SnapshotTestingConfiguration.DiffTool = "diff -u"
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = [
        "-c", tool(currentFilePath: reference.path, failedFilePath: failed.path),
      ]
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus == 1)
      #expect(output.contains("\n-old\n+new\n"))
    }
  #else
    @Test func defaultDiffToolKeepsUpstreamsHintOffLinux() {
      let text = SnapshotTestingConfiguration.DiffTool.default(
        currentFilePath: "/ref.txt",
        failedFilePath: "/tmp/new.txt"
      )
      #expect(text.contains("withSnapshotTesting(diffTool: .ksdiff)"))
    }
  #endif
}
