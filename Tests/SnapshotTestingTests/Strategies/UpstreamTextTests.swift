import Foundation
import Testing

@testable import SnapshotTesting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Renders the shared corpus with this package's text strategies and compares each result, byte
/// for byte, with what upstream 1.19.7 wrote for the same value (`__Fixtures__/UpstreamText`).
@Suite struct UpstreamTextTests {
  static let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("__Fixtures__/UpstreamText")

  @Test(arguments: UpstreamTextCorpus.cases.map(\.name))
  func rendersLikeUpstream(_ name: String) throws {
    let textCase = try #require(UpstreamTextCorpus.cases.first { $0.name == name })
    let fixture = Self.fixtures.appendingPathComponent(textCase.fileName)
    // A missing file also means the path extension differs from upstream's.
    let expected = try Data(contentsOf: fixture)
    let actual = textCase.render()
    #expect(
      String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
      "\(textCase.fileName)"
    )
    #expect(actual == expected, "\(textCase.fileName) bytes")
  }

  @Test func everyFixtureHasACase() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path)
      .filter { $0 != "generator" }
    #expect(Set(files) == Set(UpstreamTextCorpus.cases.map(\.fileName)))
    #expect(files.count > 150)
  }

  /// The one deliberate difference in text: upstream 1.19.7 writes a body that is not UTF-8 as
  /// text with replacement characters (`.raw`) or leaves it out (`.curl`), so two different
  /// bodies can share a reference. Here the assertion fails and records nothing.
  @Test(arguments: ["raw", "raw-pretty", "curl"])
  func binaryBodiesFailWhereUpstreamWroteText(_ strategyName: String) {
    var request = URLRequest(url: URL(string: "https://api.test/upload")!)
    request.httpMethod = "POST"
    request.httpBody = Data([0xFF, 0xFE, 0x00, 0x41])
    let strategy: Snapshotting<URLRequest, String> =
      switch strategyName {
      case "raw": .raw
      case "raw-pretty": .raw(pretty: true)
      default: .curl
      }
    let (_, reason) = UnavailableSnapshot.collecting {
      strategy.snapshot(request).run { _ in }
    }
    #expect(
      reason?.hasPrefix(
        "The body of the request POST https://api.test/upload is not UTF-8 text (4 bytes)"
      ) == true
    )
  }
}
