// swift-tools-version:6.0

// Image benchmarks for ImageSnapshotTesting, a package of their own so users never build them.
// Run `swift run -c release ImageBenchmark` from this folder.

import PackageDescription

let package = Package(
  name: "image-benchmarks",
  dependencies: [
    .package(name: "swift-snapshot-testing", path: "../..")
  ],
  targets: [
    // libpng called directly from C, the baseline for PNG encoding and decoding.
    .target(
      name: "DirectLibPNG",
      linkerSettings: [.linkedLibrary("png"), .linkedLibrary("z")]
    ),
    .executableTarget(
      name: "ImageBenchmark",
      dependencies: [
        "DirectLibPNG",
        .product(name: "ImageSnapshotTesting", package: "swift-snapshot-testing"),
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ]
    ),
  ]
)
