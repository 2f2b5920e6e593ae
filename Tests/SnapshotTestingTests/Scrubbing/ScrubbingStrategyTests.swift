import Foundation
#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
import Testing

@testable import SnapshotTesting

struct ScrubbedUser: Encodable {
  var id: UUID
  var friend: UUID
  var created: String
  var bestFriend: UUID
}

let scrubbedUser = ScrubbedUser(
  id: UUID(uuidString: "8F3C2A1E-4B5D-4E6F-8A9B-0C1D2E3F4A5B")!,
  friend: UUID(uuidString: "0A1B2C3D-0000-4000-8000-00000000ABCD")!,
  created: "2024-03-01T09:30:00Z",
  bestFriend: UUID(uuidString: "8F3C2A1E-4B5D-4E6F-8A9B-0C1D2E3F4A5B")!
)

/// Records `value` into a fresh sandbox and returns the reference's text, or the failure message
/// when the assertion wrote nothing.
func recordedText<Value>(
  of value: Value,
  as strategy: Snapshotting<Value, String>,
  extension pathExtension: String = "txt"
) -> (text: String?, message: String?) {
  withTemporaryDirectory { root in
    let sandbox = SnapshotSandbox(root: root)
    let message = sandbox.verify(value, as: strategy, named: "x")
    let text = try? String(
      contentsOf: sandbox.reference("sandbox.x.\(pathExtension)"),
      encoding: .utf8
    )
    return (text, message)
  }
}

/// `.scrubbing(...)` on the text strategies, through the assertion engine.
@Suite struct ScrubbingStrategyTests {
  @Test func dumpIsScrubbedBeforeItIsRecorded() {
    let (text, _) = recordedText(of: scrubbedUser, as: .dump.scrubbing(.uuids, .iso8601Dates))
    #expect(
      text == """
        ▿ ScrubbedUser
          - bestFriend: UUID_1
          - created: "DATE_1"
          - friend: UUID_2
          - id: UUID_1

        """
    )
  }

  @Test func jsonIsScrubbedAndStaysJSON() {
    let (text, _) = recordedText(
      of: scrubbedUser,
      as: .json.scrubbing(.uuids),
      extension: "json"
    )
    #expect(text?.contains(#""id" : "UUID_1""#) == true)
    #expect(text?.contains(#""bestFriend" : "UUID_1""#) == true)
    #expect(text?.contains(#""friend" : "UUID_2""#) == true)
  }

  @Test func linesWithARegexAndALiteral() {
    let temporary = NSTemporaryDirectory()
    let log = "fetch took 132 ms\nwrote \(temporary)report.txt\n"
    let (text, _) = recordedText(
      of: log,
      as: .lines.scrubbing(
        .replacing(#/took \d+ ms/#, with: "took <duration>"),
        .replacing(temporary, with: "$TMP/")
      )
    )
    #expect(text == "fetch took <duration>\nwrote $TMP/report.txt\n")
  }

  @Test func composesWithPullbackAndOtherStrategies() {
    struct Order { var id: UUID }
    let strategy = Snapshotting<String, String>.lines.scrubbing(.uuids)
      .pullback { (order: Order) in "order \(order.id)" }
    let (text, _) = recordedText(of: Order(id: scrubbedUser.id), as: strategy)
    #expect(text == "order UUID_1")

    var request = URLRequest(url: URL(string: "https://example.com/users/\(scrubbedUser.id)")!)
    request.httpMethod = "GET"
    let (raw, _) = recordedText(of: request, as: .raw.scrubbing(.uuids))
    #expect(raw == "GET https://example.com/users/UUID_1")
    let (description, _) = recordedText(of: scrubbedUser.id, as: .description.scrubbing(.uuids))
    #expect(description == "UUID_1")
  }

  @Test func scrubbersRunInTheOrderGiven() {
    let (uuidsFirst, _) = recordedText(
      of: scrubbedUser.id.uuidString,
      as: .lines.scrubbing(.uuids, .replacing("UUID_1", with: "the user"))
    )
    let (literalFirst, _) = recordedText(
      of: scrubbedUser.id.uuidString,
      as: .lines.scrubbing(.replacing("8F3C", with: "x"), .uuids)
    )
    #expect(uuidsFirst == "the user")
    #expect(literalFirst == "x2A1E-4B5D-4E6F-8A9B-0C1D2E3F4A5B")
  }

  @Test func aThrowingScrubberFailsByNameAndWritesNothing() {
    struct Refusal: Error, CustomStringConvertible { var description: String { "no" } }
    let refusing = Scrubber("refusing") { _ in throw Refusal() }
    let (text, message) = recordedText(of: "hello", as: .lines.scrubbing(.uuids, refusing))
    #expect(text == nil)
    #expect(message?.hasPrefix(#"The scrubber "refusing" threw: no"#) == true)
  }

  @Test func aScrubberThatBreaksJSONFailsByName() {
    let (text, message) = recordedText(
      of: scrubbedUser,
      as: .json.scrubbing(.uuids, .replacing(#/"UUID_\d"/#, with: "<id>")),
      extension: "json"
    )
    #expect(text == nil)
    #expect(
      message?.hasPrefix(#"The scrubber "replacing(regex)" made the snapshot invalid JSON"#)
        == true
    )
  }

  @Test func aScrubberThatBreaksAPropertyListFailsByName() {
    let (text, message) = recordedText(
      of: ["key": "value"],
      as: .plist.scrubbing(.replacing("</dict>", with: "")),
      extension: "plist"
    )
    #expect(text == nil)
    #expect(message?.contains("made the snapshot invalid property list") == true)
  }

  @Test func aMatchingScrubbedSnapshotPasses() {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let strategy = Snapshotting<ScrubbedUser, String>.dump.scrubbing(.uuids)
      _ = sandbox.verify(scrubbedUser, as: strategy, named: "x")
      var other = scrubbedUser
      other.id = UUID()
      other.bestFriend = other.id
      #expect(sandbox.verify(other, as: strategy, named: "x") == nil)
    }
  }
}
