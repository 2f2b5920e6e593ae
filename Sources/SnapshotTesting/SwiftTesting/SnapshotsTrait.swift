import Testing

/// The trait behind `.snapshots(record:diffTool:variant:scrubbing:)` and its narrower spellings;
/// use the static functions to create it.
public struct _SnapshotsTestTrait: SuiteTrait, TestTrait, TestScoping {
  /// Applies to every test in a suite it is attached to.
  public let isRecursive = true
  var record: SnapshotTestingConfiguration.Record?
  var diffTool: SnapshotTestingConfiguration.DiffTool?
  var variant: SnapshotTestingConfiguration.Variant?
  var scrubbers: [Scrubber]?
  var naming: SnapshotTestingConfiguration.Naming?

  /// Runs each test case in a scope with this trait's choices and a snapshot counter of its own,
  /// which child tasks of the test inherit.
  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    var configuration = SnapshotTestingConfiguration.entering(
      record: record, diffTool: diffTool, variant: variant, scrubbing: scrubbers, naming: naming)
    if testCase != nil { configuration.scope.counter = SnapshotCounter() }
    try await SnapshotTestingConfiguration.$current.withValue(configuration, operation: function)
  }
}

extension Trait where Self == _SnapshotsTestTrait {
  /// Snapshot testing with the enclosing configuration, and a snapshot counter per test case.
  public static var snapshots: Self { snapshots() }

  /// Configures snapshot testing for a suite or a test: any of a record mode, a diff tool, a
  /// reference variant and scrubbers. Each `nil` inherits from the enclosing suite or scope.
  ///
  /// ```swift
  /// @Suite(.snapshots(record: .failed, variant: .operatingSystem, scrubbing: [.uuids]))
  /// struct ReportTests {
  ///   @Test func summary() { assertSnapshot(of: report, as: .lines) }  // summary.1.linux.txt
  /// }
  /// ```
  ///
  /// A test's trait overrides its suite's record mode, diff tool and variant, and adds its
  /// scrubbers after the suite's; scrubbers run before a strategy's own `.scrubbing(...)`, and
  /// images and `Data` are never scrubbed. A variant takes precedence over
  /// `SNAPSHOT_TESTING_VARIANT`; inline snapshots refuse one. Each test case gets a snapshot
  /// counter of its own.
  ///
  /// - Parameters:
  ///   - record: The record mode, or `nil` to inherit.
  ///   - diffTool: The diff tool, or `nil` to inherit.
  ///   - variant: The variant of the references written and compared, or `nil` to inherit.
  ///   - scrubbers: Scrubbers added after the enclosing ones, or `nil` for none.
  ///   - naming: How a parameterized test's references are named
  ///     (``SnapshotTestingConfiguration/Naming/arguments`` gives each case its own), or `nil` to
  ///     inherit.
  public static func snapshots(
    record: SnapshotTestingConfiguration.Record? = nil,
    diffTool: SnapshotTestingConfiguration.DiffTool? = nil,
    variant: SnapshotTestingConfiguration.Variant? = nil,
    scrubbing scrubbers: [Scrubber]? = nil,
    naming: SnapshotTestingConfiguration.Naming? = nil
  ) -> Self {
    _SnapshotsTestTrait(
      record: record, diffTool: diffTool, variant: variant, scrubbers: scrubbers, naming: naming)
  }

  /// Configures a suite or a test's record mode and diff tool; see
  /// ``Testing/Trait/snapshots(record:diffTool:variant:scrubbing:naming:)``.
  public static func snapshots(
    record: SnapshotTestingConfiguration.Record? = nil,
    diffTool: SnapshotTestingConfiguration.DiffTool? = nil
  ) -> Self {
    snapshots(record: record, diffTool: diffTool, variant: nil, scrubbing: nil)
  }

  /// Scrubs every text snapshot of a suite or a test, and optionally configures it; see
  /// ``Testing/Trait/snapshots(record:diffTool:variant:scrubbing:naming:)``.
  ///
  /// ```swift
  /// @Suite(.snapshots(scrubbing: [.uuids, .iso8601Dates, .memoryAddresses]))
  /// struct APITests {
  ///   @Test func user() { assertSnapshot(of: user, as: .json) }
  /// }
  /// ```
  public static func snapshots(
    record: SnapshotTestingConfiguration.Record? = nil,
    diffTool: SnapshotTestingConfiguration.DiffTool? = nil,
    scrubbing scrubbers: [Scrubber]
  ) -> Self {
    snapshots(record: record, diffTool: diffTool, variant: nil, scrubbing: scrubbers)
  }

  /// Gives every file snapshot of a suite or a test a reference variant, and optionally
  /// configures it; see ``Testing/Trait/snapshots(record:diffTool:variant:scrubbing:naming:)``.
  ///
  /// ```swift
  /// @Suite(.snapshots(variant: .operatingSystem))
  /// struct ChartTests {
  ///   @Test func testBars() { assertSnapshot(of: chart, as: .image) }  // testBars.1.linux.png
  /// }
  /// ```
  public static func snapshots(
    record: SnapshotTestingConfiguration.Record? = nil,
    diffTool: SnapshotTestingConfiguration.DiffTool? = nil,
    variant: SnapshotTestingConfiguration.Variant
  ) -> Self {
    snapshots(record: record, diffTool: diffTool, variant: variant, scrubbing: nil)
  }

  /// Configures snapshot testing for a suite or a test with a whole configuration.
  public static func snapshots(_ configuration: SnapshotTestingConfiguration) -> Self {
    snapshots(record: configuration.record, diffTool: configuration.diffTool)
  }
}
