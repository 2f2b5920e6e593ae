import Foundation
import SnapshotTesting

/// Scrubs a transcript's UUIDs and ISO 8601 dates the way `.scrubbing(.uuids, .iso8601Dates)`
/// does over its whole text, byte for byte, while reading only the values that may hold one.
///
/// Why reading the values is enough: both scrubbers match only runs that hold a `-` right after
/// at least four hex digits (`8F3C2A1E-`, `2024-`), and the transcript's own words hold no `-`.
/// Every value is set between words that end an identity on either side (a space, `: `, ` (`,
/// ` = `, a line break), and so is a value alone between NUL separators: a match in the text is a
/// match in the values joined with NUL, and the other way round, in the same order, so the
/// numbering by first appearance is the same.
///
/// The text reaches the scrubbers after the scrubbers in scope (`withSnapshotTesting(scrubbing:)`)
/// ran on it. Those may have changed it; then the ranges no longer fit and the whole text is
/// scrubbed as before.
final class TranscriptIdentities: @unchecked Sendable {
  private let lock = NSLock()
  /// Texts rendered and not yet scrubbed, with their candidate ranges; a few at most.
  private var pending: [(text: String, candidates: [Range<Int>])] = []
  private static let pendingLimit = 8

  /// Keeps a rendered text's ranges until the scrubber gets that text.
  func rendered(_ text: String, candidates: [Range<Int>]) {
    lock.lock()
    defer { lock.unlock() }
    if pending.count == Self.pendingLimit { pending.removeFirst() }
    pending.append((text, candidates))
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
    lock.lock()
    defer { lock.unlock() }
    guard let index = pending.firstIndex(where: { $0.text == text }) else { return nil }
    return pending.remove(at: index).candidates
  }

  /// Whether a value may hold a UUID or an ISO 8601 date: a `-` after four hex digits.
  ///
  /// Complexity: O(*n*) in the value's length in bytes.
  static func mayHoldIdentity(_ value: String) -> Bool {
    var value = value
    return value.withUTF8(mayHoldIdentity)
  }

  static func mayHoldIdentity(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var hexDigits = 0
    for byte in bytes {
      if byte == UInt8(ascii: "-") {
        if hexDigits >= 4 { return true }
        hexDigits = 0
      } else if (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66) {
        hexDigits += 1
      } else {
        hexDigits = 0
      }
    }
    return false
  }

  /// Scrubs the candidates joined with NUL, then writes each back in its place; the whole text
  /// when a candidate holds a NUL of its own.
  ///
  /// Complexity: O(*n*) in the text's length for the copy, plus the scrubbers' O(*m*) in the
  /// candidates' length.
  static func scrub(_ text: String, candidates: [Range<Int>]) -> String {
    guard !candidates.isEmpty else { return text }
    var text = text
    switch text.withUTF8({ bytes in scrub(bytes, candidates: candidates) }) {
    case .unchanged: return text
    case .scrubbed(let scrubbed): return scrubbed
    case .notJoinable: return (try? Scrubber.iso8601Dates.scrub(Scrubber.uuids.scrub(text))) ?? text
    }
  }

  private enum Outcome {
    case unchanged, scrubbed(String), notJoinable
  }

  private static func scrub(
    _ bytes: UnsafeBufferPointer<UInt8>, candidates: [Range<Int>]
  ) -> Outcome {
    var joined: [UInt8] = []
    joined.reserveCapacity(candidates.reduce(0) { $0 + $1.count + 1 })
    for (index, range) in candidates.enumerated() {
      let value = UnsafeBufferPointer(rebasing: bytes[range])
      if value.contains(0) { return .notJoinable }
      if index > 0 { joined.append(0) }
      joined.append(contentsOf: value)
    }
    let values = String(decoding: joined, as: UTF8.self)
    guard var scrubbed = try? Scrubber.iso8601Dates.scrub(Scrubber.uuids.scrub(values)) else {
      return .notJoinable
    }
    if scrubbed == values { return .unchanged }
    return scrubbed.withUTF8 { pieces in
      var output: [UInt8] = []
      output.reserveCapacity(bytes.count + pieces.count - joined.count)
      var copied = 0
      var pieceStart = 0
      for range in candidates {
        guard pieceStart <= pieces.count else { return .notJoinable }
        var pieceEnd = pieceStart
        while pieceEnd < pieces.count && pieces[pieceEnd] != 0 { pieceEnd += 1 }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<range.lowerBound]))
        output.append(contentsOf: UnsafeBufferPointer(rebasing: pieces[pieceStart..<pieceEnd]))
        copied = range.upperBound
        pieceStart = pieceEnd + 1
      }
      // Every piece used, none left over: the scrubbers kept the separators.
      guard pieceStart == pieces.count + 1 else { return .notJoinable }
      output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
      return .scrubbed(String(decoding: output, as: UTF8.self))
    }
  }
}
