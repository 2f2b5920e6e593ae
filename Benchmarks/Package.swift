// swift-tools-version:6.0

// Benchmarks for SnapshotTesting, kept out of the main package so that users never build them.
// Run `./run.sh` from this folder; it also builds the upstream twin in `Upstream/`.

import PackageDescription

let package = Package(
  name: "swift-snapshot-testing-benchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "swift-snapshot-testing", path: ".."),
    // The transcript benchmark sets swift-log's and swift-distributed-tracing's own in-memory
    // capture beside the transcript's (the versions the package itself resolves).
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
  ],
  targets: [
    .executableTarget(
      name: "LineDiffBenchmark",
      dependencies: [.product(name: "SnapshotTesting", package: "swift-snapshot-testing")]
    ),
    .executableTarget(
      name: "ScrubbingBenchmark",
      dependencies: [.product(name: "SnapshotTesting", package: "swift-snapshot-testing")]
    ),
    // `.http`, `.output` and `.terminal` against what they stand in for.
    .executableTarget(
      name: "ServerOutputBenchmark",
      dependencies: [
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
        .product(name: "HTTPSnapshotTesting", package: "swift-snapshot-testing"),
        .product(name: "CommandSnapshotTesting", package: "swift-snapshot-testing"),
      ]
    ),
    // `.html` of a 1 MB one-line page against `.lines` on its canonical text.
    .executableTarget(
      name: "MarkupBenchmark",
      dependencies: [.product(name: "MarkupSnapshotTesting", package: "swift-snapshot-testing")]
    ),
    // `.directory` of a 2,000-file, 50 MB folder against `diff -r` on the same folders.
    .executableTarget(
      name: "DirectoryBenchmark",
      dependencies: [.product(name: "SnapshotTesting", package: "swift-snapshot-testing")]
    ),
    // `.transcript` of a request with 1,000 log entries and 200 spans against `.lines` on its
    // text, and what capturing them adds to the handler against a no-op logger and tracer.
    .executableTarget(
      name: "TranscriptBenchmark",
      dependencies: [
        .product(name: "TranscriptSnapshotTesting", package: "swift-snapshot-testing"),
        .product(name: "InMemoryLogging", package: "swift-log"),
        .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
      ]
    ),
    // `.rows` of 10,000 rows against the driver's own time to fetch them, and `.schema` of a
    // 50-table database, on SQLite and PostgreSQL. The "drivers" are the system's C client
    // libraries (database drivers are dependencies of `Examples/` only): fetching the rows into
    // an `SQLResult` is the driver's time, the table on top is the strategy's.
    .systemLibrary(
      name: "CSQLite3", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]
    ),
    .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
    .executableTarget(
      name: "DatabaseBenchmark",
      dependencies: [
        .product(name: "DatabaseSnapshotTesting", package: "swift-snapshot-testing"),
        "CSQLite3",
        "CLibPQ",
      ]
    ),
  ]
)
