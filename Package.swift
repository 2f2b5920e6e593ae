// swift-tools-version:6.0

import Foundation
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
    .library(name: "InlineSnapshotTesting", targets: ["InlineSnapshotTesting"]),
    .library(name: "SnapshotTestingCustomDump", targets: ["SnapshotTestingCustomDump"]),
    .library(name: "ImageSnapshotTesting", targets: ["ImageSnapshotTesting"]),
    .library(name: "HTTPSnapshotTesting", targets: ["HTTPSnapshotTesting"]),
    .library(name: "CommandSnapshotTesting", targets: ["CommandSnapshotTesting"]),
    .library(name: "WebSnapshotTesting", targets: ["WebSnapshotTesting"]),
    .executable(name: "snapshot-testing", targets: ["SnapshotTestingCLI"]),
    .library(name: "MarkupSnapshotTesting", targets: ["MarkupSnapshotTesting"]),
    .library(name: "TranscriptSnapshotTesting", targets: ["TranscriptSnapshotTesting"]),
    .library(name: "DatabaseSnapshotTesting", targets: ["DatabaseSnapshotTesting"]),
  ],
  dependencies: [
    // Only the custom-dump module uses this; the core stays toolchain-only. No swift-syntax: the
    // inline module reads sources with a scanner of its own (Oracle/ keeps the swift-syntax
    // rewriter it is checked against).
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.3"),
    // Only the `snapshot-testing` command-line tool uses this (`report --serve` is served by a
    // small HTTP/1.1 server of its own; see the README).
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    // Only the HTTP module uses this: the request and response types servers already speak.
    .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
    // Only the transcript module uses these: the logging and tracing APIs servers log and trace
    // through, and their in-memory capture types (first shipped in these versions).
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
  ],
  targets: [
    // What a run reads and leaves on disk: atomic writes, the artifacts folder, failure records,
    // the usage log, the environment. No test framework, so the review tool links none.
    .target(name: "RunRecord"),
    .testTarget(name: "RunRecordTests", dependencies: ["RunRecord"]),
    // What several test targets share; no product depends on it, so users never build it.
    .target(name: "TestSupport", dependencies: ["SnapshotTesting"], path: "Tests/TestSupport"),
    // A load-time hook that describes each test process in the usage log (for `prune`).
    .target(name: "CProcessStart"),
    .target(name: "SnapshotTesting", dependencies: ["RunRecord", "CProcessStart"]),
    // The child process `KilledRecordingTests` kills while it records: a program of its own, so
    // that no test of the bundle exists only to be run as a child (and shows up as skipped).
    .executableTarget(
      name: "RecordingChild",
      dependencies: ["SnapshotTesting", "RunRecord"],
      path: "Tests/RecordingChild"
    ),
    // The child process of `ParameterizedReferenceTests`: parameterized tests that it runs with
    // Swift Testing's own entry point, as a user's test bundle would.
    .executableTarget(
      name: "ParameterizedChild",
      dependencies: ["SnapshotTesting"],
      path: "Tests/ParameterizedChild"
    ),
    .testTarget(
      name: "SnapshotTestingTests",
      // RecordingChild, so that `swift test` builds it beside the test bundle. Not
      // ParameterizedChild: a test target links the executables it depends on, and that one's
      // tests would join the bundle's (`swift test` builds every executable anyway).
      dependencies: ["SnapshotTesting", "RunRecord", "TestSupport", "RecordingChild"],
      exclude: [
        "__Fixtures__", "__Snapshots__", "Compatibility/__Snapshots__",
        "SwiftTesting/__Snapshots__", "XCTest/__Snapshots__",
        "Strategies/JSONRedaction/__Snapshots__",
      ]
    ),
    // Images: kept out of the core so that text-only users never need libpng installed.
    // libdeflate compresses the smallest encoding's pixel data (Sources/CLibPNG/SmallestPNG.c).
    .target(
      name: "CLibPNG",
      linkerSettings: [.linkedLibrary("png"), .linkedLibrary("z"), .linkedLibrary("deflate")]
    ),
    // PNG decoding, the smallest encoding and file optimisation on RGBA buffers. No test
    // framework, so that the `snapshot-testing` tool can optimise references.
    .target(name: "PNGCodec", dependencies: ["CLibPNG"]),
    // The processor's prefetch hint, which the anti-aliasing test uses for the rows below.
    .target(name: "CPrefetch"),
    .target(
      name: "ImageSnapshotTesting",
      dependencies: ["SnapshotTesting", "RunRecord", "PNGCodec", "CPrefetch"]
    ),
    .testTarget(
      name: "ImageSnapshotTestingTests",
      // CLibPNG for its allocation-failure seam (`clibpng_test_fail_allocation_after`).
      dependencies: ["ImageSnapshotTesting", "PNGCodec", "CLibPNG", "RunRecord", "TestSupport"],
      exclude: ["__Fixtures__"]
    ),
    // Web pages and SVG, rendered by a headless Chromium driven over the DevTools protocol on a
    // pipe (no WebSocket library, no new dependency); images go through the image module.
    .target(
      name: "WebSnapshotTesting",
      dependencies: ["SnapshotTesting", "ImageSnapshotTesting", "RunRecord", "ChildProcesses"]
    ),
    // The child process the browser kill tests kill: a program of its own, so that no test of
    // the bundle exists only to be run as a child (and shows up as skipped).
    .executableTarget(
      name: "BrowserHoldingChild",
      dependencies: ["WebSnapshotTesting", "ImageSnapshotTesting"],
      path: "Tests/BrowserHoldingChild"
    ),
    .testTarget(
      name: "WebSnapshotTestingTests",
      dependencies: [
        "WebSnapshotTesting", "ImageSnapshotTesting", "SnapshotTesting", "RunRecord", "TestSupport",
        // Inline web snapshots that time out must give their page back too.
        "InlineSnapshotTesting",
        // Built beside the test bundle, for the kill tests.
        "BrowserHoldingChild",
      ],
      exclude: ["Page/__Snapshots__", "Accessibility/__Snapshots__"]
    ),
    .target(
      name: "InlineSnapshotTesting",
      dependencies: [
        "SnapshotTesting",
        "RunRecord",
        // As upstream: users of the inline product can reach `.customDump` without another product.
        "SnapshotTestingCustomDump",
      ]
    ),
    // Built with warnings as errors: the spellings upstream accepts without a warning off Apple
    // platforms (`record: true`, `.dump`) must build silently here too.
    .testTarget(
      name: "SilentSpellingsTests",
      dependencies: ["SnapshotTesting", "InlineSnapshotTesting"],
      swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]
    ),
    .testTarget(
      name: "InlineSnapshotTestingTests",
      dependencies: ["InlineSnapshotTesting", "SnapshotTestingCustomDump", "RunRecord", "TestSupport"],
      exclude: ["__Fixtures__"]
    ),
    .target(
      name: "SnapshotTestingCustomDump",
      dependencies: [
        "SnapshotTesting",
        .product(name: "CustomDump", package: "swift-custom-dump"),
      ]
    ),
    .testTarget(
      name: "SnapshotTestingCustomDumpTests",
      // TestSupport for the article's text, which a test compares with a run.
      dependencies: ["SnapshotTestingCustomDump", "TestSupport"]
    ),
    // Reviewing, accepting, pruning and optimising snapshots. It reads what a run left on disk
    // and nothing else, so the tool links no test framework. It links libpng through PNGCodec
    // (for `optimize`), so building the tool needs libpng-dev, zlib1g-dev and libdeflate-dev, as
    // the image module does.
    // `accept` of an inline snapshot reuses InlineSnapshotRewriter: the rewriter's own files
    // (symbolic links into InlineSnapshotTesting/Rewriting) compiled without a test framework.
    .target(
      name: "SnapshotReview",
      dependencies: [
        "RunRecord", "PNGCodec", "InlineSnapshotRewriter", "ChildProcesses",
      ]
    ),
    .target(
      name: "InlineSnapshotRewriter",
      dependencies: ["RunRecord"]
    ),
    .executableTarget(
      name: "SnapshotTestingCLI",
      dependencies: [
        "SnapshotReview",
        "RunRecord",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // HTTP requests and responses as text: swift-http-types values, bodies by content type.
    // zlib's inflate behind a small C interface, for bodies sent compressed.
    .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
    .target(
      name: "HTTPSnapshotTesting",
      dependencies: [
        "SnapshotTesting", "RunRecord", "CZlib",
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ]
    ),
    .testTarget(
      name: "HTTPSnapshotTestingTests",
      dependencies: [
        "HTTPSnapshotTesting", "TestSupport", "RunRecord",
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      exclude: ["__Snapshots__"]
    ),
    // What server work did, as one text: its HTTP exchange, log entries and spans. A module of
    // its own, so that HTTP-only users build neither swift-log nor swift-distributed-tracing.
    .target(
      name: "TranscriptSnapshotTesting",
      dependencies: [
        "SnapshotTesting", "HTTPSnapshotTesting", "RunRecord",
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
      ]
    ),
    .testTarget(
      name: "TranscriptSnapshotTestingTests",
      dependencies: [
        "TranscriptSnapshotTesting",
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "InMemoryLogging", package: "swift-log"),
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        // Spans of swift-distributed-tracing's own in-memory tracer, linked and propagated.
        .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
        // The articles' transcript outputs are compared with runs through its `codeBlock`.
        "TestSupport",
      ],
      exclude: ["__Snapshots__"]
    ),
    // What a command prints: `Command`, `.output` and `.terminal` (an SVG). Only the toolchain.
    // Shell quoting of the command line is RunRecord's `shellQuoted`, the package's only one.
    .target(
      name: "CommandSnapshotTesting",
      dependencies: ["SnapshotTesting", "RunRecord", "ChildProcesses"]
    ),
    // Every process the package starts (commands, the browser, the review tool's
    // `swift test list`) is spawned, watched and ended here. Only the toolchain.
    .target(name: "ChildProcesses", dependencies: ["CCommandSpawn"]),
    // fork and exec with the kernel's kill-at-parent-death, pipe2, pidfd_open: C-only APIs.
    .target(name: "CCommandSpawn"),
    // A small program the command tests run: it prints, colours, reads input, sleeps, spawns.
    // The test target depends on it so that `swift test` builds it beside the test bundle.
    .executableTarget(name: "CommandFixture", path: "Tests/CommandFixture"),
    // A swift-argument-parser tool, as a user's would be: its help and errors are snapshotted.
    .executableTarget(
      name: "mytool",
      dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")],
      path: "Tests/MyToolFixture"
    ),
    .testTarget(
      name: "CommandSnapshotTestingTests",
      dependencies: [
        "CommandSnapshotTesting", "ChildProcesses", "RunRecord", "CommandFixture", "mytool",
        "TestSupport",
      ],
      exclude: ["__Snapshots__"]
    ),
    .testTarget(
      name: "SnapshotReviewTests",
      // Images come from real image assertions.
      dependencies: [
        "SnapshotReview", "RunRecord", "PNGCodec", "SnapshotTesting", "ImageSnapshotTesting",
        "TestSupport",
        // Inline failures are recorded by real inline assertions, then accepted by the tool.
        "InlineSnapshotTesting", "InlineSnapshotRewriter",
        // The served report is clicked in the web module's browser, over its DevTools client.
        "WebSnapshotTesting",
        // A child started at the moment a connection is accepted must inherit none of it.
        "ChildProcesses",
      ]
    ),
    // The tests that build a package with SwiftPM inside the run (minutes each): a target of their
    // own, so that `swift test --filter` on a unit suite never starts them. `.ci/run` runs them
    // once. ScriptedConsole is a symbolic link to the review tests' own.
    .testTarget(
      name: "PackageBuildTests",
      dependencies: ["SnapshotReview", "RunRecord"]
    ),
    // HTML and XML as canonical text; apart from the core so that its parser does not add to the
    // core's compile time. The tests run Chromium as the oracle for the HTML form.
    .target(name: "MarkupSnapshotTesting", dependencies: ["SnapshotTesting"]),
    .testTarget(
      name: "MarkupSnapshotTestingTests",
      dependencies: ["MarkupSnapshotTesting", "TestSupport"],
      exclude: ["__Fixtures__"]
    ),
    // What a database holds, as text: rows, schema and query plans over a value that runs one SQL
    // statement. No database driver: users pass a few lines over theirs (see Examples/ServerTodos).
    .target(name: "DatabaseSnapshotTesting", dependencies: ["SnapshotTesting", "RunRecord"]),
    // SQLite's C library, for the database tests' own SQLite connection; no product links it.
    .systemLibrary(
      name: "CSQLite", path: "Tests/CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    .testTarget(
      name: "DatabaseSnapshotTestingTests",
      // A real PostgreSQL (started with Debian's server binaries, queried with `psql`, both run
      // through ChildProcesses) and a real SQLite (the system library).
      dependencies: ["DatabaseSnapshotTesting", "ChildProcesses", "CSQLite", "TestSupport"],
      exclude: ["__Snapshots__"]
    ),
  ]
)

