import Foundation

/// The package executable `name`, built beside the test bundle (`swift build` and `swift test`
/// build every product into the same folder), or nil when it was not built.
package func builtProduct(_ name: String) -> URL? {
  let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
  var folder = bundle.deletingLastPathComponent()
  // `…/debug/PackageTests.xctest` on Linux, `…/PackageTests.xctest/Contents/MacOS/…` elsewhere.
  while folder.path != "/" {
    let candidate = folder.appendingPathComponent(name)
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    folder = folder.deletingLastPathComponent()
  }
  return nil
}
