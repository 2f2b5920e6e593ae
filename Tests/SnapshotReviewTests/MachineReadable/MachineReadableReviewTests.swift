import Foundation
import RunRecord
import Testing

@testable import SnapshotReview

/// `review --json` and `review --format github`.
@Suite struct MachineReadableReviewTests {
  @Test func theJSONDocumentFollowsTheSchema() throws {
    try ReviewFixture.with { fixture in
      let (session, console) = fixture.session()
      #expect(session.review(filters: [], format: .json) == .pending)
      #expect(console.errors.isEmpty)
      let document = try JSONValue.parse(console.output)
      let schema = try reviewSchema()
      let violations = schemaViolations(of: document, against: schema)
      #expect(violations.isEmpty, "\(violations)")

      #expect(document["version"] == .integer(1))
      #expect(
        document["artifacts"] == .array([.string(fixture.artifacts.standardizedFileURL.path)])
      )
      let failures = try #require(document["failures"]?.array)
      #expect(failures.count == 4)
      let greeting = try #require(failures.first { $0["test"] == .string("testGreeting()") })
      #expect(greeting["reason"] == .string("mismatch"))
      #expect(greeting["kind"] == .string("text"))
      #expect(greeting["inline"] == .null, "present, null, for a file snapshot")
      #expect(greeting["snapshotName"] == .null)
      #expect(greeting["reference"]?.string == fixture.reference(ReviewFixture.greeting).path)
      #expect(greeting["referenceLocated"] == .bool(true))
      #expect(greeting["file"]?.string?.hasSuffix("ReviewFixture.swift") == true)
      #expect(greeting["headline"] == .string("Snapshot does not match reference."))
      #expect(greeting["difference"]?.string?.contains("+there") == true)
      let roles = greeting["attachments"]?.array?.compactMap { $0["role"]?.string }
      #expect(roles == ["patch"])
      #expect(
        greeting["acceptCommand"]
          == .string(
            "swift run snapshot-testing accept \(fixture.relative(ReviewFixture.greeting))"
          )
      )
      let newSnapshot = try #require(greeting["newSnapshot"]?.string)
      #expect(contents(of: URL(fileURLWithPath: newSnapshot)) == Data("Hello\nthere\n".utf8))

