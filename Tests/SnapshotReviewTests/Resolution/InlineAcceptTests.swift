import Foundation
import InlineSnapshotRewriter
import RunRecord
import SnapshotReview
import Testing

@_spi(Internals) @testable import SnapshotTesting
@testable import InlineSnapshotTesting

/// Inline snapshot failures from CI: a real `assertInlineSnapshot` fails in one copy of a
/// package under `CI=true`, its artifacts move to a second copy (another machine), and `accept`
/// there rewrites the test file exactly as a local recording would.
@Suite struct InlineAcceptTests {
  static let testFile = "Tests/AppTests/GreetingTests.swift"

  /// Two inline assertions: one with an outdated snapshot, one with none.
  static let source = """
    import InlineSnapshotTesting
    import Testing

    @Test func greeting() {
      assertInlineSnapshot(of: greeting, as: .lines) {
        \"\"\"
        Hello, Blobby!
        \"\"\"
      }
      assertInlineSnapshot(of: answer, as: .description)
    }

    """

  static let greetingCall = (line: UInt(5), column: UInt(23))
  static let answerCall = (line: UInt(10), column: UInt(23))

  /// A copy of the package: `Package.swift` and the test file.
  struct PackageCopy {
    let root: URL
    var testFile: URL { root.appendingPathComponent(InlineAcceptTests.testFile) }

    init(in base: URL, named name: String, source: String = InlineAcceptTests.source) throws {
      root = base.appendingPathComponent(name, isDirectory: true)
      try FileManager.default.createDirectory(
        at: testFile.deletingLastPathComponent(),
        withIntermediateDirectories: true
      )
      try Data("// swift-tools-version:6.0\n".utf8)
        .write(to: root.appendingPathComponent("Package.swift"))
      try Data(source.utf8).write(to: testFile)
    }

    func text() throws -> String { try String(contentsOf: testFile, encoding: .utf8) }

    /// Runs the fixture's two assertions against this copy, as its test would, in `environment`.
    /// Returns the issues' messages and the store, whose `writePending()` ends the "process".
    @discardableResult
    func runTest(
      greeting: String = "Hello, Blob!",
      greetingExpected: String? = "Hello, Blobby!",
      answer: Int = 42,
      answerExpected: String? = nil,
      environment: RunEnvironment
    ) -> (messages: [String], store: InlineSnapshotStore) {
      let store = InlineSnapshotStore(redirectingPaths: ["Fixture.swift": testFile.path])
      let messages = MessageLog()
      RunEnvironment.withOverride(environment) {
        TestHooks.with(InlineSnapshotStore.Private.self, store) {
          GlobalConfiguration.withPrivateInstance {
            withKnownIssue(isIntermittent: true) {
              assertInlineSnapshot(
                of: greeting,
                as: .lines,
                matches: greetingExpected.map { text in { text } },
                file: "Fixture.swift",
                function: "greeting()",
                line: InlineAcceptTests.greetingCall.line,
                column: InlineAcceptTests.greetingCall.column
              )
              assertInlineSnapshot(
                of: answer,
                as: .description,
                matches: answerExpected.map { text in { text } },
                file: "Fixture.swift",
                function: "greeting()",
                line: InlineAcceptTests.answerCall.line,
                column: InlineAcceptTests.answerCall.column
              )
            } matching: { issue in
              messages.append(issue.comments.map(\.rawValue).joined(separator: "\n"))
              return true
            }
          }
        }
      }
      return (messages.all, store)
    }
  }

