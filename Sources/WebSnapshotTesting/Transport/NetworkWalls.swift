import RunRecord

/// The two walls between a page and the network: interception of every request of every
/// target (``TargetGuard``), and the browser's own rule that sends everything but loopback
/// nowhere (``BrowserProcess/arguments(profileFolder:walls:)``).
struct NetworkWalls: OptionSet, Sendable {
  let rawValue: Int
  static let interception = NetworkWalls(rawValue: 1)
  static let browserRule = NetworkWalls(rawValue: 2)
  static let both: NetworkWalls = [.interception, .browserRule]

  /// The walls a browser started, and a page opened, in this task put up: both, always, but for
  /// the tests that take one down (through ``Override``) to prove that the other holds alone.
  static var current: NetworkWalls { TestHooks.value(Override.self) ?? .both }

  /// The test seam for ``current``.
  enum Override: TestHookKey {
    typealias Value = NetworkWalls
  }
}
