import Foundation
import RunRecord

/// Finds the Chromium executable: `SNAPSHOT_TESTING_CHROMIUM` when set, else the first of the
/// usual names on `PATH`, the headless shells first: they have no windows to make for each
/// browser context and render the same pixels, so a snapshot costs about half as much.
enum BrowserExecutable {
  /// The variable that names the executable.
  static let variable = RunEnvironment.Key.chromium.rawValue
  /// The names looked up on `PATH`, in order.
  static let names = [
    "chromium-headless-shell", "chrome-headless-shell", "chromium", "chromium-browser",
    "google-chrome",
  ]

  /// The executable's path for `environment`, or why there is none. Tests replace the
  /// environment with `RunEnvironment.withOverride`.
  static func locate(
    in environment: RunEnvironment = .current
  ) -> Result<String, WebSnapshotError> {
    if let configured = environment[.chromium] {
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

  /// Whether the executable at `path` is a headless shell (Chromium's old headless mode, which
  /// alone lets a client issue the frames: `HeadlessExperimental.beginFrame`), by its name:
  /// Debian's `chromium-headless-shell`, Chrome for Testing's `chrome-headless-shell`, or
  /// Chromium's own build, `headless_shell`.
  static func isHeadlessShell(_ path: String) -> Bool {
    let name = URL(fileURLWithPath: path).lastPathComponent
    return name.hasSuffix("headless-shell") || name.hasSuffix("headless_shell")
  }

  private static func search(_ name: String, _ environment: RunEnvironment) -> String? {
    let path = environment[.path] ?? "/usr/local/bin:/usr/bin:/bin"
    for folder in path.split(separator: ":") where !folder.isEmpty {
      let candidate = "\(folder)/\(name)"
      if isExecutable(candidate) { return candidate }
    }
    return nil
  }

  private static func isExecutable(_ path: String) -> Bool {
    SystemCalls.isFolder(path) == false && FileManager.default.isExecutableFile(atPath: path)
  }
}
