import Foundation
import Testing

@testable import InlineSnapshotTesting

/// Recording into a file on disk keeps every byte outside the edited closure: a UTF-8 byte-order
/// mark and CRLF line endings come back exactly as they were.
@Suite struct SourceFileBytesTests {
  private static let bom = Data([0xEF, 0xBB, 0xBF])

  /// Writes `bytes` to a fresh file, records `actual` into its only call, returns the new bytes.
  private func record(_ actual: String, into bytes: Data, text: String) throws -> Data {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("SourceFileBytesTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("Test.swift")
    try bytes.write(to: file)
    try writeRecordings(
      [recording(in: text, actual: actual)],
      toFileAtPath: file.path,
      readFirstAs: text
    )
    return try Data(contentsOf: file)
  }

  @Test func keepsTheByteOrderMark() throws {
    let text = "func f() {\n  assertInlineSnapshot(of: x, as: .lines)\n}\n"
    let written = try record("a", into: Self.bom + Data(text.utf8), text: text)
    let expected =
      "func f() {\n  assertInlineSnapshot(of: x, as: .lines) {\n    \"\"\"\n    a\n"
      + "    \"\"\"\n  }\n}\n"
    #expect(written == Self.bom + Data(expected.utf8))
  }

  @Test func keepsTheByteOrderMarkAndWindowsLineEndings() throws {
    let text = "// ü\r\nfunc f() {\r\n  assertInlineSnapshot(of: x, as: .lines)\r\n}\r\n"
    let written = try record("a\nb", into: Self.bom + Data(text.utf8), text: text)
    let expected =
      "// ü\r\nfunc f() {\r\n  assertInlineSnapshot(of: x, as: .lines) {\r\n    \"\"\"\r\n"
      + "    a\r\n    b\r\n    \"\"\"\r\n  }\r\n}\r\n"
    #expect(written == Self.bom + Data(expected.utf8))
  }

  @Test func addsNoByteOrderMark() throws {
    let text = "func f() {\r\n  assertInlineSnapshot(of: x, as: .lines)\r\n}\r\n"
    let written = try record("a", into: Data(text.utf8), text: text)
    #expect(!written.starts(with: Self.bom))
    #expect(written.starts(with: Data("func f() {\r\n".utf8)))
    #expect(!String(decoding: written, as: UTF8.self).contains("a\n"))
  }

  @Test func splitsTheMarkFromTheText() throws {
    let withMark = try #require(SourceFileContents(Self.bom + Data("let x = 1\n".utf8)))
    var withoutMark = try #require(SourceFileContents(Data("let x = 1\n".utf8)))
    #expect(withMark.hasByteOrderMark)
    #expect(!withoutMark.hasByteOrderMark)
    withoutMark.hasByteOrderMark = true
    #expect(withMark == withoutMark)
    #expect(withMark.text == "let x = 1\n")
    #expect(withMark.bytes(for: "let y = 2\n") == Self.bom + Data("let y = 2\n".utf8))
    // A mark alone is an empty file that keeps its mark.
    #expect(SourceFileContents(Self.bom)?.text == "")
  }

  @Test func refusesBytesThatAreNotUTF8() throws {
    #expect(SourceFileContents(Self.bom + Data([0x61, 0xFF, 0x62])) == nil)
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("SourceFileBytesTests-\(UUID().uuidString).swift")
    try Data([0xC3, 0x28]).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let refusal = InlineSnapshotWriteError.unreadable(
      path: file.path,
      reason: "it is not UTF-8 text"
    )
    #expect(throws: refusal) { try readSourceFile(atPath: file.path) }
    #expect(
      refusal.description
        == "Could not read the test's source file \"\(file.path)\": it is not UTF-8 text."
    )
  }
}
