// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "App",
  dependencies: [.package(path: "../Core")],
  targets: [
    .testTarget(
      name: "AppTests",
      dependencies: [.product(name: "SnapshotTesting", package: "Core")],
      exclude: ["__Snapshots__"]
    )
  ]
)
