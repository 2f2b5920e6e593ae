import Testing

/// The trait behind `.snapshots(record:diffTool:)`, `.snapshots(scrubbing:)` and
/// `.snapshots(variant:)`; use the static functions to create it.
public struct _SnapshotsTestTrait: SuiteTrait, TestTrait, TestScoping {
  /// Applies to every test in a suite it is attached to.
  public let isRecursive = true
  let configuration: SnapshotTestingConfiguration
  var scrubbers: [Scrubber] = []
  var variant: SnapshotTestingConfiguration.Variant? = nil

  /// Runs each test case with this configuration and a snapshot counter of its own, which child
  /// tasks of the test inherit.
  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    try await ScopedVariant.$current.withValue(variant ?? ScopedVariant.current) {
      try await withSnapshotTesting(
        record: configuration.record,
        diffTool: configuration.diffTool,
        scrubbing: scrubbers
      ) {
        if testCase != nil {
          try await SnapshotCounter.$scoped.withValue(SnapshotCounter(), operation: function)
        } else {
          try await function()
        }
      }
    }
  }
}

extension Trait where Self == _SnapshotsTestTrait {
  /// Snapshot testing with the enclosing configuration, and a snapshot counter per test case.
  public static var snapshots: Self { snapshots() }

  /// Configures snapshot testing for a suite or a test.
  ///
  /// ```swift
  /// @Suite(.snapshots(record: .failed, diffTool: .ksdiff))
  /// struct ReportTests {
  ///   @Test func summary() { assertSnapshot(of: report, as: .lines) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - record: The record mode, or `nil` to inherit.
  ///   - diffTool: The diff tool, or `nil` to inherit.
  public static func snapshots(
    record: SnapshotTestingConfiguration.Record? = nil,
    diffTool: SnapshotTestingConfiguration.DiffTool? = nil
  ) -> Self {
    _SnapshotsTestTrait(
      configuration: SnapshotTestingConfiguration(record: record, diffTool: diffTool)
    )
  }

  /// Scrubs every text snapshot of a suite or a test, and optionally configures it.
  ///
  /// ```swift
  /// @Suite(.snapshots(scrubbing: [.uuids, .iso8601Dates, .memoryAddresses]))
  /// struct APITests {
  ///   @Test func user() { assertSnapshot(of: user, as: .json) }
  /// }
  /// ```
  ///
  /// A test's trait adds its scrubbers after its suite's; both run before a strategy's own
  /// `.scrubbing(...)`. Images and `Data` are never scrubbed.
  ///
  /// - Parameters:
  ///   - record: The record mode, or `nil` to inherit.
  ///   - diffTool: The diff tool, or `nil` to inherit.
  ///   - scrubbers: Scrubbers added to the enclosing scope's.
  public static func snapshots(
    record: SnapshotTestingConfiguration.Record? = nil,
    diffTool: SnapshotTestingConfiguration.DiffTool? = nil,
    scrubbing scrubbers: [Scrubber]
  ) -> Self {
    _SnapshotsTestTrait(
      configuration: SnapshotTestingConfiguration(record: record, diffTool: diffTool),
      scrubbers: scrubbers
    )
  }

  /// Gives every file snapshot of a suite or a test a reference variant, and optionally
  /// configures it.
  ///
  /// ```swift
  /// @Suite(.snapshots(variant: .operatingSystem))
  /// struct ChartTests {
  ///   @Test func testBars() { assertSnapshot(of: chart, as: .image) }  // testBars.1.linux.png
  /// }
  /// ```
  ///
  /// A test's variant replaces its suite's; either takes precedence over
  /// `SNAPSHOT_TESTING_VARIANT`. Inline snapshots refuse a variant.
  ///
  /// - Parameters:
  ///   - record: The record mode, or `nil` to inherit.
  ///   - diffTool: The diff tool, or `nil` to inherit.
  ///   - variant: The variant of the references written and compared.
  public static func snapshots(
    record: SnapshotTestingConfiguration.Record? = nil,
    diffTool: SnapshotTestingConfiguration.DiffTool? = nil,
    variant: SnapshotTestingConfiguration.Variant
  ) -> Self {
    _SnapshotsTestTrait(
      configuration: SnapshotTestingConfiguration(record: record, diffTool: diffTool),
      variant: variant
    )
  }

  /// Configures snapshot testing for a suite or a test with a whole configuration.
  public static func snapshots(_ configuration: SnapshotTestingConfiguration) -> Self {
    _SnapshotsTestTrait(configuration: configuration)
  }
}
