import Foundation

/// The URL of one of this package's executables, as `swift build` or `swift test` built it
/// beside the test bundle.
///
/// ```swift
/// let greet = Command(executable: productURL("mytool"), arguments: ["greet", "--name", "Blob"])
/// ```
///
/// The test target must depend on the executable target, so that `swift test` builds it before
/// the tests run. When nothing is there, the assertion that runs the command fails, naming the
/// path and saying this.
///
/// - Parameter name: The executable product's name.
/// - Returns: `<build folder>/<name>`, whether or not the file exists.
public func productURL(_ name: String) -> URL {
  productsFolder.appendingPathComponent(name, isDirectory: false)
}

/// Where the build puts products: the folder of the test bundle (`.build/debug`).
private let productsFolder: URL = {
  #if os(macOS)
    // The bundle is `.build/debug/<Package>PackageTests.xctest`, run by `xctest`.
    if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
      return bundle.bundleURL.deletingLastPathComponent()
    }
  #endif
  // On Linux the test bundle is the executable itself, `.build/debug/<Package>PackageTests.xctest`.
  if let executable = Bundle.main.executableURL {
    return executable.resolvingSymlinksInPath().deletingLastPathComponent()
  }
  return URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()
}()
