import Foundation
import RunRecord

extension Diffing where Value == String {
  /// Compares text line by line and describes a mismatch as a unified diff.
  ///
  /// ```swift
  /// let (message, _) = Diffing<String>.lines.diffV2("a\nb\nc", "a\nB\nc")!
  /// // @@ −1,3 +1,3 @@
  /// //  a
  /// // −b
  /// // +B
  /// //  c
  /// ```
  ///
  /// The message is a list of hunks with four lines of context: `−` (U+2212) marks removed lines,
  /// `+` added lines, a figure space (U+2007) unchanged lines, and `¬` follows a line's trailing
  /// space. The same text is attached as `difference.patch`. Texts that are equal as Swift
  /// strings match. Lines are cut at every `"\n"` and compared by their bytes.
  ///
  /// - Complexity: O((*n* + *m*) · *d*) time and O(*n* + *m*) memory for texts of *n* and *m*
  ///   bytes with *d* changed lines (a minimal diff, found with Myers' algorithm); close to
  ///   linear when few lines change.
  public static let lines: Diffing = {
    var diffing = Diffing.diff(
      toData: { Data($0.utf8) },
      fromData: { String(decoding: $0, as: UTF8.self) }
    ) { old, new in
      guard old != new, let difference = lineDiff(old: old, new: new) else { return nil }
      return (difference, [.data(Data(difference.utf8), name: "difference.patch")])
    }
    diffing.reviewKind = .text
    diffing.attachmentRoles = ["difference.patch": .patch]
    return diffing
  }()
}

extension Snapshotting where Value == String, Format == String {
  /// Snapshots a string as a `.txt` reference, compared line by line with ``Diffing/lines``.
  ///
  /// ```swift
  /// assertSnapshot(of: greeting, as: .lines)
  /// ```
  public static let lines = Snapshotting(pathExtension: "txt", diffing: .lines)
}
