import Foundation
import SnapshotTesting

/// The text a strategy produces for `value`, and the reason it reported if it could not.
public func snapshotText<Value>(_ value: Value, as strategy: Snapshotting<Value, String>)
  -> (text: String, failure: String?)
{
  // A strategy may deliver on another thread (a command's runner): wait for it, generously.
  let (text, failure) = UnavailableSnapshot.collecting {
    awaitValue(strategy.snapshot(value), timeout: 300) ?? ""
  }
  return (text, failure)
}

/// Runs `body` with a fresh temporary folder, removed afterwards.
public func withTemporaryFolder<R>(_ body: (URL) throws -> R) rethrows -> R {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("snapshot-tests-\(UUID().uuidString)", isDirectory: true)
  try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  return try body(folder)
}

/// Every file under `folder`, as paths relative to it.
public func files(under folder: URL) -> [String] {
  let enumerator = FileManager.default.enumerator(atPath: folder.path)
  var found: [String] = []
  while let path = enumerator?.nextObject() as? String {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(
      atPath: folder.appendingPathComponent(path).path,
      isDirectory: &isDirectory
    ), !isDirectory.boolValue {
      found.append(path)
    }
  }
  return found.sorted()
}

/// Whether a browser suite runs: when the browser was found, and always on CI (`CI` set), where
/// a missing browser must fail every browser test, naming what was looked for, rather than skip
/// them silently (CI installs it with `scripts/require-system-packages.sh --with-chromium`).
public func browserSuitesRun(
  browserFound: Bool,
  environment: [String: String] = ProcessInfo.processInfo.environment
) -> Bool {
  browserFound || environment["CI"].map { !$0.isEmpty } == true
}
