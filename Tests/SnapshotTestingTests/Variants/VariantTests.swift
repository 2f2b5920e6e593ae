import Foundation
import RunRecord
import Testing

@_spi(Internals) @testable import SnapshotTesting

#if arch(x86_64)
  private let architecture = "x86_64"
#elseif arch(arm64)
  private let architecture = "arm64"
#endif

/// Reference variants: the names, the file names each kind gives, nesting and precedence, and
/// names that cannot be part of a file name.
@Suite struct VariantTests {
  #if os(Linux)
    @Test func builtInVariantsNameThisPlatform() {
      #expect(SnapshotTestingConfiguration.Variant.operatingSystem.name == "linux")
      #expect(
        SnapshotTestingConfiguration.Variant.operatingSystemAndArchitecture.name
          == "linux-\(architecture)"
      )
      #expect(SnapshotTestingConfiguration.Variant.custom("fr_FR").name == "fr_FR")
    }
  #endif

  /// Prune recognises a built-in variant in a file name by the names `RunRecord` lists: they
  /// must include every name this platform gives.
  @Test func theToolsKnowThisPlatformsNames() {
    #expect(
      ReferenceName.operatingSystems.contains(
        SnapshotTestingConfiguration.Variant.operatingSystem.name
      )
    )
    #expect(
      ReferenceName.builtInVariants.contains(
        SnapshotTestingConfiguration.Variant.operatingSystemAndArchitecture.name
      )
    )
  }

  @Test func noVariantKeepsTheLayout() {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      _ = sandbox.verify("a", as: .lines, testName: "testBars()")
      _ = sandbox.verify("b", as: .lines, named: "x", testName: "testBars()")
      #expect(fileNames(in: sandbox.snapshots) == ["testBars.1.txt", "testBars.x.txt"])
    }
  }

  @Test func eachKindGoesBeforeTheExtension() {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      withSnapshotTesting(variant: .operatingSystem) {
        _ = sandbox.verify("a", as: .lines, testName: "testBars()")
      }
      withSnapshotTesting(variant: .operatingSystemAndArchitecture) {
        _ = sandbox.verify("a", as: .lines, named: "wide", testName: "testBars()")
      }
      withSnapshotTesting(variant: .custom("fr_FR")) {
        _ = sandbox.verify("a", as: .lines, testName: "testBars()")
        _ = sandbox.verify(Data("b".utf8), as: .data, named: "raw", testName: "testBars()")
      }
      let os = SnapshotTestingConfiguration.Variant.operatingSystem.name
      let osAndArchitecture = SnapshotTestingConfiguration.Variant
        .operatingSystemAndArchitecture.name
      #expect(
        fileNames(in: sandbox.snapshots)
          == [
            "testBars.1.\(os).txt",
            "testBars.2.fr_FR.txt",
            "testBars.raw.fr_FR",
            "testBars.wide.\(osAndArchitecture).txt",
          ].sorted()
      )
    }
  }

  @Test func aVariantReferenceIsComparedAndItsFailureNamedAfterIt() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try sandbox.write("plain", to: "sandbox.x.txt")
      try sandbox.write("french", to: "sandbox.x.fr_FR.txt")
      let matched = withSnapshotTesting(variant: .custom("fr_FR")) {
        sandbox.verify("french", as: .lines, named: "x")
      }
      #expect(matched == nil)
      let failed = withSnapshotTesting(variant: .custom("fr_FR")) {
        sandbox.verify("plain", as: .lines, named: "x")
      }
      #expect(failed?.contains("sandbox.x.fr_FR.txt") == true, "\(failed ?? "passed")")
      #expect(contents(of: sandbox.artifact("sandbox.x.fr_FR.txt")) == "plain")
      #expect(contents(of: sandbox.reference("sandbox.x.txt")) == "plain")
      #expect(contents(of: sandbox.reference("sandbox.x.fr_FR.txt")) == "french")
    }
  }

  @Test func anInnerScopeReplacesTheOuterOne() {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      withSnapshotTesting(variant: .custom("outer")) {
        withSnapshotTesting(record: .missing, variant: .custom("inner")) {
          _ = sandbox.verify("a", as: .lines, named: "x")
        }
        _ = sandbox.verify("a", as: .lines, named: "y")
      }
      _ = sandbox.verify("a", as: .lines, named: "z")
      #expect(
        fileNames(in: sandbox.snapshots)
          == ["sandbox.x.inner.txt", "sandbox.y.outer.txt", "sandbox.z.txt"]
      )
    }
  }

  @Test func theEnvironmentVariableAppliesWhenNoScopeSetsOne() {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root, environment: [.variant: "ci"])
      _ = sandbox.verify("a", as: .lines, named: "x")
      withSnapshotTesting(variant: .custom("scoped")) {
        _ = sandbox.verify("a", as: .lines, named: "y")
      }
      #expect(fileNames(in: sandbox.snapshots) == ["sandbox.x.ci.txt", "sandbox.y.scoped.txt"])
    }
  }

  @Test func anAsyncScopeSetsTheVariant() async {
    await withTemporaryDirectoryAsync { root in
      let sandbox = SnapshotSandbox(root: root)
      await withSnapshotTesting(variant: .custom("async")) {
        await Task.yield()
        _ = sandbox.verify("a", as: .lines, named: "x")
      }
      #expect(fileNames(in: sandbox.snapshots) == ["sandbox.x.async.txt"])
    }
  }

  @Test(arguments: [
    ("", "is empty"),
    ("a/b", "contains a path separator"),
    (#"a\b"#, "contains a path separator"),
    ("..", #"contains "..""#),
    ("a..b", #"contains "..""#),
    ("fr FR", "contains whitespace"),
    ("fr\tFR", "contains whitespace"),
    ("fr\nFR", "contains whitespace"),
    ("fr\u{0}FR", "contains a control character"),
    (".hidden", #"begins or ends with ".""#),
  ])
  func aBadVariantFailsByNameAndWritesNothing(_ name: String, _ problem: String) {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let message = withSnapshotTesting(record: .all, variant: .custom(name)) {
        sandbox.verify("a", as: .lines)
      }
      #expect(
        message?.hasPrefix(
          "The reference variant \"\(name)\" cannot name a reference file: it "
            + problem
        ) == true,
        "\(message ?? "passed")"
      )
      #expect(message?.contains("Nothing was written.") == true)
      #expect(!FileManager.default.fileExists(atPath: sandbox.snapshots.path))
      #expect(!FileManager.default.fileExists(atPath: sandbox.artifacts.path))
      // The counter did not advance: the next unnamed snapshot is still number 1.
      _ = sandbox.verify("a", as: .lines)
      #expect(fileNames(in: sandbox.snapshots) == ["sandbox.1.txt"])
    }
  }

  @Test func aBadEnvironmentVariantNamesTheVariable() {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root, environment: [.variant: "mac os"])
      let message = sandbox.verify("a", as: .lines, named: "x")
      #expect(
        message?.hasPrefix(
          #"SNAPSHOT_TESTING_VARIANT is set to "mac os", which cannot name a reference file: it contains whitespace."#
        ) == true,
        "\(message ?? "passed")"
      )
      #expect(!FileManager.default.fileExists(atPath: sandbox.snapshots.path))
    }
  }

  @Test func resolutionPrefersTheScopeToTheEnvironment() throws {
    let environment: RunEnvironment = [.variant: "env"]
    #expect(try resolveVariant(scoped: nil, environment: [:]) == nil)
    #expect(
      try resolveVariant(scoped: nil, environment: environment)
        == ResolvedVariant(name: "env", source: .environment)
    )
    #expect(
      try resolveVariant(scoped: .custom("scope"), environment: environment)
        == ResolvedVariant(name: "scope", source: .scope)
    )
    // An empty variable counts as unset, like every other.
    #expect(try resolveVariant(scoped: nil, environment: [.variant: ""]) == nil)
  }

  @Test func theUsageLogListsTheVariantsUsed() throws {
    try withTemporaryDirectory { root in
      let usage = root.appendingPathComponent("usage", isDirectory: true)
      let sandbox = SnapshotSandbox(root: root, environment: [.usedReferences: usage.path])
      _ = sandbox.verify("a", as: .lines, named: "plain")
      withSnapshotTesting(variant: .custom("fr_FR")) {
        _ = sandbox.verify("a", as: .lines, named: "x")
        _ = sandbox.verify("a", as: .lines, named: "y")
      }
      withSnapshotTesting(variant: .custom("de_DE")) {
        _ = sandbox.verify("a", as: .lines, named: "x")
      }
      #expect(try ReferenceUsageLog.loadVariants(folder: usage) == ["fr_FR", "de_DE"])
      let paths = try ReferenceUsageLog.load(folder: usage).paths
      #expect(paths.contains(sandbox.reference("sandbox.x.fr_FR.txt").path))
    }
  }
}

/// The `.snapshots(variant:)` trait: a suite's variant applies to its tests, a test's replaces it.
@Suite(.snapshots(variant: .custom("suite")))
struct VariantTraitTests {
  @Test func theSuitesVariantApplies() {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      _ = sandbox.verify("a", as: .lines, named: "x")
      #expect(fileNames(in: sandbox.snapshots) == ["sandbox.x.suite.txt"])
    }
  }

  @Test(.snapshots(variant: .operatingSystem))
  func aTestsVariantReplacesTheSuites() {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      _ = sandbox.verify("a", as: .lines, named: "x")
      let os = SnapshotTestingConfiguration.Variant.operatingSystem.name
      #expect(fileNames(in: sandbox.snapshots) == ["sandbox.x.\(os).txt"])
    }
  }

  @Test(.snapshots(record: .failed))
  func aTraitWithoutAVariantKeepsTheSuites() {
    #expect(SnapshotScope.current.variant == .custom("suite"))
    #expect(SnapshotTestingConfiguration.current?.record == .failed)
  }
}
