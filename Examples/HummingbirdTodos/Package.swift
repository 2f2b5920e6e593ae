// swift-tools-version:6.0

import PackageDescription

// A Hummingbird 2 application tested with `.http` and `.transcript`, through Hummingbird's own
// test client (in process) and over loopback (a real server on 127.0.0.1). Hummingbird is a
// dependency of this example only, never of the package's products. `swift test` here must pass
// against the committed references; `.ci/run` runs it.
let package = Package(
  name: "HummingbirdTodos",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "swift-snapshot-testing", path: "../.."),
    .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
  ],
  targets: [
    .target(
      name: "Todos",
      dependencies: [.product(name: "Hummingbird", package: "hummingbird")]
    ),
    .testTarget(
      name: "TodosTests",
      dependencies: [
        "Todos",
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "TranscriptSnapshotTesting", package: "swift-snapshot-testing"),
      ],
      exclude: ["__Snapshots__"]
    ),
  ]
)
