import Foundation
import Testing

@testable import SnapshotTesting

/// The built-in scrubbers on their own: what they replace, what they leave, how they number.
@Suite struct BuiltInScrubberTests {
  static let first = "8F3C2A1E-4B5D-4E6F-8A9B-0C1D2E3F4A5B"
  static let second = "0a1b2c3d-0000-4000-8000-00000000abcd"

  @Test func uuidsAreNumberedByFirstAppearanceAcrossRepeatsAndCase() throws {
    let text = """
      id: \(Self.first)
      parent: \(Self.second)
      again: \(Self.first.lowercased()), \(Self.second)
      """
    #expect(
      try Scrubber.uuids.scrub(text) == """
        id: UUID_1
        parent: UUID_2
        again: UUID_1, UUID_2
        """
    )
  }

  @Test func uuidsLeaveTextThatIsNotAWholeUUID() throws {
    let untouched = [
      "x\(Self.first)",
      "\(Self.first)0",
      "8F3C2A1E-4B5D-4E6F-8A9B-0C1D2E3F4A5",
      "8F3C2A1E_4B5D-4E6F-8A9B-0C1D2E3F4A5B",
      "8G3C2A1E-4B5D-4E6F-8A9B-0C1D2E3F4A5B",
      "",
      "no identities here ✓",
    ]
    for text in untouched {
      #expect(try Scrubber.uuids.scrub(text) == text)
    }
    #expect(try Scrubber.uuids.scrub("(\(Self.first))") == "(UUID_1)")
    #expect(try Scrubber.uuids.scrub("é\(Self.first)é") == "éUUID_1é", "Non-ASCII neighbours.")
  }

  @Test func numberingIsPerSnapshot() throws {
    #expect(try Scrubber.uuids.scrub(Self.second) == "UUID_1")
    #expect(try Scrubber.uuids.scrub("\(Self.first) \(Self.second)") == "UUID_1 UUID_2")
  }

  @Test(arguments: [
    ("2024-03-01", "DATE_1"),
    ("2024-03-01T09:30", "DATE_1"),
    ("2024-03-01T09:30:00Z", "DATE_1"),
    ("2024-03-01T09:30:00.123456+01:00", "DATE_1"),
    ("2024-03-01T09:30:00,5-0530", "DATE_1"),
    ("2024-03-01T09:30:00+01", "DATE_1"),
    ("2024-03-01 09:30:00 +0000", "DATE_1"),
    ("at 2024-03-01T09:30:00Z.", "at DATE_1."),
    ("2024-13-01", "2024-13-01"),
    ("2024-03-32", "2024-03-32"),
    ("12024-03-01", "12024-03-01"),
    ("2024-03-011", "2024-03-011"),
    ("v2024-03-01", "v2024-03-01"),
    ("2024-03-01T25:00", "DATE_1T25:00"),
    ("2024-3-1", "2024-3-1"),
  ])
  func iso8601Dates(_ text: String, _ expected: String) throws {
    #expect(try Scrubber.iso8601Dates.scrub(text) == expected)
  }

  @Test func datesAreNumberedByTheirExactText() throws {
    let text = "a 2024-03-01T09:30:00Z b 2024-03-02 c 2024-03-01T09:30:00Z d 2024-03-01"
    #expect(try Scrubber.iso8601Dates.scrub(text) == "a DATE_1 b DATE_2 c DATE_1 d DATE_3")
  }

  @Test func dateDescriptionsFromDumpAreScrubbed() throws {
    var dumped = ""
    dump(Date(timeIntervalSince1970: 1_700_000_000), to: &dumped)
    #expect(try Scrubber.iso8601Dates.scrub(dumped).hasPrefix("▿ DATE_1\n"))
  }

  @Test(arguments: [
    ("<Cache: 0x600000c04000>", "<Cache: ADDRESS_1>"),
    ("0x12345678", "ADDRESS_1"),
    ("0xffffffffffffffff", "ADDRESS_1"),
    ("0x1234567", "0x1234567"),
    ("0x12345678123456789", "0x12345678123456789"),
    ("a0x12345678", "a0x12345678"),
    ("0x12345678g", "0x12345678g"),
    ("0xFF", "0xFF"),
  ])
  func memoryAddresses(_ text: String, _ expected: String) throws {
    #expect(try Scrubber.memoryAddresses.scrub(text) == expected)
  }

  @Test func addressesAreNumberedWhateverTheirCase() throws {
    let text = "0x600000C04000 0x7f0000000001 0x600000c04000"
    #expect(try Scrubber.memoryAddresses.scrub(text) == "ADDRESS_1 ADDRESS_2 ADDRESS_1")
  }

  @Test func replacingARegex() throws {
    let scrubber = Scrubber.replacing(#/took \d+ ms/#, with: "took <duration>")
    #expect(scrubber.name == "replacing(regex)")
    #expect(
      try scrubber.scrub("fetch took 132 ms\nparse took 7 ms\n")
        == "fetch took <duration>\nparse took <duration>\n"
    )
  }

  @Test func replacingALiteralComparesBytes() throws {
    let temporary = NSTemporaryDirectory()
    let scrubber = Scrubber.replacing(temporary, with: "$TMP/")
    #expect(try scrubber.scrub("wrote \(temporary)out.txt") == "wrote $TMP/out.txt")
    #expect(try Scrubber.replacing("", with: "x").scrub("abc") == "abc")
    #expect(try Scrubber.replacing("e\u{301}", with: "E").scrub("\u{E9} e\u{301}") == "\u{E9} E")
  }

  @Test func aRegexScrubberIsDeterministicAcrossConcurrentUses() async throws {
    let scrubber = Scrubber.replacing(#/[0-9a-f]{4}/#, with: "<hex>")
    let text = (0..<200).map { String(format: "%04x line", $0 * 97 % 65536) }
      .joined(separator: "\n")
    let expected = try scrubber.scrub(text)
    let results = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<16 { group.addTask { try scrubber.scrub(text) } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.allSatisfy { $0 == expected })
    #expect(expected.hasPrefix("<hex> line\n<hex> line"))
  }

  /// Ten megabytes dense with identities; quadratic scanning would not finish in a test run.
  @Test func scansTenMegabytesInOnePass() throws {
    let line = "user \(Self.first) at 2024-03-01T09:30:00Z in 0x600000c04000 of \(Self.second)\n"
    let text = String(repeating: line, count: 10_000_000 / line.utf8.count + 1)
    #expect(text.utf8.count > 10_000_000)
    var scrubbed = text
    for scrubber in [Scrubber.uuids, .iso8601Dates, .memoryAddresses] {
      scrubbed = try scrubber.scrub(scrubbed)
    }
    let expectedLine = "user UUID_1 at DATE_1 in ADDRESS_1 of UUID_2\n"
    #expect(scrubbed.utf8.count == expectedLine.utf8.count * (text.utf8.count / line.utf8.count))
    #expect(scrubbed.hasPrefix(expectedLine + expectedLine))
    #expect(scrubbed.hasSuffix(expectedLine))
  }
}
