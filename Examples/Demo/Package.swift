// swift-tools-version:6.0

import PackageDescription

// A small package that uses SnapshotTesting the way an application would; `scripts/demo.sh` runs
// its tests to record, match and then break its snapshots.
let package = Package(
  name: "Demo",
  dependencies: [
    .package(name: "swift-snapshot-testing", path: "../..")
  ],
  targets: [
    .target(name: "Demo"),
    .testTarget(
      name: "DemoTests",
      dependencies: [
        "Demo",
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
        .product(name: "ImageSnapshotTesting", package: "swift-snapshot-testing"),
        .product(name: "WebSnapshotTesting", package: "swift-snapshot-testing"),
      ]
    ),
  ]
)
