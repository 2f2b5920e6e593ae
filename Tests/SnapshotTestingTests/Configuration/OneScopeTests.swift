import Foundation
import RunRecord
import Testing

@_spi(Internals) @testable import SnapshotTesting

/// The general spellings set a variant and scrubbers in one call, and every setting travels in
/// the one task-local, `SnapshotTestingConfiguration.current`.
@Suite struct OneScopeTests {
  @Test func oneCallSetsAVariantAndScrubbers() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let id = "5D3B1A4C-8E2F-4A6B-9C1D-7E8F9A0B1C2D"
      withSnapshotTesting(record: .all, variant: .custom("dark"), scrubbing: [.uuids]) {
        _ = sandbox.verify("user \(id)\n", as: .lines, testName: "testUser()")
      }
      #expect(fileNames(in: sandbox.snapshots) == ["testUser.1.dark.txt"])
      let recorded = try String(
        contentsOf: sandbox.reference("testUser.1.dark.txt"), encoding: .utf8)
      #expect(recorded == "user UUID_1\n")
    }
  }

  @Test func oneAsyncCallSetsAVariantAndScrubbers() async throws {
    try await withTemporaryDirectoryAsync { root in
      let sandbox = SnapshotSandbox(root: root)
      await withSnapshotTesting(variant: .custom("fr_FR"), scrubbing: [.iso8601Dates]) {
        await Task.yield()
        #expect(SnapshotScope.current.variant == .custom("fr_FR"))
        #expect(SnapshotScope.current.scrubbers.count == 1)
        _ = sandbox.verify("at 2024-01-02T03:04:05Z\n", as: .lines, testName: "testDate()")
      }
      let recorded = try String(
        contentsOf: sandbox.reference("testDate.1.fr_FR.txt"), encoding: .utf8)
      #expect(recorded == "at DATE_1\n")
    }
  }

  @Test(.snapshots(record: .failed, variant: .custom("trait"), scrubbing: [.uuids]))
  func theGeneralTraitSetsEverything() {
    #expect(SnapshotTestingConfiguration.current?.record == .failed)
    #expect(SnapshotScope.current.variant == .custom("trait"))
    #expect(SnapshotScope.current.scrubbers.count == 1)
    #expect(SnapshotScope.current.counter != nil)
  }

  @Test func innerScopesOverrideWhatTheySetAndAddScrubbers() {
    withSnapshotTesting(record: .never, variant: .custom("outer"), scrubbing: [.uuids]) {
      withSnapshotTesting(diffTool: "meld", scrubbing: [.iso8601Dates]) {
        let scope = SnapshotScope.current
        #expect(SnapshotTestingConfiguration.current?.record == .never)
        #expect(scope.variant == .custom("outer"))
        #expect(scope.scrubbers.count == 2)
        #expect(_diffTool(currentFilePath: "a", failedFilePath: "b") == "meld a b")
      }
    }
  }

  /// A library that binds a configuration of its own inside a scope keeps the scope's variant
  /// and scrubbers.
  @Test func aConfigurationALibraryBindsKeepsTheScopesOtherSettings() {
    withSnapshotTesting(variant: .custom("outer"), scrubbing: [.uuids]) {
      let own = SnapshotTestingConfiguration(record: .never, diffTool: nil)
      SnapshotTestingConfiguration.$current.withValue(own) {
        #expect(SnapshotScope.current.variant == .custom("outer"))
        #expect(SnapshotScope.current.scrubbers.count == 1)
        #expect(_record == .never)
      }
    }
  }

  @Test func outsideEveryScopeTheConfigurationIsNil() {
    #expect(SnapshotTestingConfiguration.current == nil)
    withSnapshotTesting(scrubbing: []) {
      #expect(SnapshotTestingConfiguration.current != nil)
    }
  }

  /// A global set inside a scope that chose nothing applies, for the diff tool as for the record
  /// mode: the scope holds only what it chose.
  @Test func aGlobalSetInsideAScopeThatChoseNothingApplies() {
    GlobalConfiguration.withPrivateInstance {
      withSnapshotTesting(record: .never) {
        __diffTool = "opendiff"
        #expect(_diffTool(currentFilePath: "a", failedFilePath: "b") == "opendiff a b")
      }
    }
  }
}
