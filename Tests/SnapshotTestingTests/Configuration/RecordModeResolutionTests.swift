import Testing

@testable import SnapshotTesting

@Suite struct RecordModeResolutionTests {
  typealias Record = SnapshotTestingConfiguration.Record

  @Test func argumentBeatsEverything() throws {
    let resolved = try resolveRecordMode(
      argument: .never,
      scoped: .all,
      global: .failed,
      environment: [.record: "all"]
    )
    #expect(
      resolved
        == ResolvedRecordMode(mode: .never, isConfigured: true, writesMissingReferences: true)
    )
  }

  @Test func scopeBeatsGlobalAndEnvironment() throws {
    let resolved = try resolveRecordMode(
      argument: nil,
      scoped: .failed,
      global: .all,
      environment: [.record: "never"]
    )
    #expect(resolved.mode == .failed)
  }

  @Test func globalBeatsEnvironment() throws {
    let resolved = try resolveRecordMode(
      argument: nil,
      scoped: nil,
      global: .all,
      environment: [.record: "never"]
    )
    #expect(resolved.mode == .all)
  }

  @Test(arguments: ["all", "failed", "missing", "never"])
  func environmentVariableIsRead(_ raw: String) throws {
    let resolved = try resolveRecordMode(
      argument: nil,
      scoped: nil,
      global: nil,
      environment: [.record: raw, .continuousIntegration: "true"]
    )
    #expect(resolved.mode == Record(rawValue: raw))
    #expect(resolved.isConfigured)
    #expect(resolved.writesMissingReferences)
  }

  @Test func defaultIsMissingAndWritesLocally() throws {
    let resolved = try resolveRecordMode(argument: nil, scoped: nil, global: nil, environment: [:])
    #expect(
      resolved
        == ResolvedRecordMode(mode: .missing, isConfigured: false, writesMissingReferences: true)
    )
  }

  @Test(arguments: ["true", "1", "yes", "github"])
  func defaultOnCIDoesNotWriteMissingReferences(_ ci: String) throws {
    let resolved = try resolveRecordMode(
      argument: nil,
      scoped: nil,
      global: nil,
      environment: [.continuousIntegration: ci]
    )
    #expect(resolved.mode == .missing)
    #expect(!resolved.writesMissingReferences)
  }

  @Test(arguments: ["", "false", "0", "FALSE"])
  func ciVariableThatSaysNoIsNotCI(_ ci: String) throws {
    let resolved = try resolveRecordMode(
      argument: nil,
      scoped: nil,
      global: nil,
      environment: [.continuousIntegration: ci]
    )
    #expect(resolved.writesMissingReferences)
  }

  @Test func explicitMissingOnCIWrites() throws {
    let resolved = try resolveRecordMode(
      argument: .missing,
      scoped: nil,
      global: nil,
      environment: [.continuousIntegration: "true"]
    )
    #expect(resolved.writesMissingReferences)
  }

  /// `withSnapshotTesting` fills in the mode of a scope that chose none; that copy must not
  /// count as configured.
  @Test func copiedScopeModeIsNotConfigured() throws {
    let resolved = try resolveRecordMode(
      argument: copied(.all),
      scoped: copied(.all),
      global: nil,
      environment: [.continuousIntegration: "true"]
    )
    #expect(
      resolved
        == ResolvedRecordMode(mode: .missing, isConfigured: false, writesMissingReferences: false)
    )
  }

  @Test func copiedScopeModeDefersToTheGlobalAndTheEnvironment() throws {
    let global = try resolveRecordMode(
      argument: nil,
      scoped: copied(.never),
      global: .all,
      environment: [.record: "failed"]
    )
    #expect(global.mode == .all)
    let environment = try resolveRecordMode(
      argument: nil,
      scoped: copied(.never),
      global: nil,
      environment: [.record: "failed"]
    )
    #expect(environment.mode == .failed)
  }

  @Test func copiedModeEqualsTheChosenOne() {
    #expect(copied(.failed) == .failed)
    #expect(copied(.failed) != .all)
  }

  @Test func invalidEnvironmentValueIsAnErrorNamingIt() {
    #expect {
      _ = try resolveRecordMode(
        argument: nil,
        scoped: nil,
        global: nil,
        environment: [.record: "yes"]
      )
    } throws: { error in
      (error as? RecordModeError)?.description == """
        SNAPSHOT_TESTING_RECORD is set to "yes", which is not a record mode. Use one of: all, \
        failed, missing, never.
        """
    }
  }

  @Test func rawValuesParse() {
    #expect(Record(rawValue: "all") == .all)
    #expect(Record(rawValue: "failed") == .failed)
    #expect(Record(rawValue: "missing") == .missing)
    #expect(Record(rawValue: "never") == .never)
    #expect(Record(rawValue: "All") == nil)
    #expect(Record(rawValue: "") == nil)
  }

  private func copied(_ mode: Record) -> Record {
    var record = mode
    record.origin = .copiedFromOutsideScopes
    return record
  }
}
