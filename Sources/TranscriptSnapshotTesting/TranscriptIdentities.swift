import Foundation
import RunRecord
import SnapshotTesting

/// Scrubs a transcript's UUIDs and ISO 8601 dates the way `.scrubbing(.uuids, .iso8601Dates)`
/// does over its whole text, byte for byte, while reading only the values that may hold one.
///
/// Why reading the values is enough: both scrubbers match only runs that hold a `-` right after
/// at least four hex digits (`8F3C2A1E-`, `2024-`), and the transcript's own words hold no UUID
/// or date. Every value is set between words that end an identity on either side and that a date
/// cannot read on into (a space before `(` or `=`, `: `, `)`, a line break; a source location is
/// one value with its `:line`), and so is a value alone between NUL separators: a match in the text is a
/// match in the values joined with NUL, and the other way round, in the same order, so the
/// numbering by first appearance is the same. A text printed by `.http` counts line by line: no
/// identity holds a line break.
///
/// The text reaches the scrubbers after the scrubbers in scope (`withSnapshotTesting(scrubbing:)`)
/// ran on it. Those may have changed it; then the ranges no longer fit and the whole text is
/// scrubbed as before.
final class TranscriptIdentities: Sendable {
  /// Texts rendered and not yet scrubbed, with their candidate ranges; a few at most.
  private let pending = Locked<[(text: String, candidates: [Range<Int>])]>([])
  private static let pendingLimit = 8

  /// Keeps a rendered text's ranges until the scrubber gets that text.
  func rendered(_ text: String, candidates: [Range<Int>]) {
    pending.withLock { pending in
      if pending.count == Self.pendingLimit { pending.removeFirst() }
      pending.append((text, candidates))
    }
  }

  /// The scrubber that `.transcript` runs after the scrubbers in scope.
  var scrubber: Scrubber {
    Scrubber("uuids, iso8601Dates") { [self] text in
      if let candidates = take(text) {
        return Self.scrub(text, candidates: candidates)
      }
      return try Scrubber.iso8601Dates.scrub(Scrubber.uuids.scrub(text))
    }
  }

  /// The ranges noted for exactly this text, if any (the same string when nothing ran before).
  private func take(_ text: String) -> [Range<Int>]? {
    pending.withLock { pending in
      guard let index = pending.firstIndex(where: { $0.text == text }) else { return nil }
      return pending.remove(at: index).candidates
    }
  }

  /// Whether a value may hold a UUID or an ISO 8601 date: a `-` after four hex digits.
  ///
  /// Complexity: O(*n*) in the value's length in bytes.
  static func mayHoldIdentity(_ value: String) -> Bool {
    mayHoldIdentity(Array(value.utf8)[...])
  }

  static func mayHoldIdentity(_ bytes: ArraySlice<UInt8>) -> Bool {
    identityDash(in: bytes, from: bytes.startIndex) != nil
  }

  /// The index of the first `-` at or after `start` that follows four hex digits of `bytes`:
  /// where an identity may be. Only the `-`s are looked at, and the four bytes before each.
  static func identityDash(in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
    identityDash(in: bytes.span, from: start - bytes.startIndex).map { $0 + bytes.startIndex }
  }

  /// The offset of the first `-` at or after offset `start` that follows four hex digits of
  /// `bytes`, read where they lie.
  static func identityDash(in bytes: Swift.Span<UInt8>, from start: Int) -> Int? {
    // A `-` before the fifth byte has no four bytes before it.
    var position = max(start, 4)
    while position < bytes.count {
      if bytes[position] == UInt8(ascii: "-"), isHexDigit(bytes[position - 1]),
        isHexDigit(bytes[position - 2]), isHexDigit(bytes[position - 3]),
        isHexDigit(bytes[position - 4])
      {
        return position
      }
      position += 1
    }
    return nil
  }

  @inline(__always)
  static func isHexDigit(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
  }

  /// Scrubs the candidates joined with NUL, then writes each back in its place; the whole text
  /// when a candidate holds a NUL of its own.
  ///
  /// Complexity: O(*n*) in the text's length for the copy, plus the scrubbers' O(*m*) in the
  /// candidates' length.
  static func scrub(_ text: String, candidates: [Range<Int>]) -> String {
    guard !candidates.isEmpty else { return text }
    guard let values = joined(text.utf8.span, candidates: candidates),
      let scrubbed = try? Scrubber.iso8601Dates.scrub(Scrubber.uuids.scrub(values))
    else {
      return (try? Scrubber.iso8601Dates.scrub(Scrubber.uuids.scrub(text))) ?? text
    }
    if scrubbed == values { return text }
    guard let ends = pieceEnds(in: scrubbed, count: candidates.count) else {
      return (try? Scrubber.iso8601Dates.scrub(Scrubber.uuids.scrub(text))) ?? text
    }
    // Pieces of two valid strings, appended as strings: nothing is decoded again, and the
    // result is written in its own memory. (Written into a buffer and copied into a `String`
    // after, it was no faster, and `.lines` on it then ran slower in the benchmark's process.)
    let utf8 = text.utf8
    let pieces = scrubbed.utf8
    var output = ""
    output.reserveCapacity(utf8.count + pieces.count - values.utf8.count)
    var copied = 0
    var pieceStart = 0
    for (range, pieceEnd) in zip(candidates, ends) {
      output += Substring(utf8[offset(copied, in: utf8)..<offset(range.lowerBound, in: utf8)])
      output += Substring(pieces[offset(pieceStart, in: pieces)..<offset(pieceEnd, in: pieces)])
      copied = range.upperBound
      pieceStart = pieceEnd + 1
    }
    output += Substring(utf8[offset(copied, in: utf8)...])
    return output
  }

  /// The index at a UTF-8 offset (constant time in a native string).
  private static func offset(_ offset: Int, in utf8: String.UTF8View) -> String.Index {
    utf8.index(utf8.startIndex, offsetBy: offset)
  }

  /// Where each piece of the scrubbed values ends (the pieces separated by NUL, as
  /// ``joined(_:candidates:)`` joined them), or nil when there are not `count` pieces.
  private static func pieceEnds(in pieces: String, count: Int) -> [Int]? {
    var ends: [Int] = []
    ends.reserveCapacity(count)
    var position = 0
    for byte in pieces.utf8 {
      if byte == 0 { ends.append(position) }
      position += 1
    }
    ends.append(position)
    return ends.count == count ? ends : nil
  }

  /// The candidates' bytes joined with NUL, or nil when one holds a NUL of its own; read in the
  /// text's own memory.
  private static func joined(_ bytes: Swift.Span<UInt8>, candidates: [Range<Int>]) -> String? {
    var joined: [UInt8] = []
    joined.reserveCapacity(candidates.reduce(0) { $0 + $1.count + 1 })
    for (index, range) in candidates.enumerated() {
      let value = bytes.extracting(range)
      if index > 0 { joined.append(0) }
      var holdsNul = false
      joined.append(addingCapacity: value.count) { output in
        for position in value.indices {
          let byte = value[position]
          if byte == 0 { holdsNul = true }
          output.append(byte)
        }
      }
      if holdsNul { return nil }
    }
    // Whole values of a valid text, and NULs.
    return String(copyingValidUTF8: joined)
  }
}
