import Foundation
#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
import RunRecord
import Testing

@testable import SnapshotTesting

/// A value the strategy cannot snapshot fails the assertion with the reason and writes nothing,
/// in every record mode; its placeholder text is never recorded, so it can never pass later.
@Suite struct UnavailableSnapshotTests {
  struct Unencodable: Encodable {
    struct Refusal: Error, CustomStringConvertible {
      var description: String { "refused to encode" }
    }
    func encode(to encoder: any Encoder) throws { throw Refusal() }
  }

  enum Switch: CaseIterable { case off, on }

  struct Measurement: Encodable {
    var value: Double
  }

  static let binaryRequest: URLRequest = {
    var request = URLRequest(url: URL(string: "https://example.com/upload")!)
    request.httpMethod = "POST"
    request.httpBody = Data([0x89, 0x50, 0x4E, 0x47, 0xFF, 0xFE])
    return request
  }()

  /// Each case: a strategy applied to a value it cannot snapshot, and what the reason starts with.
  static let cases:
    [(
      name: String, reason: String,
      verify: @Sendable (SnapshotSandbox, SnapshotTestingConfiguration.Record) -> String?
    )] = [
      (
        "throwing Encodable", "Could not encode Unencodable as JSON: refused to encode",
        { $0.verify(Unencodable(), as: .json, named: "x", record: $1) }
      ),
      (
        "NaN in JSON", "Could not encode Measurement as JSON:",
        { $0.verify(Measurement(value: .nan), as: .json, named: "x", record: $1) }
      ),
      (
        "plist of a scalar", "Could not encode Int as property list:",
        { $0.verify(42, as: .plist, named: "x", record: $1) }
      ),
      (
        "invalid JSON object", "Not a valid JSON object:",
        { $0.verify(Date() as Any, as: .json, named: "x", record: $1) }
      ),
      (
        "binary body, raw", "The body of the request POST https://example.com/upload is not UTF-8",
        { $0.verify(binaryRequest, as: .raw, named: "x", record: $1) }
      ),
      (
        "binary body, curl", "The body of the request POST https://example.com/upload is not UTF-8",
        { $0.verify(binaryRequest, as: .curl, named: "x", record: $1) }
      ),
      (
        "func into a failing witness", "Could not encode Double as JSON:",
        {
          $0.verify(
            { (position: Switch) in position == .on ? Double.infinity : 0 },
            as: Snapshotting<Switch, String>.func(into: .json),
            named: "x",
            record: $1
          )
        }
      ),
    ]

  @Test(
    arguments: 0..<cases.count,
    [SnapshotTestingConfiguration.Record.all, .failed, .missing, .never]
  )
  func failsWithTheReasonAndWritesNothing(_ index: Int, _ mode: SnapshotTestingConfiguration.Record)
    throws
  {
    let (name, reason, verify) = Self.cases[index]
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let message = try #require(verify(sandbox, mode), "\(name) passed")
      #expect(message.hasPrefix(reason), "\(name)")
      #expect(message.contains("nothing was recorded"), "\(name)")
      #expect(fileNames(in: root) == [], "\(name) wrote \(fileNames(in: root))")
    }
  }

  @Test func aPlaceholderRecordedByAnOlderVersionNeverMatches() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      var placeholder = ""
      Snapshotting<Unencodable, String>.json.snapshot(Unencodable()).run { placeholder = $0 }
      try sandbox.write(placeholder, to: "sandbox.x.json")

      let message = sandbox.verify(Unencodable(), as: .json, named: "x", record: .never)

      #expect(message?.hasPrefix("Could not encode Unencodable as JSON") == true)
      #expect(contents(of: sandbox.reference("sandbox.x.json")) == placeholder)
    }
  }

  @Test func expectSnapshotRecordsTheReasonAsAnIssue() throws {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      var matched = true
      withKnownIssue {
        RunEnvironment.withOverride(sandbox.environment) {
          matched = expectSnapshot(of: Unencodable(), as: .json, named: "x", record: .all)
        }
      } matching: { issue in
        issue.comments.contains { $0.rawValue.hasPrefix("Could not encode Unencodable as JSON") }
      }
      #expect(!matched)
    }
  }

  @Test func reasonsAreCollectedOnlyWhileTheSnapshotIsTaken() {
    let (_, reason) = UnavailableSnapshot.collecting { UnavailableSnapshot.report("inside") }
    #expect(reason == "inside")
    let (_, none) = UnavailableSnapshot.collecting { 1 }
    #expect(none == nil)
    // Outside an assertion, a report only returns the placeholder.
    #expect(UnavailableSnapshot.report("outside") == "outside")
  }

  /// Reasons and warnings travel in one list: a collector that takes one kind hands the other to
  /// the collector around it, so nesting them in either order loses nothing.
  @Test func nestedCollectorsEachTakeTheirKindAndPassTheOtherOn() {
    let ((_, reason), warnings) = SnapshotWarning.collecting {
      UnavailableSnapshot.collecting {
        SnapshotWarning.report("careful")
        UnavailableSnapshot.report("cannot")
      }
    }
    #expect(reason == "cannot")
    #expect(warnings == ["careful"])

    let ((_, innerWarnings), outerReason) = UnavailableSnapshot.collecting {
      SnapshotWarning.collecting {
        UnavailableSnapshot.report("first")
        SnapshotWarning.report("noted")
        UnavailableSnapshot.report("second")
      }
    }
    #expect(innerWarnings == ["noted"])
    #expect(outerReason == "first")
  }

  /// A strategy whose work ends on a thread of its own reports through the scope it took on the
  /// assertion's task; without it, the report is not seen.
  @Test func aReportFromAnotherThreadArrivesOnlyThroughTheScope() {
    let (_, reports) = StrategyReports.collecting {
      let scope = StrategyReportScope.current
      let done = DispatchSemaphore(value: 0)
      Thread {
        UnavailableSnapshot.report("unseen")
        scope.bind {
          UnavailableSnapshot.report("from the runner")
          SnapshotWarning.report("slow")
        }
        done.signal()
      }.start()
      done.wait()
    }
    #expect(reports.unavailable == "from the runner")
    #expect(reports.warnings == ["slow"])
  }
}
