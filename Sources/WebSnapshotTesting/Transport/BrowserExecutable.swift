import Foundation

/// Finds the Chromium executable: `SNAPSHOT_TESTING_CHROMIUM` when set, else the first of the
/// usual names on `PATH`, the headless shells first: they have no windows to make for each
/// browser context and render the same pixels, so a snapshot costs about half as much.
enum BrowserExecutable {
  /// The variable that names the executable.
  static let variable = "SNAPSHOT_TESTING_CHROMIUM"
  /// The names looked up on `PATH`, in order.
  static let names = [
    "chromium-headless-shell", "chrome-headless-shell", "chromium", "chromium-browser",
    "google-chrome",
  ]

  /// Replaces the process's environment for the lookup, in tests (the environment itself is
  /// shared by tests running in parallel).
  @TaskLocal static var environmentOverride: [String: String]?

  /// The executable's path for `environment`, or why there is none.
  static func locate(
    in environment: [String: String] = environmentOverride ?? ProcessInfo.processInfo.environment
  ) -> Result<String, WebSnapshotError> {
    if let configured = environment[variable], !configured.isEmpty {
      // A name without a slash is looked up on PATH, as a shell would.
      if !configured.contains("/"), let found = search(configured, environment) {
        return .success(found)
      }
      return isExecutable(configured)
        ? .success(configured) : .failure(.browserNotFound(variableValue: configured))
    }
    for name in names {
      if let found = search(name, environment) { return .success(found) }
    }
    return .failure(.browserNotFound(variableValue: nil))
  }

  private static func search(_ name: String, _ environment: [String: String]) -> String? {
    let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for folder in path.split(separator: ":") where !folder.isEmpty {
      let candidate = "\(folder)/\(name)"
      if isExecutable(candidate) { return candidate }
    }
    return nil
  }

  private static func isExecutable(_ path: String) -> Bool {
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
      && !isFolder.boolValue && FileManager.default.isExecutableFile(atPath: path)
  }
}
