// swift-tools-version:6.0

// The upstream twin of ../Package.swift: the same benchmark source (a symbolic link) built
// against pointfreeco/swift-snapshot-testing 1.19.7. It is a separate package because both
// libraries are called SnapshotTesting and cannot share a package graph.

import PackageDescription

let package = Package(
  name: "upstream-benchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", exact: "1.19.7")
  ],
  targets: [
    .executableTarget(
      name: "UpstreamLineDiffBenchmark",
      dependencies: [.product(name: "SnapshotTesting", package: "swift-snapshot-testing")]
    )
  ]
)
