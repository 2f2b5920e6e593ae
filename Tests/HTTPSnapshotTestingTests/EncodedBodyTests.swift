import Foundation
import HTTPTypes
import SnapshotTesting
import TestSupport
import Testing

@testable import HTTPSnapshotTesting

/// Bodies sent compressed (`Content-Encoding: gzip` or `deflate`) are shown decoded, under a line
/// naming the coding; compressed data made by real tools (gzip, Python's zlib), corrupt data and a
/// decompression bomb each give a clear line, never a crash.
@Suite struct EncodedBodyTests {
  /// The bytes `script` (Python 3) writes to standard output, given `input` on standard input.
  static func python(_ script: String, input: Data = Data()) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script]
    let output = Pipe()
    let standardInput = Pipe()
    process.standardOutput = output
    process.standardInput = standardInput
    try process.run()
    standardInput.fileHandleForWriting.write(input)
    try standardInput.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "python3 failed: \(script)")
    return data
  }

  static func gzip(level: Int) -> String {
    "import gzip,sys; sys.stdout.buffer.write(gzip.compress(sys.stdin.buffer.read(), \(level)))"
  }
  static let gzip = gzip(level: 9)
  static let zlib =
    "import zlib,sys; sys.stdout.buffer.write(zlib.compress(sys.stdin.buffer.read()))"
  static let rawDeflate = """
    import zlib,sys; c = zlib.compressobj(6, zlib.DEFLATED, -15)
    sys.stdout.buffer.write(c.compress(sys.stdin.buffer.read()) + c.flush())
    """

  func text(_ body: Data, type: String = "application/json", encoding: String?) -> String {
    var response = HTTPResponse(status: .ok, headerFields: [.contentType: type])
    if let encoding { response.headerFields[.contentEncoding] = encoding }
    let text = snapshotText(HTTPMessage(response, body: body), as: .http).text
    return String(text.split(separator: "\n\n", maxSplits: 1)[1])
  }

  static let json = Data(#"{"b": [1, 2, 3], "a": "x"}"#.utf8)
  static let pretty = "{\n  \"a\" : \"x\",\n  \"b\" : [\n    1,\n    2,\n    3\n  ]\n}"

  @Test(arguments: [("gzip", gzip), ("x-gzip", gzip), ("deflate", zlib), ("deflate", rawDeflate)])
  func aCompressedJSONBodyIsShownDecoded(coding: String, script: String) throws {
    let compressed = try Self.python(script, input: Self.json)
    #expect(text(compressed, encoding: coding) == "[body decoded from \(coding)]\n" + Self.pretty)
  }

  /// Stored, fixed and dynamic blocks, long matches and a second gzip member, against the
  /// bytes that went in.
  @Test func realCompressorsRoundTripEveryBlockKind() throws {
    var random = SystemRandomNumberGenerator()
    let noise = Data((0..<300_000).map { _ in UInt8.random(in: 0...255, using: &random) })
    let words = Data((0..<50_000).map { "word\($0 % 97) " }.joined().utf8)
    for (input, level) in [(noise, 9), (words, 1), (words, 9), (Data(), 6), (Data("a".utf8), 0)] {
      let compressed = try Self.python(Self.gzip(level: level), input: input)
      #expect(try Inflate.gunzip(compressed, limit: 1 << 30) == input, "level \(level)")
      let twoMembers = compressed + compressed
      #expect(try Inflate.gunzip(twoMembers, limit: 1 << 30) == input + input)
    }
  }

  @Test func truncatedCorruptAndUnknownCodingsAreNamed() throws {
    let compressed = try Self.python(Self.gzip, input: Self.json)
    let truncated = text(compressed.prefix(compressed.count - 5), encoding: "gzip")
    #expect(truncated.hasPrefix("[application/json body, gzip-encoded, and it does not decode: "
      + "the data ends too early: "), "\(truncated)")
    var corrupt = compressed
    corrupt[corrupt.count - 6] ^= 0xFF  // the CRC
    #expect(text(corrupt, encoding: "gzip").contains("its checksum does not match"))
    #expect(text(Self.json, encoding: "gzip").contains("it does not start as gzip data does"))
    #expect(
      text(compressed, encoding: "br")
        .hasPrefix("[application/json body, br-encoded, which is not decoded: "))
    // Several codings are undone last first; identity is no coding.
    let twice = try Self.python(Self.zlib, input: compressed)
    #expect(text(twice, encoding: "gzip, identity, deflate").hasSuffix(Self.pretty))
  }

  @Test func aDecompressionBombStopsAtTheLimit() throws {
    let bomb = try Self.python(
      "import gzip,sys; sys.stdout.buffer.write(gzip.compress(b'\\0' * 100_000_000, 9))")
    #expect(bomb.count < 200_000)
    let line = text(bomb, type: "application/octet-stream", encoding: "gzip")
    #expect(
      line.hasPrefix("[application/octet-stream body, gzip-encoded, and it does not decode: "
        + "it decodes to more than \(BodyText.decodedSizeLimit) bytes: "), "\(line)")
  }

  @Test(arguments: [
    ("text/plain; charset=ISO-8859-1", Data([0x63, 0x61, 0x66, 0xE9]), "café"),
    ("text/plain; charset=\"windows-1252\"", Data([0x80, 0x20, 0x93, 0x78, 0x94]), "€ “x”"),
    ("text/plain;charset=utf-16", Data([0xFF, 0xFE, 0x68, 0x00, 0xE9, 0x00]), "hé"),
    ("text/plain; charset=UTF-16BE", Data([0x00, 0x68, 0x00, 0xE9]), "hé"),
    ("application/json; charset=utf-16le", Data("{\"é\":1}".utf16.flatMap {
      [UInt8($0 & 0xFF), UInt8($0 >> 8)] }), "{\n  \"é\" : 1\n}"),
  ])
  func aDeclaredCharsetIsHonoured(type: String, body: Data, expected: String) {
    #expect(text(body, type: type, encoding: nil) == expected)
  }

  @Test func anUnknownCharsetOrBytesOutsideItAreNamed() {
    #expect(
      text(Data("x".utf8), type: "text/plain; charset=shift_jis", encoding: nil)
        .hasPrefix("[text/plain body, charset shift_jis is not read: 1 byte, SHA-256 "))
    #expect(
      text(Data([0x00, 0x68, 0x00]), type: "text/plain; charset=utf-16be", encoding: nil)
        .hasPrefix("[text/plain body, not utf-16be: 3 bytes"))
  }
}

/// The HTTP article's example of a compressed body, as a run prints it.
@Test func theArticlesCompressedBodyExampleIsWhatARunPrints() throws {
  let body = try EncodedBodyTests.python(
    "import gzip,sys; sys.stdout.buffer.write(gzip.compress(b'{\"ok\": true}', 9, mtime=0))")
  let response = HTTPResponse(
    status: .ok, headerFields: [.contentType: "application/json", .contentEncoding: "gzip"])
  let text = snapshotText(HTTPMessage(response, body: body), as: .http).text
  let article = try String(
    contentsOf: URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/HTTPSnapshotTesting/Documentation.docc/HTTPSnapshots.md"),
    encoding: .utf8)
  #expect(article.contains("```\n" + text + "\n```"), "\(text)")
}
