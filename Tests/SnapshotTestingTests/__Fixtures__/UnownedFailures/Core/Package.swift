// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Core",
  products: [.library(name: "SnapshotTesting", targets: ["SnapshotTesting"])],
  targets: [
    .target(name: "RunRecord"),
    .target(name: "CProcessStart"),
    .target(name: "SnapshotTesting", dependencies: ["RunRecord", "CProcessStart"]),
  ]
)
