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
    .library(name: "ImageSnapshotTesting", targets: ["ImageSnapshotTesting"]),
  ],
  targets: [
    .target(name: "SnapshotTesting"),
    .testTarget(
      name: "SnapshotTestingTests",
      dependencies: ["SnapshotTesting"],
      exclude: [
        "__Fixtures__", "__Snapshots__", "Compatibility/__Snapshots__",
        "SwiftTesting/__Snapshots__", "XCTest/__Snapshots__",
      ]
    ),
    // Images: kept out of the core so that text-only users never need libpng installed.
    .target(
      name: "CLibPNG",
      linkerSettings: [.linkedLibrary("png"), .linkedLibrary("z")]
    ),
    .target(name: "ImageSnapshotTesting", dependencies: ["SnapshotTesting", "CLibPNG"]),
    .testTarget(
      name: "ImageSnapshotTestingTests",
      dependencies: ["ImageSnapshotTesting"],
      exclude: ["__Fixtures__"]
    ),
  ]
)
