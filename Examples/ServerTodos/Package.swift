// swift-tools-version:6.0

import PackageDescription

// Two server applications tested with `.http` (and the Hummingbird one with `.transcript`): a
// Hummingbird 2 application through its own test client (in process) and over loopback, and a
// Vapor 4 application through VaporTesting, whose responses reach `.http` through the pullback the
// HTTP article shows. Hummingbird and Vapor are dependencies of this example only, never of the
// package's products; one package, so that the SwiftNIO they share is built once. `swift test`
// here must pass against the committed references; `.ci/run` runs it.
let package = Package(
  name: "ServerTodos",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "swift-snapshot-testing", path: "../.."),
    .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    .package(url: "https://github.com/vapor/vapor", exact: "4.122.3"),
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
    .target(
      name: "VaporTodos",
      dependencies: [.product(name: "Vapor", package: "vapor")]
    ),
    .testTarget(
      name: "VaporTodosTests",
      dependencies: [
        "VaporTodos",
        .product(name: "VaporTesting", package: "vapor"),
        .product(name: "HTTPSnapshotTesting", package: "swift-snapshot-testing"),
      ],
      exclude: ["__Snapshots__"]
    ),
  ]
)