  final class MessageLog: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    func append(_ message: String) { lock.withLock { messages.append(message) } }
    var all: [String] { lock.withLock { messages } }
  }

  static func withFolder<R>(_ body: (URL) throws -> R) throws -> R {
    let base = FileManager.default.temporaryDirectory
      .appendingPathComponent("InlineAcceptTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: base) }
    return try body(base)
  }

  /// Fails both assertions on "CI" in `ci`, then moves its artifacts to `<base>/downloaded`.
  static func failOnCI(_ ci: PackageCopy, base: URL) throws -> URL {
    let artifacts = base.appendingPathComponent("ci-artifacts")
    let run = ci.runTest(environment: [.continuousIntegration: "true", .artifacts: artifacts.path])
    #expect(run.messages.count == 2)
    #expect(run.store.writePending().isEmpty)
    #expect(try ci.text() == source, "CI writes nothing into the source.")
    // The CI machine's checkout is not on this one: its paths name nothing here.
    try FileManager.default.removeItem(at: ci.root)
    let downloaded = base.appendingPathComponent("downloaded")
    try FileManager.default.moveItem(at: artifacts, to: downloaded)
    return downloaded
  }

  static func session(_ artifacts: [URL], root: URL, console: ScriptedConsole) -> ReviewSession {
    ReviewSession(
      artifactsRoots: artifacts,
      hints: CommandHints(packageRoot: root),
      console: console
    )
  }

  @Test func acceptingCIsInlineFailuresElsewhereWritesWhatALocalRecordingWrites() throws {
    try Self.withFolder { base in
      let downloaded = try Self.failOnCI(PackageCopy(in: base, named: "ci"), base: base)

      // The developer's copy: `review` lists both, `accept --all` rewrites the file once.
      let mine = try PackageCopy(in: base, named: "mine")
      let console = ScriptedConsole()
      let session = Self.session([downloaded], root: mine.root, console: console)
      #expect(session.review(filters: [], interactive: false) == .pending)
      #expect(console.output.contains("greeting() — Inline snapshot does not match."))
      #expect(console.output.contains("+Hello, Blob!"))
      #expect(console.output.contains("accept \(Self.testFile):5"))
      #expect(console.output.contains("greeting() — No inline snapshot to compare with."))
      #expect(session.resolve(.accept, filters: []) == .success)
      #expect(console.errors == "")

      // A local recording of the same failures, in a third copy.
      let local = try PackageCopy(in: base, named: "local")
      let recorded = local.runTest(environment: [.record: "all"])
      #expect(recorded.store.writePending().isEmpty)
      let localText = try local.text()
      #expect(localText != Self.source)
      #expect(try mine.text() == localText, "byte for byte what a local recording writes")

      // The developer's test now passes, and nothing is pending.
      let rerun = mine.runTest(
        greetingExpected: "Hello, Blob!",
        answerExpected: "42",
        environment: [.artifacts: downloaded.path, .record: "never"]
      )
      #expect(rerun.messages.isEmpty)
      let check = InlineSnapshotChange(
        line: 5,
        column: 23,
        trailingClosureLabel: "matches",
        deprecatedTrailingClosureLabels: [],
        trailingClosureOffset: 0,
        expected: "Hello, Blob!",
        actual: "x"
      )
      #expect(refusal(of: check, in: try mine.text()) == nil, "the closure returns the new text")
      #expect(FailureRecordStore.load(from: ArtifactsFolder(root: downloaded)).records.isEmpty)
    }
  }

  /// A large inline mismatch keeps its record small (the difference bounded as a file
  /// snapshot's is), and `accept` still writes the whole new text.
  @Test func aLargeInlineMismatchKeepsItsRecordSmallAndAcceptsWhole() throws {
    try Self.withFolder { base in
      let long = (1...3_000).map { "line \($0)" }.joined(separator: "\n")
      let artifacts = base.appendingPathComponent("artifacts")
      let copy = try PackageCopy(in: base, named: "copy")
      copy.runTest(
        greeting: long, environment: [.continuousIntegration: "true", .artifacts: artifacts.path])
      let records = FailureRecordStore.load(from: ArtifactsFolder(root: artifacts)).records
      let greeting = try #require(records.first { $0.line == 5 })
      let shown = greeting.difference?.split(separator: "\n", omittingEmptySubsequences: false)
      #expect((shown?.count ?? 0) <= DifferenceExcerpt.maximumLines + 1)
      #expect(greeting.difference?.hasSuffix("left out]") == true)
      #expect(greeting.inline?.actual == long + "\n" || greeting.inline?.actual == long)

      let console = ScriptedConsole()
      let session = Self.session([artifacts], root: copy.root, console: console)
      #expect(session.resolve(.accept, filters: []) == .success, "\(console.errors)")
      let written = try copy.text()
      #expect(written.contains("line 2999") && written.contains("line 3000"), "\(written.suffix(300))")
    }
  }

  /// A test file that starts with a byte-order mark keeps it: every byte outside the rewritten
  /// closures stays as it was, as when the test run records the snapshots itself.
  @Test func acceptingKeepsTheTestFilesByteOrderMark() throws {
    try Self.withFolder { base in
      let downloaded = try Self.failOnCI(PackageCopy(in: base, named: "ci"), base: base)
      let mine = try PackageCopy(in: base, named: "mine")
      let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
      try Data(mark + Array(Self.source.utf8)).write(to: mine.testFile)

      let console = ScriptedConsole()
      let session = Self.session([downloaded], root: mine.root, console: console)
      #expect(session.resolve(.accept, filters: []) == .success, "\(console.errors)")

      let written = try Data(contentsOf: mine.testFile)
      #expect(Array(written.prefix(3)) == mark)
      #expect(!written.dropFirst(3).starts(with: mark))
      let text = String(decoding: written.dropFirst(3), as: UTF8.self)
      #expect(text.contains("Hello, Blob!"))
      #expect(text.contains("as: .description) {"))
    }
  }

  @Test func aTestFileChangedSinceTheRunIsRefusedAndTheOthersStillWritten() throws {
    try Self.withFolder { base in
      let downloaded = try Self.failOnCI(PackageCopy(in: base, named: "ci"), base: base)
      let edited = Self.source.replacingOccurrences(of: "Hello, Blobby!", with: "Hi, Blobby!")
      let mine = try PackageCopy(in: base, named: "mine", source: edited)
      let console = ScriptedConsole()
      let session = Self.session([downloaded], root: mine.root, console: console)
      #expect(session.resolve(.accept, filters: []) == .failure)
      #expect(console.errors.contains(#"Refusing to accept "greeting()" at "#))
      #expect(console.errors.contains("GreetingTests.swift:5"))
      #expect(console.errors.contains("no longer returns the text the running test was compiled"))
      let text = try mine.text()
      #expect(text.contains("Hi, Blobby!"), "the changed closure is untouched")
      #expect(text.contains("as: .description) {"), "the other snapshot is written")
      let left = FailureRecordStore.load(from: ArtifactsFolder(root: downloaded)).records
      #expect(left.map(\.line) == [5], "the refused failure stays pending")
    }
  }

  /// Locally, a new test above `greeting()` has an assertion with the same expected text at the
  /// line and column CI recorded: accepting writes into `greeting()`, where its assertion moved.
  @Test func anotherTestsAssertionAtTheRecordedPlaceIsNotWritten() throws {
    let inserted = """
      import InlineSnapshotTesting
      import Testing

      @Test func other() {
        assertInlineSnapshot(of: greeting, as: .lines) {
          \"\"\"
          Hello, Blobby!
          \"\"\"
        }
      }

      """
    let moved = Self.source.replacingOccurrences(
      of: "import InlineSnapshotTesting\nimport Testing\n\n",
      with: inserted
    )
    try Self.withFolder { base in
      let downloaded = try Self.failOnCI(PackageCopy(in: base, named: "ci"), base: base)
      let mine = try PackageCopy(in: base, named: "mine", source: moved)
      let console = ScriptedConsole()
      let session = Self.session([downloaded], root: mine.root, console: console)
      _ = session.resolve(.accept, filters: [])
      let text = try mine.text()
      let otherTest = try #require(text.components(separatedBy: "@Test func greeting").first)
      #expect(otherTest.contains("Hello, Blobby!"), "other() is untouched")
      #expect(!otherTest.contains("Hello, Blob!\n"))
      #expect(text.contains("Hello, Blob!\n"), "greeting() gets CI's text")
      #expect(text.components(separatedBy: "Hello, Blobby!").count == 2)
    }
  }

  /// The same, but `greeting()`'s assertion is gone: refused, naming both tests.
  @Test func anotherTestsAssertionAtTheRecordedPlaceIsRefusedNamingBoth() throws {
    let replaced = Self.source.replacingOccurrences(of: "func greeting()", with: "func other()")
      + "@Test func greeting() {}\n"
    try Self.withFolder { base in
      let downloaded = try Self.failOnCI(PackageCopy(in: base, named: "ci"), base: base)
      let mine = try PackageCopy(in: base, named: "mine", source: replaced)
      let console = ScriptedConsole()
      let session = Self.session([downloaded], root: mine.root, console: console)
      #expect(session.resolve(.accept, filters: []) == .failure)
      #expect(
        console.errors.contains(
          #"the assertion at line 5, column 23 is in "other()", not in "greeting()", and "greeting()" has no assertion with the snapshot the run saw"#
        )
      )
      #expect(try mine.text() == replaced, "nothing is written")
    }
  }

  @Test func aMovedTestFileIsRefusedAndNamed() throws {
    try Self.withFolder { base in
      let downloaded = try Self.failOnCI(PackageCopy(in: base, named: "ci"), base: base)
      let mine = try PackageCopy(in: base, named: "mine")
      try FileManager.default.removeItem(at: mine.testFile)
      // Nothing of it is found in this package: left out, as another package's would be.
      let unseen = ScriptedConsole()
      #expect(
        Self.session([downloaded], root: mine.root, console: unseen)
          .resolve(.accept, filters: ["greeting"]) == .success)
      #expect(unseen.errors.contains("left out 2 pending failures"), "\(unseen.errors)")
      #expect(unseen.errors.contains("moved since the run"), "\(unseen.errors)")
      // Asked for, it is refused, naming why.
      let console = ScriptedConsole()
      var session = Self.session([downloaded], root: mine.root, console: console)
      session.includesOtherPackages = true
      #expect(session.resolve(.accept, filters: ["greeting"]) == .failure)
      #expect(console.errors.contains(#"Refusing to accept "greeting()": its test file "#))
      #expect(console.errors.contains("GreetingTests.swift\" is not in the package"))
      #expect(console.errors.contains("moved or renamed since the run"))
      #expect(FailureRecordStore.load(from: ArtifactsFolder(root: downloaded)).records.count == 2)
    }
  }

  @Test func twoRecordsOfOneInlineSnapshotKeepTheNewerAndSaySo() throws {
    try Self.withFolder { base in
      let ci = try PackageCopy(in: base, named: "ci")
      let first = base.appendingPathComponent("shard-1")
      let second = base.appendingPathComponent("shard-2")
      ci.runTest(
        greeting: "Hello, Old!",
        environment: [.continuousIntegration: "1", .artifacts: first.path]
      )
      Thread.sleep(forTimeInterval: 0.01)
      ci.runTest(environment: [.continuousIntegration: "1", .artifacts: second.path])
      try FileManager.default.removeItem(at: ci.root)  // CI's checkout is not on this machine
      let mine = try PackageCopy(in: base, named: "mine")
      let console = ScriptedConsole()
      let session = Self.session([second, first], root: mine.root, console: console)
      #expect(session.resolve(.accept, filters: ["\(Self.testFile):5"]) == .success)
      #expect(console.errors.contains("note: Two failure records are for the inline snapshot at"))
      #expect(console.errors.contains("using the newer one, \"\(second.path)"))
      #expect(try mine.text().contains("Hello, Blob!\n"))
      #expect(!(try mine.text().contains("Hello, Old!")))
      let left = FailureRecordStore.load(from: ArtifactsFolder(root: first)).records
      #expect(left.map(\.line) == [10], "the older record of the accepted snapshot went too")
    }
  }

  @Test func aCraftedInlineRecordNeverRewritesAFileOutsideThePackageOrNotSwift() throws {
    try Self.withFolder { base in
      let mine = try PackageCopy(in: base, named: "mine")
      let artifacts = ArtifactsFolder(root: base.appendingPathComponent("artifacts"))
      let outside = base.appendingPathComponent("Outside.swift")
      try Data(Self.source.utf8).write(to: outside)
      let notSwift = mine.root.appendingPathComponent("README.md")
      try Data(Self.source.utf8).write(to: notSwift)
      for (path, line) in [(outside.path, 5), (notSwift.path, 5)] {
        let record = FailureRecord(
          reason: .mismatch,
          kind: .inline,
          pathExtension: "swift",
          testName: "greeting()",
          testFilePath: path,
          line: line,
          snapshotName: nil,
          referencePath: path,
          headline: "Inline snapshot does not match.",
          difference: nil,
          diffToolCommand: nil,
          files: [],
          message: "",
          recordedAt: 1,
          inline: .init(
            column: 23,
            trailingClosureLabel: "matches",
            trailingClosureOffset: 0,
            expected: "Hello, Blobby!",
            actual: "pwned"
          )
        )
        try FailureRecordStore.save(record, in: artifacts)
      }
      let console = ScriptedConsole()
      var session = Self.session([artifacts.root], root: mine.root, console: console)
      session.includesOtherPackages = true
      #expect(session.resolve(.accept, filters: []) == .failure)
      #expect(console.errors.contains("Outside.swift\" is not in the package"))
      #expect(console.errors.contains("is not a Swift source file"))
      #expect(try String(contentsOf: outside, encoding: .utf8) == Self.source)
      #expect(try String(contentsOf: notSwift, encoding: .utf8) == Self.source)
    }
  }

  @Test func inlineFailuresShowInTheJSONDocumentTheAnnotationsAndTheReport() throws {
    try Self.withFolder { base in
      let downloaded = try Self.failOnCI(PackageCopy(in: base, named: "ci"), base: base)
      let mine = try PackageCopy(in: base, named: "mine")
      let console = ScriptedConsole()
      let session = Self.session([downloaded], root: mine.root, console: console)
      #expect(session.review(filters: [], format: .json) == .pending)
      let document = try JSONValue.parse(console.output)
      let violations = schemaViolations(of: document, against: try reviewSchema())
      #expect(violations.isEmpty, "\(violations)")
      let failures = try #require(document["failures"]?.array)
      #expect(failures.map { $0["kind"] } == [.string("inline"), .string("inline")])
      let greeting = try #require(failures.first { $0["line"] == .integer(5) })
      #expect(greeting["reference"]?.string == mine.testFile.path)
      #expect(greeting["inline"]?["actual"] == .string("Hello, Blob!"))
      #expect(greeting["inline"]?["expected"] == .string("Hello, Blobby!"))
      #expect(greeting["acceptCommand"]?.string?.hasSuffix("accept \(Self.testFile):5") == true)

      let annotations = ScriptedConsole()
      let annotating = Self.session([downloaded], root: mine.root, console: annotations)
      #expect(annotating.review(filters: [], format: .github) == .pending)
      #expect(annotations.output.contains("::error file="))
      #expect(annotations.output.contains("GreetingTests.swift,line=5,"))

      let pending = PendingFailures.load(artifactsRoots: [downloaded], packageRoot: mine.root)
      let html = HTMLReport(
        failures: pending.failures,
        hints: CommandHints(packageRoot: mine.root),
        artifactsRoot: downloaded
      ).render()
      #expect(html.contains("data-format=\"inline\""))
      #expect(html.contains("<span class=\"removed\">\u{2212}Hello, <del>Blobby</del>!</span>"))
      #expect(html.contains("<span class=\"added\">+42</span>"))
      #expect(try mine.text() == Self.source, "listing changes nothing")
    }
  }

  @Test func theServedReportAcceptsInlineSnapshotsWithTheSameCode() throws {
    try Self.withFolder { base in
      let downloaded = try Self.failOnCI(PackageCopy(in: base, named: "ci"), base: base)
      let mine = try PackageCopy(in: base, named: "mine")
      let session = Self.session([downloaded], root: mine.root, console: ScriptedConsole())
      let report = ServedReport(session: session, filters: [], token: "t")
      report.listeningPort = 9
      let ids = PendingFailures.load(artifactsRoots: [downloaded], packageRoot: mine.root)
        .failures.map { DevToolsBrowser.quoted($0.recordURL.path) }
      let response = report.respond(
        to: ServedRequest(
          method: "POST",
          path: "/api/resolve",
          headers: ["Host": "127.0.0.1:9", "X-Snapshot-Testing-Token": "t"],
          body: Data(#"{"decision": "accept", "ids": [\#(ids.joined(separator: ","))]}"#.utf8)
        )
      )
      #expect(response.status == 200)
      #expect(String(decoding: response.body, as: UTF8.self).contains(#""pending":0"#))

      let local = try PackageCopy(in: base, named: "local")
      #expect(local.runTest(environment: [.record: "all"]).store.writePending().isEmpty)
      #expect(try mine.text() == local.text())
    }
  }
}
