import Foundation
import Testing

@testable import SnapshotTesting

/// `.json(redacting:)` through `assertSnapshot` and its failures in Swift Testing: each bad input
/// fails the assertion with a message naming it and records nothing, in every record mode.
@Suite struct JSONRedactionAssertionTests {
  typealias Fixtures = JSONRedactionFixtures

  @Test func theSpellingFromTheIssueRecordsRedactedJSON() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let response = Fixtures.response
      _ = sandbox.verify(
        response,
        as: .json(redacting: ["id", "items[*].createdAt", "meta.requestID"]),
        named: "response",
        record: .all
      )
      let recorded = try #require(contents(of: sandbox.reference("sandbox.response.json")))
      #expect(
        recorded == """
          {
            "id" : "[redacted number]",
            "items" : [
              {
                "createdAt" : "[redacted number]",
                "name" : "Blob"
              },
              {
                "createdAt" : "[redacted number]",
                "name" : "Blob Jr."
              }
            ],
            "meta" : {
              "page" : 1,
              "requestID" : "[redacted string]"
            }
          }
          """
      )
      #expect(
        sandbox.verify(response, as: .json(redacting: Fixtures.spelling), named: "response") == nil
      )
    }
  }

  static let failures:
    [(
      name: String, reason: String,
      verify: @Sendable (SnapshotSandbox, SnapshotTestingConfiguration.Record) -> String?
    )] = [
      (
        "syntax error",
        #"The redaction selector "items[*.id" has an error at character 8: "#
          + #"expected "]", found ".""#,
        {
          $0.verify(
            Fixtures.response,
            as: .json(redacting: ["id", "items[*.id"]),
            named: "x",
            record: $1
          )
        }
      ),
      (
        "matches nothing",
        #"The redaction selector "meta.requestId" matched nothing in the JSON."#,
        {
          $0.verify(
            Fixtures.response,
            as: .json(redacting: ["id", "meta.requestId"]),
            named: "x",
            record: $1
          )
        }
      ),
      (
        "key in a top-level array",
        #"The redaction selector "name" matched nothing in the JSON. "#
          + #"The document is an array: start a selector with "[*]" or "**"."#,
        {
          $0.verify(Fixtures.topLevelArray, as: .json(redacting: ["name"]), named: "x", record: $1)
        }
      ),
      (
        "Any, matches nothing",
        #"The redaction selectors "a", "b" matched nothing in the JSON."#,
        { $0.verify(["c": 1] as Any, as: .json(redacting: ["a", "b"]), named: "x", record: $1) }
      ),
      (
        "Any, syntax error",
        #"The redaction selector "[x]" has an error at character 2"#,
        { $0.verify(["c": 1] as Any, as: .json(redacting: ["[x]"]), named: "x", record: $1) }
      ),
      (
        "unencodable value",
        "Could not encode Double as JSON:",
        { $0.verify(Double.nan, as: .json(redacting: ["a"]), named: "x", record: $1) }
      ),
    ]

  @Test(arguments: 0..<failures.count, [SnapshotTestingConfiguration.Record.all, .missing, .never])
  func aBadInputFailsWithItsNameAndWritesNothing(
    _ index: Int,
    _ mode: SnapshotTestingConfiguration.Record
  ) throws {
    let (name, reason, verify) = Self.failures[index]
    try withTemporaryDirectory { root in
      let message = try #require(verify(SnapshotSandbox(root: root), mode), "\(name) passed")
      #expect(message.hasPrefix(reason), "\(name): \(message)")
      #expect(fileNames(in: root) == [], "\(name) wrote \(fileNames(in: root))")
    }
  }

  @Test func redactsInsideATopLevelArray() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      _ = sandbox.verify(
        Fixtures.topLevelArray,
        as: .json(redacting: ["[*].createdAt"]),
        named: "a",
        record: .all
      )
      let recorded = try #require(contents(of: sandbox.reference("sandbox.a.json")))
      #expect(recorded.contains(#""createdAt" : "[redacted number]","#))
      #expect(recorded.contains(#""name" : "a""#))
    }
  }

  /// A 10 MB document and a 10 MB string are redacted whole. How the time grows from 1 MB to
  /// 10 MB (linearly: 10.3× for 10 times the bytes) is measured by `Benchmarks/`'s
  /// ScrubbingBenchmark, not by a timed test.
  @Test(arguments: ["document", "string"])
  func tenMegabytesAreRedacted(_ shape: String) throws {
    func json(_ megabytes: Int) throws -> String {
      shape == "document"
        ? try Fixtures.compactJSON(Fixtures.largeDocument(megabytes: megabytes))
        : try Fixtures.compactJSON(Fixtures.largeString(megabytes: megabytes))
    }
    let sources = shape == "document" ? ["items[*].createdAt", "**.name"] : ["text"]
    let selectors = try sources.map { try RedactionSelector.parse($0) }
    let large = try json(10)
    #expect(large.utf8.count >= 10_000_000)
    let result = try JSONRedactor.redact(large, selectors: selectors)
    #expect(result.unmatched == [])
    #expect(result.text != large)
    #expect(result.text.contains("[redacted "))
    #expect((try? JSONSerialization.jsonObject(with: Data(result.text.utf8))) != nil)
  }
}
