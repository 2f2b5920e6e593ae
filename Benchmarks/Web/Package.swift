// swift-tools-version:6.0

// Web snapshot benchmarks against Playwright, a package of their own so users never build them.
// Run `./run.sh` from this folder (it needs Chromium and `pip install playwright`).

import PackageDescription

let package = Package(
  name: "web-benchmarks",
  dependencies: [
    .package(name: "swift-snapshot-testing", path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "WebBenchmark",
      dependencies: [
        .product(name: "WebSnapshotTesting", package: "swift-snapshot-testing"),
        .product(name: "ImageSnapshotTesting", package: "swift-snapshot-testing"),
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ]
    )
  ]
)