      let fresh = try #require(failures.first { $0["test"] == .string("testFresh()") })
      #expect(fresh["reason"] == .string("missing"))
      #expect(fresh["difference"] == .null)
      let badge = try #require(failures.first { $0["test"] == .string("testBadge()") })
      #expect(badge["kind"] == .string("image"))
      let badgeRoles = Set(badge["attachments"]?.array?.compactMap { $0["role"]?.string } ?? [])
      #expect(badgeRoles.isSuperset(of: ["reference", "differenceImage"]))
    }
  }

  /// The schema names this project, not upstream's repository: its `$id` is the URN that
  /// Reviewing documents, a name validators match and never fetch.
  @Test func theSchemaIsIdentifiedByThisProjectsURN() throws {
    let schema = try reviewSchema()
    #expect(schema["$id"] == .string("urn:snapshot-testing-linux:review:1"))
    let article = try String(
      contentsOf: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Sources/SnapshotTesting/Documentation.docc/Reviewing.md"),
      encoding: .utf8)
    #expect(article.contains("`urn:snapshot-testing-linux:review:1`"))
  }

  /// The check above can fail: a document with a field missing or of the wrong type breaks it.
  @Test func theSchemaCheckCatchesMissingAndMistypedFields() throws {
    let schema = try reviewSchema()
    let good = try JSONValue.parse(
      """
      {"version": 1, "artifacts": ["/a"], "packageRoot": "/p", "problems": [], "failures": [
        {"test": "t()", "snapshotName": null, "file": "/f", "line": 3, "reason": "missing",
         "kind": "text", "reference": "/r", "referenceLocated": false, "newSnapshot": "/n",
         "attachments": [{"role": "patch", "path": "/d"}], "headline": "h", "difference": null,
         "message": "m", "acceptCommand": "c", "recordedAt": 1.5}
      ]}
      """
    )
    #expect(schemaViolations(of: good, against: schema).isEmpty)
    let bad = try JSONValue.parse(
      """
      {"version": 2, "artifacts": ["/a"], "packageRoot": "/p", "failures": [
        {"test": "t()", "snapshotName": null, "file": "/f", "line": "3", "reason": "odd",
         "kind": "text", "reference": "/r", "referenceLocated": false, "newSnapshot": "/n",
         "attachments": [{"role": "patch"}], "headline": "h", "difference": null,
         "message": "m", "acceptCommand": "c", "recordedAt": 1.5, "extra": true}
      ]}
      """
    )
    #expect(
      schemaViolations(of: bad, against: schema).sorted()
        == [
          "$.failures[0].attachments[0]: missing required \"path\"",
          "$.failures[0].line: expected [\"integer\"], found [\"string\"]",
          "$.failures[0].reason: \"odd\" is not one of [\"mismatch\", \"missing\"]",
          "$.failures[0]: unexpected \"extra\"",
          "$.version: expected 1",
          "$: missing required \"problems\"",
        ].sorted()
    )
  }

  @Test func nothingPendingIsAnEmptyDocumentAndExitsZero() throws {
    try ReviewFixture.with { fixture in
      let (cleaner, _) = fixture.session()
      #expect(cleaner.resolve(.reject, filters: []) == .success)
      let (session, console) = fixture.session()
      #expect(session.review(filters: [], format: .json) == .success)
      let document = try JSONValue.parse(console.output)
      let schema = try reviewSchema()
      #expect(document["failures"] == .array([]))
      #expect(schemaViolations(of: document, against: schema).isEmpty)
      #expect(console.errors == "No pending snapshot failures in \(fixture.artifacts.path).\n")

      let (github, githubConsole) = fixture.session()
      #expect(github.review(filters: [], format: .github) == .success)
      #expect(githubConsole.output.isEmpty)
    }
  }

  @Test func aFilterThatMatchesNothingExitsFourWithAnEmptyDocument() throws {
    try ReviewFixture.with { fixture in
      let (session, console) = fixture.session()
      #expect(session.review(filters: ["testTypo"], format: .json) == .noMatch)
      let document = try JSONValue.parse(console.output)
      #expect(document["failures"] == .array([]))
      #expect(console.errors.hasPrefix(#"No pending failure matches "testTypo"."#))
    }
  }

  @Test func githubFormatPrintsOneErrorCommandPerFailure() throws {
    try ReviewFixture.with { fixture in
      let (session, console) = fixture.session()
      #expect(session.review(filters: [], format: .github) == .pending)
      let lines = console.output.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.count == 5, "four commands and the final newline")
      #expect(lines.last == "")
      for line in lines.dropLast() {
        #expect(line.hasPrefix("::error file="), "\(line)")
        #expect(line.contains(",line="))
        #expect(!line.contains("\r"))
      }
      let greeting = try #require(lines.first { $0.contains("title=testGreeting()%3A ") })
      #expect(
        greeting.contains(
          "::Snapshot does not match reference.%0Areference: \(fixture.relative(ReviewFixture.greeting))%0A"
        ),
        "\(greeting)"
      )
    }
  }

  @Test func githubCommandsEscapeMessagesAndProperties() throws {
    try ReviewFixture.with { fixture in
      let record = FailureRecord(
        reason: .mismatch,
        kind: .text,
        pathExtension: "txt",
        testName: "test(a:b:)",
        testFilePath: fixture.root.appendingPathComponent("Tests/AppTests/My, Tests.swift").path,
        line: 42,
        snapshotName: nil,
        referencePath: fixture.reference("test-a-b.1.txt").path,
        headline: "Snapshot does not match reference.",
        difference: "100% off\r\n-old\n+new",
        diffToolCommand: nil,
        files: [FailureRecord.File(role: .newSnapshot, path: "/artifacts/x/test-a-b.1.txt")],
        message: "unused",
        recordedAt: 0
      )
      let failure = PendingFailure(
        record: record,
        recordURL: URL(fileURLWithPath: "/artifacts/.snapshot-testing/failures/0.json"),
        referenceURL: fixture.reference("test-a-b.1.txt"),
        files: [
          PendingFailure.File(
            role: .newSnapshot,
            url: URL(fileURLWithPath: "/artifacts/x/test-a-b.1.txt")
          )
        ]
      )
      let command = GitHubAnnotations.command(
        for: failure,
        hints: CommandHints(packageRoot: fixture.root)
      )
      let reference = fixture.relative("test-a-b.1.txt")
      #expect(
        command
          == "::error file=Tests/AppTests/My%2C Tests.swift,line=42,"
          + "title=test(a%3Ab%3A)%3A Snapshot does not match reference."
          + "::Snapshot does not match reference.%0Areference: \(reference)"
          + "%0Anew snapshot: /artifacts/x/test-a-b.1.txt%0A%0A100%25 off%0D%0A-old%0A+new"
          + "%0A%0Aaccept: swift run snapshot-testing accept \(reference)"
      )
    }
  }

  @Test(arguments: [
    ("plain", "plain", "plain"),
    ("50%", "50%25", "50%25"),
    ("a\r\nb", "a%0D%0Ab", "a%0D%0Ab"),
    ("key: value, more", "key: value, more", "key%3A value%2C more"),
    ("%3A", "%253A", "%253A"),
  ])
  func escaping(_ text: String, _ data: String, _ property: String) {
    #expect(GitHubAnnotations.escapeData(text) == data)
    #expect(GitHubAnnotations.escapeProperty(text) == property)
  }
}

