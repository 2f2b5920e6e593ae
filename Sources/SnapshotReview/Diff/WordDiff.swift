/// Which words of a changed line changed: a removed line and the added line it pairs with, each
/// cut into words, spaces and punctuation, and compared word by word.
///
/// ```
/// −"price": 12.5,      →  "price": [12.5],
/// +"price": 13.0,      →  "price": [13.0],
/// ```
struct WordDiff: Equatable {
  /// A run of a line's text, and whether it differs from the other line.
  struct Segment: Equatable {
    var text: String
    var changed: Bool
  }

  var removed: [Segment]
  var added: [Segment]

  /// The most word pairs compared for two lines; longer lines are shown whole, as changed.
  static let maximumComparisons = 250_000

  /// Compares two lines (without their diff markers); `nil` when they are too long to compare
  /// or share nothing, so that pairing them would mark every word anyway.
  ///
  /// - Complexity: O(*n* · *m*) in the lines' word counts, bounded by ``maximumComparisons``.
  init?(removed old: String, added new: String) {
    let a = Self.words(old)
    let b = Self.words(new)
    guard a.count * b.count <= Self.maximumComparisons, !a.isEmpty, !b.isEmpty else { return nil }
    // Longest common subsequence of the words, by the lengths of the suffixes.
    var lengths = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
      for j in stride(from: b.count - 1, through: 0, by: -1) {
        lengths[i][j] =
          a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
      }
    }
    let common = a.indices.contains(0) ? lengths[0][0] : 0
    guard common > 0, common * 2 >= min(a.count, b.count) / 2 else { return nil }
    var keptA = [Bool](repeating: false, count: a.count)
    var keptB = [Bool](repeating: false, count: b.count)
    var (i, j) = (0, 0)
    while i < a.count && j < b.count {
      if a[i] == b[j] {
        keptA[i] = true
        keptB[j] = true
        i += 1
        j += 1
      } else if lengths[i + 1][j] >= lengths[i][j + 1] {
        i += 1
      } else {
        j += 1
      }
    }
    // Lines that share only spaces are unrelated: marking every word would say nothing.
    guard zip(a, keptA).contains(where: { $1 && !$0.allSatisfy(\.isWhitespace) }) else {
      return nil
    }
    removed = Self.segments(a, kept: keptA)
    added = Self.segments(b, kept: keptB)
  }

  /// Runs of letters, digits and `_`; runs of spaces; each other character alone.
  static func words(_ line: String) -> [String] {
    var words: [String] = []
    var current = ""
    var currentKind = 0
    for character in line {
      let kind =
        character.isLetter || character.isNumber || character == "_"
          || character == "."
            && currentKind == 1
        ? 1 : character.isWhitespace ? 2 : 3
      if kind == currentKind && kind != 3 {
        current.append(character)
      } else {
        if !current.isEmpty { words.append(current) }
        current = String(character)
        currentKind = kind
      }
    }
    if !current.isEmpty { words.append(current) }
    return words
  }

  /// Adjacent words of the same state joined.
  private static func segments(_ words: [String], kept: [Bool]) -> [Segment] {
    var segments: [Segment] = []
    for (word, isKept) in zip(words, kept) {
      if let last = segments.last, last.changed == !isKept {
        segments[segments.count - 1].text += word
      } else {
        segments.append(Segment(text: word, changed: !isKept))
      }
    }
    return segments
  }
}

/// A patch's lines with each removed line paired, in order, to an added line of the same change
/// (a run of removed lines directly followed by a run of added ones), and their word diffs.
struct PairedPatch {
  var lines: [PatchLine]
  /// The word diff of each paired line, by its index in ``lines``.
  var words: [Int: [WordDiff.Segment]] = [:]

  init(_ lines: [PatchLine]) {
    self.lines = lines
    var index = 0
    while index < lines.count {
      guard case .removed = lines[index] else {
        index += 1
        continue
      }
      let removedStart = index
      while index < lines.count, case .removed = lines[index] { index += 1 }
      let addedStart = index
      while index < lines.count, case .added = lines[index] { index += 1 }
      let pairs = min(addedStart - removedStart, index - addedStart)
      for offset in 0..<pairs {
        guard case .removed(let old) = lines[removedStart + offset],
          case .added(let new) = lines[addedStart + offset],
          let diff = WordDiff(removed: String(old.dropFirst()), added: String(new.dropFirst()))
        else { continue }
        words[removedStart + offset] = diff.removed
        words[addedStart + offset] = diff.added
      }
    }
  }
}
