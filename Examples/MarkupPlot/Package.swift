// swift-tools-version:6.0

import PackageDescription

// A Plot page snapshotted with `.html`: Plot is a dependency of this example only, never of the
// package's products. `swift test` here must pass against the committed reference.
let package = Package(
  name: "MarkupPlot",
  dependencies: [
    .package(name: "swift-snapshot-testing", path: "../.."),
    .package(url: "https://github.com/JohnSundell/Plot", exact: "0.14.0"),
  ],
  targets: [
    .testTarget(
      name: "MarkupPlotTests",
      dependencies: [
        .product(name: "MarkupSnapshotTesting", package: "swift-snapshot-testing"),
        .product(name: "Plot", package: "Plot"),
      ],
      exclude: ["__Snapshots__"]
    )
  ]
)
