/// Replacements a test of this package makes for one task and its child tasks, in one task-local:
/// the environment, the process-wide configuration, the inline recording store, observers.
/// Nothing outside this package's own tests sets them, and each module keeps its keys private.
///
/// ```swift
/// TestHooks.with(RunEnvironment.Override.self, [.record: "never"]) {
///   assertSnapshot(of: user, as: .json)   // sees SNAPSHOT_TESTING_RECORD=never
/// }
/// ```
package struct TestHooks: Sendable {
  @TaskLocal private static var current = TestHooks()

  private var values: [ObjectIdentifier: any Sendable] = [:]

  /// The value a test bound for `key` in this task, or `nil`.
  package static func value<Key: TestHookKey>(_ key: Key.Type) -> Key.Value? {
    current.values[ObjectIdentifier(key)] as? Key.Value
  }

  /// Runs `operation` with `value` bound for `key`.
  package static func with<Key: TestHookKey, R>(
    _ key: Key.Type,
    _ value: Key.Value?,
    operation: () throws -> R
  ) rethrows -> R {
    var hooks = current
    hooks.values[ObjectIdentifier(key)] = value
    return try $current.withValue(hooks, operation: operation)
  }

  /// Runs the asynchronous `operation` with `value` bound for `key`.
  package static func with<Key: TestHookKey, R>(
    _ key: Key.Type,
    _ value: Key.Value?,
    operation: () async throws -> R
  ) async rethrows -> R {
    var hooks = current
    hooks.values[ObjectIdentifier(key)] = value
    return try await $current.withValue(hooks, operation: operation)
  }
}

/// A replacement tests can bind through ``TestHooks``; the type itself is the key.
package protocol TestHookKey {
  associatedtype Value: Sendable
}
