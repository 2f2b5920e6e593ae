// swift-tools-version:6.0

// The test oracle of the inline-snapshot rewriter: the swift-syntax rewriter the package used
// before its own scanner, and the differential test that compares the two on a corpus of real
// Swift. Kept out of the main package so that no user resolves or builds swift-syntax. Run
// `scripts/differential-inline.sh` from the root.

import Foundation
import PackageDescription

let package = Package(
  name: "swift-snapshot-testing-oracle",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "swift-snapshot-testing", path: ".."),
    .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"605.0.0"),
  ],
  targets: [
    // The swift-syntax rewriter, as it was (Rewriter/), behind a small public surface.
    .target(
      name: "InlineSnapshotOracle",
      dependencies: [
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
      ]
    ),
    // The comparison of the two rewriters and the mutations of valid Swift that the differential
    // test and the fuzzing harness share.
    .target(
      name: "InlineDifferential",
      dependencies: [
        "InlineSnapshotOracle",
        .product(name: "InlineSnapshotTesting", package: "swift-snapshot-testing"),
      ]
    ),
    // Rewriting a 5,000-line file with 200 inline snapshots with both rewriters
    // (Benchmarks/rewrite-time.sh).
    .executableTarget(
      name: "RewriteBenchmark",
      dependencies: [
        "InlineSnapshotOracle",
        .product(name: "InlineSnapshotTesting", package: "swift-snapshot-testing"),
      ]
    ),
    .testTarget(
      name: "DifferentialTests",
      dependencies: ["InlineDifferential"]
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
      path: "Fuzz/FuzzInlineDifferential"
    ),
  ]
}