// Fuzzing harnesses (libFuzzer, run by `scripts/fuzz.sh`). They reach package and internal APIs,
// so they must be targets of this package; they exist only when SNAPSHOT_TESTING_FUZZ is set,
// so users and the normal build never see them. See Documentation/Reliability.md.
if ProcessInfo.processInfo.environment["SNAPSHOT_TESTING_FUZZ"] != nil {
  let harnesses: [(name: String, dependencies: [Target.Dependency])] = [
    ("FuzzPNGDecoder", ["ImageSnapshotTesting"]),
    ("FuzzAntialiasing", ["ImageSnapshotTesting"]),
    ("FuzzInlineRewriter", ["InlineSnapshotTesting"]),
    ("FuzzFailureRecord", ["RunRecord"]),
    ("FuzzUsageLog", ["RunRecord"]),
    ("FuzzTemporaryFileName", ["RunRecord"]),
    ("FuzzRedactionSelector", ["SnapshotTesting"]),
    // Readers of text from outside: a client, a server's body, a command's output, a log, a folder.
    ("FuzzHTTPRequest", ["SnapshotReview"]),
    ("FuzzJSONBody", ["HTTPSnapshotTesting"]),
    ("FuzzEscapeSequences", ["CommandSnapshotTesting"]),
    ("FuzzTranscriptText", ["TranscriptSnapshotTesting"]),
    ("FuzzDirectoryListing", ["SnapshotTesting", "RunRecord"]),
    // Markup: XML against libexpat, HTML's two paths against each other.
    ("FuzzXML", ["MarkupSnapshotTesting", "SnapshotTesting", "CExpat"]),
    ("FuzzHTML", ["MarkupSnapshotTesting", "SnapshotTesting"]),
  ]
  package.targets.append(.target(name: "FuzzingSupport", path: "Fuzz/FuzzingSupport"))
  // `require`, `fail` and the time bound of each input, in Swift.
  package.targets.append(.target(name: "FuzzingChecks", path: "Fuzz/FuzzingChecks"))
  // libexpat (Debian's libexpat1-dev), the XML reader's reference in FuzzXML.
  package.targets.append(
    .target(name: "CExpat", path: "Fuzz/CExpat", linkerSettings: [.linkedLibrary("expat")])
  )
  package.targets += harnesses.map {
    .executableTarget(
      name: $0.name,
      dependencies: $0.dependencies + ["FuzzingSupport", "FuzzingChecks"],
      path: "Fuzz/\($0.name)"
    )
  }
  package.products += harnesses.map { .executable(name: $0.name, targets: [$0.name]) }
}