/// The machine-readable formats through the built executable: standard output holds only the
/// document, and the exit codes are `review`'s.
@Suite struct MachineReadableExecutableTests {
  @Test func jsonExitsOneWithOnlyTheDocumentOnStandardOutput() throws {
    try ReviewFixture.with { fixture in
      let result = try ExecutableTests().run(
        ["review", "--json", "--artifacts", fixture.artifacts.path],
        in: fixture.root
      )
      #expect(result.status == ToolExitCode.pending.rawValue)
      let document = try JSONValue.parse(result.output)
      let schema = try reviewSchema()
      #expect(schemaViolations(of: document, against: schema).isEmpty)
      #expect(document["failures"]?.array?.count == 4)
      #expect(result.errors.isEmpty)

      let same = try ExecutableTests().run(
        ["review", "--format", "json", "--artifacts", fixture.artifacts.path],
        in: fixture.root
      )
      #expect(same.status == ToolExitCode.pending.rawValue)
      #expect(try JSONValue.parse(same.output)["failures"]?.array?.count == 4)
    }
  }

  @Test func githubFormatExitsOne() throws {
    try ReviewFixture.with { fixture in
      let result = try ExecutableTests().run(
        ["review", "--format", "github", "--artifacts", fixture.artifacts.path],
        in: fixture.root
      )
      #expect(result.status == ToolExitCode.pending.rawValue)
      #expect(result.output.split(separator: "\n").allSatisfy { $0.hasPrefix("::error file=") })
      #expect(result.output.split(separator: "\n").count == 4)
    }
  }

  @Test func conflictingFormatsAreAUsageError() throws {
    try ReviewFixture.with { fixture in
      let result = try ExecutableTests().run(
        ["review", "--json", "--format", "github", "--artifacts", fixture.artifacts.path],
        in: fixture.root
      )
      #expect(result.status == ToolExitCode.usage.rawValue)
      #expect(result.errors.contains("Pass either --json or --format github, not both."))
      #expect(result.output.isEmpty)

      let unknown = try ExecutableTests().run(["review", "--format", "xml"], in: fixture.root)
      #expect(unknown.status == ToolExitCode.usage.rawValue)
    }
  }
}
