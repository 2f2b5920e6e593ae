import Foundation
import RunRecord
import Testing

@_spi(Internals) @testable import SnapshotTesting

/// Inside a scope, `SnapshotTestingConfiguration.current` holds the record mode and diff tool in
/// effect, as upstream's does; the assertions still tell a mode someone chose from one that was
/// only filled in. Each test binds a private `GlobalConfiguration` and environment, so nothing
/// here leaks into tests running in parallel.
@Suite struct EffectiveConfigurationTests {
  typealias DiffTool = SnapshotTestingConfiguration.DiffTool

  @Test func scopeThatSetsNothingHoldsTheDefaults() {
    isolated(environment: [:]) {
      withSnapshotTesting {
        #expect(SnapshotTestingConfiguration.current?.record == .missing)
        #expect(rendered(SnapshotTestingConfiguration.current?.diffTool) == rendered(.default))
      }
    }
  }

  @Test func scopeHoldsTheGlobalRecordModeAndDiffTool() {
    isolated(environment: [.record: "never"]) {
      GlobalConfiguration.shared.record = .all
      GlobalConfiguration.shared.diffTool = "meld"
      withSnapshotTesting {
        #expect(SnapshotTestingConfiguration.current?.record == .all)
        #expect(rendered(SnapshotTestingConfiguration.current?.diffTool) == "meld A B")
      }
    }
  }

  @Test func scopeHoldsTheEnvironmentRecordMode() {
    isolated(environment: [.record: "failed"]) {
      withSnapshotTesting(diffTool: "meld") {
        #expect(SnapshotTestingConfiguration.current?.record == .failed)
      }
    }
  }

  @Test func innerScopeHoldsTheEnclosingChoices() {
    isolated(environment: [:]) {
      GlobalConfiguration.shared.diffTool = "meld"
      withSnapshotTesting(record: .never, diffTool: "kdiff3") {
        withSnapshotTesting {
          #expect(SnapshotTestingConfiguration.current?.record == .never)
          #expect(rendered(SnapshotTestingConfiguration.current?.diffTool) == "kdiff3 A B")
        }
      }
    }
  }

  @Test func asyncScopeHoldsTheEffectiveConfiguration() async {
    await GlobalConfiguration.withPrivateInstance {
      GlobalConfiguration.shared.diffTool = "meld"
      await RunEnvironment.withOverride([:]) {
        await withSnapshotTesting(record: .failed) {
          await Task.yield()
          #expect(SnapshotTestingConfiguration.current?.record == .failed)
          #expect(rendered(SnapshotTestingConfiguration.current?.diffTool) == "meld A B")
        }
      }
    }
  }

  // The trait runs before the test body, so it sees the process's own globals and environment:
  // compare with what they give rather than with fixed values.
  @Test(.snapshots(diffTool: "meld"))
  func traitThatSetsNoRecordModeHoldsTheEffectiveOne() {
    #expect(SnapshotTestingConfiguration.current?.record != nil)
    #expect(SnapshotTestingConfiguration.current?.record == __record)
    #expect(rendered(SnapshotTestingConfiguration.current?.diffTool) == "meld A B")
  }

  @Test(.snapshots(record: .never))
  func traitThatSetsNoDiffToolHoldsTheEffectiveOne() {
    #expect(rendered(SnapshotTestingConfiguration.current?.diffTool) == rendered(__diffTool))
  }

  // The CI rule: a scope that chose no mode must not count as configuring `.missing`.

  @Test func onCIAScopeThatChoseNoModeDoesNotRecordAMissingReference() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root, environment: [.continuousIntegration: "true"])
      try isolated(environment: sandbox.environment) {
        try withSnapshotTesting(diffTool: "meld") {
          let message = try #require(sandbox.verify("x", as: .lines))
          #expect(message.contains("It was not recorded because this is a CI run"))
          #expect(!FileManager.default.fileExists(atPath: sandbox.reference("sandbox.1.txt").path))
        }
      }
    }
  }

  @Test(.snapshots(diffTool: "meld"))
  func onCIATraitThatChoseNoModeDoesNotRecordAMissingReference() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root, environment: [.continuousIntegration: "true"])
      let message = try #require(sandbox.verify("x", as: .lines))
      #expect(message.contains("It was not recorded because this is a CI run"))
      #expect(!FileManager.default.fileExists(atPath: sandbox.reference("sandbox.1.txt").path))
    }
  }

  /// Libraries built on the assertions (for example a macro-testing helper) forward
  /// `current.record` as the `record:` argument.
  @Test func onCIAForwardedRecordModeThatNobodyChoseDoesNotRecord() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root, environment: [.continuousIntegration: "true"])
      try isolated(environment: sandbox.environment) {
        try withSnapshotTesting(diffTool: "meld") {
          let forwarded = SnapshotTestingConfiguration.current?.record
          let message = try #require(sandbox.verify("x", as: .lines, record: forwarded))
          #expect(message.contains("It was not recorded because this is a CI run"))
          #expect(!FileManager.default.fileExists(atPath: sandbox.reference("sandbox.1.txt").path))
        }
      }
    }
  }

  @Test func onCIAScopeThatChoseMissingRecords() throws {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root, environment: [.continuousIntegration: "true"])
      isolated(environment: sandbox.environment) {
        withSnapshotTesting(record: .missing) {
          withSnapshotTesting(diffTool: "meld") {
            #expect(sandbox.verify("x", as: .lines) != nil)
          }
        }
      }
      #expect(contents(of: sandbox.reference("sandbox.1.txt")) == "x")
    }
  }

  // Precedence: a scope that chose no mode leaves the globals and the environment in charge.

  @Test func globalSetInsideAScopeThatChoseNoModeApplies() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try sandbox.write("x", to: "sandbox.1.txt")
      isolated(environment: sandbox.environment) {
        withSnapshotTesting(diffTool: "meld") {
          GlobalConfiguration.shared.record = .all
          #expect(sandbox.verify("x", as: .lines)?.hasPrefix(#"Record mode is "all""#) == true)
          #expect(_record == .all)
        }
      }
    }
  }

  @Test func invalidEnvironmentValueStillFailsInsideAScopeThatChoseNoMode() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root, environment: [.record: "yes"])
      try isolated(environment: sandbox.environment) {
        try withSnapshotTesting(diffTool: "meld") {
          let message = try #require(sandbox.verify("x", as: .lines))
          #expect(message.hasPrefix(#"SNAPSHOT_TESTING_RECORD is set to "yes""#))
        }
      }
    }
  }

  /// Runs `body` with a private global configuration and the given environment.
  private func isolated<R>(environment: RunEnvironment, _ body: () throws -> R) rethrows -> R {
    try GlobalConfiguration.withPrivateInstance {
      try RunEnvironment.withOverride(environment, operation: body)
    }
  }

  private func rendered(_ tool: DiffTool?) -> String? {
    tool?(currentFilePath: "A", failedFilePath: "B")
  }
}