// The code examples of README.md and the DocC articles, each a target of its own that
// `scripts/check-doc-examples.sh` writes into .docs-build/examples and builds; they exist only
// when SNAPSHOT_TESTING_DOC_EXAMPLES is set. Each line of targets.txt names a target and the
// products (`package/product`) its article's install section names, which are its only
// dependencies; the script builds with SwiftPM's import check, so an example that imports anything
// else fails. No target supplies values the examples use: a page shows what its examples need.
if ProcessInfo.processInfo.environment["SNAPSHOT_TESTING_DOC_EXAMPLES"] != nil {
  let examples = ".docs-build/examples"
  let list = (try? String(
    contentsOfFile: "\(Context.packageDirectory)/\(examples)/targets.txt", encoding: .utf8)) ?? ""
  let lines = list.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
  func dependency(_ name: String) -> Target.Dependency {
    let parts = name.split(separator: "/").map(String.init)
    guard parts.count == 2 else { return .target(name: name) }
    return parts[0] == "swift-snapshot-testing"
      ? .target(name: parts[1]) : .product(name: parts[1], package: parts[0])
  }
  package.targets += lines.map {
    .target(
      name: $0[0], dependencies: $0.dropFirst().map(dependency), path: "\(examples)/\($0[0])",
      swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")])
  }
  package.targets.append(
    .target(
      name: "DocExamples", dependencies: lines.map { .target(name: $0[0]) },
      path: "\(examples)/DocExamples"))
}
