import Foundation
import Testing

@testable import RunRecord

@Suite struct ReferenceNameTests {
  /// Every name the engine can build parses back to the same parts, over generated names: test
  /// and snapshot names with any characters (sanitized as the engine does), counters, variants
  /// with dots, and extensions with dots or none.
  @Test func everyNameBuiltParsesBackToItsParts() {
    var generator = SystemRandomNumberGenerator()
    let pieces = ["test", "User", "dark mode", "é", "a.b", "x/y", "_", "42", "ñ-ü", "()", "ok"]
    let variants: [String?] = [nil, "linux", "macos-arm64", "fr_FR", "v1.2", "dark"]
    let extensions: [String?] = [nil, "txt", "png", "tar.gz", "json", "yml"]
    var checked = 0
    for _ in 0..<2_000 {
      let rawTest = (0..<Int.random(in: 1...3, using: &generator))
        .map { _ in pieces.randomElement(using: &generator)! }.joined()
      let test = sanitizePathComponent(rawTest + "()")
      guard !test.isEmpty else { continue }
      let identifier =
        Bool.random(using: &generator)
        ? String(Int.random(in: 1...999, using: &generator))
        : sanitizePathComponent(pieces.randomElement(using: &generator)!)
      guard !identifier.isEmpty else { continue }
      let name = ReferenceName(
        test: test,
        identifier: identifier,
        variant: variants.randomElement(using: &generator)!,
        pathExtension: extensions.randomElement(using: &generator)!
      )
      let parsed = ReferenceName(fileName: name.fileName, pathExtension: name.pathExtension)
      #expect(parsed == name, "\(name.fileName)")
      checked += 1
    }
    #expect(checked > 1_000)
  }

  @Test(arguments: [
    ("testUser.1.txt", "png"),  // another extension
    ("run.sh", "txt"),
    ("testUser.txt", "txt"),  // no identifier
    (".1.txt", "txt"),  // no test
    ("test User.1.txt", "txt"),  // not sanitized
    ("testUser..txt", "txt"),  // empty identifier
  ])
  func namesTheEngineCannotWriteAreRefused(_ fileName: String, _ pathExtension: String) {
    #expect(ReferenceName(fileName: fileName, pathExtension: pathExtension) == nil)
  }

  @Test func aNameReadsAsUpstreamWritesIt() {
    let name = ReferenceName(test: "testUser", identifier: "1", variant: nil, pathExtension: "txt")
    #expect(name.fileName == "testUser.1.txt")
    #expect(name.baseName == "testUser.1")
  }
}

@Suite struct UsageLogFolderTests {
  @Test func everyFileNameParsesBack() {
    let folder = UsageLogFolder(URL(fileURLWithPath: "/usage"))
    let stem = UsageLogFolder.newStem()
    for kind in UsageLogFolder.Kind.allCases {
      let name = folder.file(kind, stem: stem).lastPathComponent
      #expect(UsageLogFolder.parse(name)?.kind == kind)
      #expect(UsageLogFolder.parse(name)?.stem == stem)
    }
    #expect(UsageLogFolder.parse("notes.txt") == nil)
    #expect(UsageLogFolder.parse("process-.json") == nil)
  }

  @Test func aProcessRecordWithoutAVersionReadsAsVersion1() throws {
    let old = #"{"arguments":["a"],"startedAt":1}"#
    let record = try JSONDecoder().decode(
      ReferenceUsageLog.ProcessInfoRecord.self, from: Data(old.utf8))
    #expect(record.version == 1)
    #expect(record.arguments == ["a"])
    let written = try JSONEncoder().encode(
      ReferenceUsageLog.ProcessInfoRecord(arguments: ["b"], startedAt: 2))
    #expect(try JSONDecoder().decode(
      ReferenceUsageLog.ProcessInfoRecord.self, from: written).version == 2)
  }

  @Test func aNewerProcessRecordIsRefusedByName() {
    let newer = #"{"version":99,"arguments":["a"],"startedAt":1}"#
    #expect {
      try JSONDecoder().decode(ReferenceUsageLog.ProcessInfoRecord.self, from: Data(newer.utf8))
    } throws: { error in
      "\(error)".contains("process record version 99")
    }
  }
}
