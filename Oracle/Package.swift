// swift-tools-version:6.0

// The test oracle of the inline-snapshot rewriter: the swift-syntax rewriter the package used
// before its own scanner, and the differential test that compares the two on a corpus of real
// Swift. Kept out of the main package so that no user resolves or builds swift-syntax. Run
// `scripts/differential-inline.sh` from the root.
//
// swift-syntax is not built here: the toolchain carries it, built in release, for the compiler's
// macros (`usr/lib/swift/host`: `libSwiftSyntax.so`, `libSwiftParser.so` and their module
// interfaces). Linking those saves a build of several minutes on every run and gives the oracle
// the parser of the very compiler that builds the tests. SWIFT_HOST_LIBRARIES names another folder.

import Foundation
import PackageDescription

/// The toolchain's `usr/lib/swift/host`, found from the `swift` on PATH.
let hostLibraries: String = {
  let environment = ProcessInfo.processInfo.environment
  if let named = environment["SWIFT_HOST_LIBRARIES"] { return named }
  for folder in (environment["PATH"] ?? "").split(separator: ":") {
    let swift = URL(fileURLWithPath: String(folder)).appendingPathComponent("swift")
    guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
    let host = swift.resolvingSymlinksInPath().deletingLastPathComponent()
      .appendingPathComponent("../lib/swift/host").standardizedFileURL.path
    if FileManager.default.fileExists(atPath: host + "/libSwiftSyntax.so") { return host }
  }
  return "/usr/lib/swift/host"
}()

/// Where every target finds the toolchain's swift-syntax modules (a target that imports one that
/// imports them needs them too).
let syntaxSearch: [SwiftSetting] = [.unsafeFlags(["-I", hostLibraries])]

let package = Package(
  name: "swift-snapshot-testing-oracle",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "swift-snapshot-testing", path: ".."),
  ],
  targets: [
    // The swift-syntax rewriter, as it was (Rewriter/), behind a small public surface.
    .target(
      name: "InlineSnapshotOracle",
      swiftSettings: syntaxSearch,
      linkerSettings: [
        .unsafeFlags(["-L", hostLibraries, "-Xlinker", "-rpath", "-Xlinker", hostLibraries]),
        .linkedLibrary("SwiftParser"),
        .linkedLibrary("SwiftSyntax"),
      ]
    ),
    // The comparison of the two rewriters and the mutations of valid Swift that the differential
    // test and the fuzzing harness share.
    .target(
      name: "InlineDifferential",
      dependencies: [
        "InlineSnapshotOracle",
        .product(name: "InlineSnapshotTesting", package: "swift-snapshot-testing"),
      ],
      swiftSettings: syntaxSearch
    ),
    // Rewriting a 5,000-line file with 200 inline snapshots with both rewriters
    // (Benchmarks/rewrite-time.sh).
    .executableTarget(
      name: "RewriteBenchmark",
      dependencies: [
        "InlineSnapshotOracle",
        .product(name: "InlineSnapshotTesting", package: "swift-snapshot-testing"),
      ],
      swiftSettings: syntaxSearch
    ),
    .testTarget(
      name: "DifferentialTests",
      dependencies: ["InlineDifferential"],
      swiftSettings: syntaxSearch
    ),
  ]
)

// The libFuzzer harness that feeds both rewriters mutated valid Swift: a target only when
// SNAPSHOT_TESTING_FUZZ is set (it links libFuzzer's driver), built and run by
// `scripts/fuzz-differential.sh`.
if ProcessInfo.processInfo.environment["SNAPSHOT_TESTING_FUZZ"] != nil {
  package.targets += [
    .target(name: "DifferentialFuzzingDriver", path: "Fuzz/DifferentialFuzzingDriver"),
    .executableTarget(
      name: "FuzzInlineDifferential",
      dependencies: ["InlineDifferential", "InlineSnapshotOracle", "DifferentialFuzzingDriver"],
      path: "Fuzz/FuzzInlineDifferential",
      swiftSettings: syntaxSearch
    ),
  ]
}
