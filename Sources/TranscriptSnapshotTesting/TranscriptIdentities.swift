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
    var hexDigits = 0
    for byte in value.utf8 {
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
  static func scrub(_ text: String, candidates: [Range<Int>]) -> String {
    guard !candidates.isEmpty else { return text }
    let utf8 = Array(text.utf8)
    var joined: [UInt8] = []
    for (index, range) in candidates.enumerated() {
      if index > 0 { joined.append(0) }
      joined.append(contentsOf: utf8[range])
    }
    let wholeText = { (try? Scrubber.iso8601Dates.scrub(Scrubber.uuids.scrub(text))) ?? text }
    guard joined.count(where: { $0 == 0 }) == candidates.count - 1 else { return wholeText() }
    let values = String(decoding: joined, as: UTF8.self)
    guard let scrubbed = try? Scrubber.iso8601Dates.scrub(Scrubber.uuids.scrub(values)) else {
      return wholeText()
    }
    if scrubbed == values { return text }
    let pieces = scrubbed.utf8.split(separator: 0, omittingEmptySubsequences: false)
    guard pieces.count == candidates.count else { return wholeText() }
    var output: [UInt8] = []
    output.reserveCapacity(utf8.count + 64)
    var copied = 0
    for (range, piece) in zip(candidates, pieces) {
      output.append(contentsOf: utf8[copied..<range.lowerBound])
      output.append(contentsOf: piece)
      copied = range.upperBound
    }
    output.append(contentsOf: utf8[copied...])
    return String(decoding: output, as: UTF8.self)
  }
}
