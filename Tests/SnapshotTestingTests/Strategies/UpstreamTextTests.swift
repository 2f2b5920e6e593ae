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

  /// Upstream encodes property lists with an encoder of its own that writes a `Double` with 17
  /// significant digits (`19.989999999999998`); Foundation's encoder, used here, writes the
  /// shortest form (`19.99`).
  static let knownDifferences: Set<String> = ["plist-order"]

  @Test(arguments: UpstreamTextCorpus.cases.map(\.name))
  func rendersLikeUpstream(_ name: String) throws {
    let textCase = try #require(UpstreamTextCorpus.cases.first { $0.name == name })
    let fixture = Self.fixtures.appendingPathComponent(textCase.fileName)
    // A missing file also means the path extension differs from upstream's.
    let expected = try Data(contentsOf: fixture)
    let actual = textCase.render()
    withKnownIssue(isIntermittent: false) {
      #expect(
        String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
        "\(textCase.fileName)")
      #expect(actual == expected, "\(textCase.fileName) bytes")
    } when: {
      Self.knownDifferences.contains(name)
    }
  }

  @Test func everyFixtureHasACase() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path)
      .filter { $0 != "generator" }
    #expect(Set(files) == Set(UpstreamTextCorpus.cases.map(\.fileName)))
    #expect(files.count > 150)
  }

  @Test func generatorCorpusIsTheTestCorpus() throws {
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let testCopy = try Data(contentsOf: here.appendingPathComponent("UpstreamTextCorpus.swift"))
    let generatorCopy = try Data(
      contentsOf: Self.fixtures.appendingPathComponent("generator/Corpus.swift"))
    #expect(testCopy == generatorCopy, "copy the corpus into the generator and regenerate")
  }
}
