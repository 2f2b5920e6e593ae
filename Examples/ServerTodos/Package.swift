// swift-tools-version:6.0

import PackageDescription

// Two server applications tested with `.http` (and the Hummingbird one with `.transcript`): a
// Hummingbird 2 application through its own test client (in process) and over loopback, and a
// Vapor 4 application through VaporTesting, whose responses reach `.http` through the pullback the
// HTTP article shows. Hummingbird and Vapor are dependencies of this example only, never of the
// package's products; one package, so that the SwiftNIO they share is built once. `swift test`
// here must pass against the committed references; `.ci/run` runs it. The database examples show
// the few lines that turn PostgresNIO, SQLiteNIO and Fluent into DatabaseSnapshotTesting's
// `SQLConnection`, against a real PostgreSQL and real SQLite files.
let package = Package(
  name: "ServerTodos",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "swift-snapshot-testing", path: "../.."),
    .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    .package(url: "https://github.com/vapor/vapor", exact: "4.122.3"),
    // The database examples: the few lines that make each driver an `SQLConnection`.
    .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
    .package(url: "https://github.com/vapor/sqlite-nio", exact: "1.13.2"),
    .package(url: "https://github.com/vapor/fluent", exact: "4.13.0"),
    .package(url: "https://github.com/vapor/fluent-postgres-driver", exact: "2.14.0"),
    .package(url: "https://github.com/vapor/fluent-sqlite-driver", exact: "4.9.0"),
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
    // `.rows`, `.schema` and `.queryPlan` through PostgresNIO, SQLiteNIO and Fluent (on both),
    // and the SQL each ran in a `.transcript`, against a real PostgreSQL that `.ci/run` starts
    // (`scripts/postgres-cluster.sh`, its address in SERVER_TODOS_POSTGRES) and SQLite files.
    .testTarget(
      name: "TodoDatabaseTests",
      dependencies: [
        .product(name: "DatabaseSnapshotTesting", package: "swift-snapshot-testing"),
        .product(name: "TranscriptSnapshotTesting", package: "swift-snapshot-testing"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "SQLiteNIO", package: "sqlite-nio"),
        .product(name: "Fluent", package: "fluent"),
        .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
        .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
      ],
      exclude: ["__Snapshots__"]
    ),
  ]
)
