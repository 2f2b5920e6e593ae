import Foundation

/// The environment variables a snapshot run reads, and their values.
///
/// Every variable the package reads is a ``Key``: reading the process's environment reads each of
/// them, so a new variable cannot be forgotten in a list somewhere else.
package struct RunEnvironment: Equatable, Sendable, ExpressibleByDictionaryLiteral {
  /// A variable the package reads.
  package enum Key: String, CaseIterable, Sendable {
    /// `all`, `failed`, `missing` or `never`: the record mode when nothing closer sets one.
    case record = "SNAPSHOT_TESTING_RECORD"
    /// Set on continuous integration; with no record mode configured, missing references are then
    /// not written.
    case continuousIntegration = "CI"
    /// The folder failed snapshots and failure records go to.
    case artifacts = "SNAPSHOT_ARTIFACTS"
    /// A folder that replaces the one holding the `__Snapshots__` trees.
    case referenceDirectory = "SNAPSHOT_TESTING_REFERENCE_DIR"
    /// A folder to log every reference an assertion used in, for `snapshot-testing prune`.
    case usedReferences = "SNAPSHOT_TESTING_USED_REFERENCES"
    /// A reference variant's name (`linux`, `fr_FR`) when no scope or trait sets a variant: the
    /// references are then `<test>.<id>.<variant>.<ext>`.
    case variant = "SNAPSHOT_TESTING_VARIANT"
    /// The Chromium executable web snapshots run: a path, or a name looked up on `PATH`.
    case chromium = "SNAPSHOT_TESTING_CHROMIUM"
    /// Where the web module looks for Chromium when `SNAPSHOT_TESTING_CHROMIUM` gives a name or
    /// nothing.
    case path = "PATH"
    /// Set to have the web module write every DevTools message to standard error.
    case webTrace = "SNAPSHOT_TESTING_WEB_TRACE"
  }

  private var values: [Key: String]

  package init(_ values: [Key: String] = [:]) {
    self.values = values
  }

  package init(dictionaryLiteral elements: (Key, String)...) {
    self.init(Dictionary(elements) { _, last in last })
  }

  /// The variable's value; an empty value counts as unset.
  package subscript(key: Key) -> String? {
    get { values[key].flatMap { $0.isEmpty ? nil : $0 } }
    set { values[key] = newValue }
  }

  /// The environment assertions run under: ``override`` when a test binds one, else the
  /// process's variables.
  package static var current: RunEnvironment {
    TestHooks.value(Override.self) ?? process
  }

  /// The process's own variables, whatever a test binds: for settings read once per process.
  package static var process: RunEnvironment {
    let variables = ProcessInfo.processInfo.environment
    return reading { name in variables[name] }
  }

  /// Every ``Key`` as `lookup` gives it (the process's `getenv`, or a test's dictionary).
  package static func reading(_ lookup: (String) -> String?) -> RunEnvironment {
    var environment = RunEnvironment()
    for key in Key.allCases {
      environment.values[key] = lookup(key.rawValue)
    }
    return environment
  }

  /// Lets tests run assertions under a given environment without changing the process's, which
  /// parallel tests would race on (see ``TestHooks``).
  package enum Override: TestHookKey {
    package typealias Value = RunEnvironment
  }

  /// Runs `operation` as if the process's environment were `environment`.
  package static func withOverride<R>(
    _ environment: RunEnvironment?, operation: () throws -> R
  ) rethrows -> R {
    try TestHooks.with(Override.self, environment, operation: operation)
  }

  /// Runs the asynchronous `operation` as if the process's environment were `environment`.
  package static func withOverride<R>(
    _ environment: RunEnvironment?, operation: () async throws -> R
  ) async rethrows -> R {
    try await TestHooks.with(Override.self, environment, operation: operation)
  }

  /// Whether `CI` says this is a continuous-integration run (set, and not `0`, `false` or `no`).
  package var isContinuousIntegration: Bool {
    guard let value = self[.continuousIntegration]?.lowercased() else { return false }
    return !["0", "false", "no"].contains(value)
  }
}
