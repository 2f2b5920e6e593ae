// swift-tools-version:6.0

import PackageDescription

let package = Package(
  name: "swift-snapshot-testing",
  platforms: [
    .iOS(.v13),
    .macOS(.v10_15),
    .tvOS(.v13),
    .watchOS(.v6),
  ],
  products: [
    .library(name: "SnapshotTesting", targets: ["SnapshotTesting"]),
  ],
  targets: [
    .target(name: "SnapshotTesting"),
    .testTarget(
      name: "SnapshotTestingTests",
      dependencies: ["SnapshotTesting"],
      exclude: ["__Fixtures__", "__Snapshots__"]
    ),
  ]
)
