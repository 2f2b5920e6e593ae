import Foundation

/// The part of a difference that goes into the failure message and the failure record, and that
/// the review tool prints (`review`, `report`): one rule for every place a difference is shown.
///
/// A one-line change in a 50 MB snapshot makes a 100 MB diff; printed whole it floods the log and
/// the record. So at most ``maximumLines`` lines are kept, each cut after
/// ``maximumLineBytes`` bytes of UTF-8, and a last line says what was left out and where the
/// whole difference is (the patch file, which is written whole, as are the reference and the new
/// snapshot). A difference within both limits is kept as it is, byte for byte.
///
/// - Complexity: O(*k*) in the bytes kept, plus one pass counting the newlines of the rest.
package struct DifferenceExcerpt: Equatable {
  /// Lines kept of a difference: 500.
  package static let maximumLines = 500
  /// Bytes kept of one line: 2,000, cut on a character boundary.
  package static let maximumLineBytes = 2_000

  /// The difference, bounded, with the note when something was left out.
  package var text: String { note.map { kept + "\n" + $0 } ?? kept }
  /// The lines kept, without the note.
  package var kept: String
  /// `[… 12 more lines left out; the whole difference is in "…"]`, or `nil` when nothing was.
  package var note: String?
  /// Whether the difference was kept whole.
  package var isWhole: Bool

  /// Bounds `difference`, without the whitespace around it; `patchPath` is where the whole
  /// difference was saved, if it was.
  package init(_ difference: String, patchPath: String?) {
    var kept = ""
    var keptLines = 0
    var shortenedLines = 0
    var omittedBytes = 0
    var utf8 = difference.utf8[...]
    while !utf8.isEmpty, keptLines < Self.maximumLines {
      let end = utf8.firstIndex(of: UInt8(ascii: "\n")) ?? utf8.endIndex
      let line = utf8[..<end]
      if keptLines > 0 { kept += "\n" }
      if line.count > Self.maximumLineBytes {
        var cut = line.index(line.startIndex, offsetBy: Self.maximumLineBytes)
        // Back up to the start of a character's encoding (never a continuation byte).
        while cut > line.startIndex, utf8[cut] & 0b1100_0000 == 0b1000_0000 {
          cut = utf8.index(before: cut)
        }
        kept += String(decoding: utf8[line.startIndex..<cut], as: UTF8.self)
        kept += "…"
        omittedBytes += line.distance(from: cut, to: line.endIndex)
        shortenedLines += 1
      } else {
        kept += String(decoding: line, as: UTF8.self)
      }
      keptLines += 1
      utf8 = end == utf8.endIndex ? utf8[end...] : utf8[utf8.index(after: end)...]
    }
    let omittedLines = utf8.isEmpty ? 0 : utf8.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    isWhole = omittedLines == 0 && shortenedLines == 0
    guard !isWhole else {
      self.kept = difference.trimmingCharacters(in: .whitespacesAndNewlines)
      note = nil
      return
    }
    var parts: [String] = []
    if omittedLines > 0 {
      parts.append("\(omittedLines) more line\(omittedLines == 1 ? "" : "s")")
    }
    if shortenedLines > 0 {
      parts.append(
        "the ends of \(shortenedLines) long line\(shortenedLines == 1 ? "" : "s") "
          + "(\(omittedBytes) bytes)"
      )
    }
    let whole = patchPath.map { #"; the whole difference is in "\#($0)""# } ?? ""
    self.kept = kept.trimmingCharacters(in: .whitespacesAndNewlines)
    note = "[… \(parts.joined(separator: " and ")) left out\(whole)]"
  }
}
