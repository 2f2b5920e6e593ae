#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(ucrt)
  import ucrt
#endif

// The line diff's measured hot loops, with raw pointers: splitting and interning the lines
// (`TextLines`, `InternedLines`: `memchr`, word loads and `memcmp`), the search for common runs
// (`MyersDiff`) and writing the diff straight into a string's storage (`render`). Safe spellings
// of the first and the last (span loops, an array copied into the string) measured 1.1 to 2.1
// times slower on the line diff benchmark, over issue 43's bound (no slower than before).

/// A stretch of lines that two sequences share: `count` equal elements starting at `oldStart` in
/// the old sequence and at `newStart` in the new one.
struct CommonRun: Equatable {
  var oldStart: Int
  var newStart: Int
  var count: Int
}

/// A line diff: Eugene W. Myers' O((N+M)·D) algorithm in its linear-space form, minimal unless
/// that is too expensive.
///
/// "An O(ND) Difference Algorithm and Its Variations" (Algorithmica, 1986), section 4b: search
/// for the middle of an optimal edit path from both ends at once, split there, and solve both
/// halves. Before that, a common prefix and suffix are matched outright, and lines that occur in
/// only one of the sequences are set aside, since no common subsequence can contain them.
///
/// One search for a middle point may spend at most ``costLimit(oldCount:newCount:)`` edit steps
/// from each end. A box whose middle point lies further away than that (its edit distance exceeds
/// twice the limit: thousands of changes among lines that repeat, such as two unrelated texts
/// made of a few distinct lines) is cut instead at the points that the two searches have carried
/// furthest from their corners (at both when the forward one comes first, else at the further
/// one). The parts are then solved the same way, so the result is still a correct common
/// subsequence, only perhaps not a longest one; and the time becomes O((*n* + *m*) · *L*) for a
/// limit *L* instead of O((*n* + *m*) · *d*).
///
/// An owner of unsafe code (ARCHITECTURE.md, "Checked rules"): the measured hot loop of the line
/// diff works on the arrays of line ids and the search vectors through buffer pointers, every
/// index within their counts.
enum MyersDiff {
  /// The edit steps one search for a middle point may take before it settles for the furthest
  /// points reached: 2,048, or 2 · √(*n* + *m*) on inputs of more than a million elements.
  ///
  /// An edit distance of at most twice the limit (4,096 deleted and inserted lines, not counting
  /// lines found in only one text) always gives a minimal diff. The figure was chosen so that two
  /// unrelated texts of 200,000 lines, each a random `x` or `y`, take less time than GNU `diff`
  /// (see the Performance article).
  static func costLimit(oldCount: Int, newCount: Int) -> Int {
    max(2_048, Int(Double(oldCount + newCount).squareRoot()) * 2)
  }

  /// Returns a common subsequence of `old` and `new`, as runs of equal elements in increasing
  /// order: a longest one unless finding it is too expensive (see ``MyersDiff``).
  ///
  ///     MyersDiff.commonRuns(old: [1, 2, 3, 4], new: [1, 9, 3, 4])
  ///     // [CommonRun(oldStart: 0, newStart: 0, count: 1),
  ///     //  CommonRun(oldStart: 2, newStart: 2, count: 2)]
  ///
  /// Every element not covered by a run is a deletion (old) or an insertion (new), and their
  /// number is the smallest possible when it is at most twice `costLimit`.
  ///
  /// - Parameters:
  ///   - distinctCount: One more than the largest element (elements are identifiers in
  ///     `0 ..< distinctCount`).
  ///   - costLimit: The edit steps one search for a middle point may take; `nil` for
  ///     ``costLimit(oldCount:newCount:)`` of the inputs' lengths. Tests lower it.
  /// - Complexity: O((*n* + *m*) · min(*d*, *L*)) time and O(*n* + *m* + `distinctCount`)
  ///   memory, where *n* and *m* are the lengths, *d* is the number of deleted and inserted
  ///   elements and *L* the cost limit. When the changes are few, it is close to
  ///   O(*n* + *m* + *d*²).
  static func commonRuns(
    old: [Int32],
    new: [Int32],
    distinctCount: Int,
    costLimit: Int? = nil
  ) -> [CommonRun] {
    search(old: old, new: new, distinctCount: distinctCount, costLimit: costLimit).runs
  }

  /// ``commonRuns(old:new:distinctCount:costLimit:)``, with the number of diagonal steps its
  /// middle-point searches took: the measure of its work that tests bound.
  static func search(
    old: [Int32],
    new: [Int32],
    distinctCount: Int,
    costLimit: Int? = nil
  ) -> (runs: [CommonRun], diagonalSteps: Int) {
    let limit = max(costLimit ?? Self.costLimit(oldCount: old.count, newCount: new.count), 1)
    var diagonalSteps = 0
    var runs: [CommonRun] = []

    // Common prefix and suffix.
    var prefix = 0
    while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < old.count - prefix, suffix < new.count - prefix,
      old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    if prefix > 0 { runs.append(CommonRun(oldStart: 0, newStart: 0, count: prefix)) }

    let oldMiddle = prefix..<(old.count - suffix)
    let newMiddle = prefix..<(new.count - suffix)
    if !oldMiddle.isEmpty, !newMiddle.isEmpty {
      // Set aside the lines that have no equal on the other side.
      var inOld = [Bool](repeating: false, count: distinctCount)
      var inNew = [Bool](repeating: false, count: distinctCount)
      for index in oldMiddle { inOld[Int(old[index])] = true }
      for index in newMiddle { inNew[Int(new[index])] = true }
      let oldKept = oldMiddle.filter { inNew[Int(old[$0])] }
      let newKept = newMiddle.filter { inOld[Int(new[$0])] }

      if !oldKept.isEmpty, !newKept.isEmpty {
        let reducedOld = oldKept.map { old[$0] }
        let reducedNew = newKept.map { new[$0] }
        var search = MiddleSnakeSearch(old: reducedOld, new: reducedNew, costLimit: limit)
        let reducedRuns = search.run()
        diagonalSteps = search.diagonalSteps
        // Map back, joining matches that are adjacent in the full sequences too.
        for run in reducedRuns {
          for offset in 0..<run.count {
            let oldIndex = oldKept[run.oldStart + offset]
            let newIndex = newKept[run.newStart + offset]
            if let last = runs.last, last.oldStart + last.count == oldIndex,
              last.newStart + last.count == newIndex
            {
              runs[runs.count - 1].count += 1
            } else {
              runs.append(CommonRun(oldStart: oldIndex, newStart: newIndex, count: 1))
            }
          }
        }
      }
    }

    if suffix > 0 {
      let run = CommonRun(
        oldStart: old.count - suffix,
        newStart: new.count - suffix,
        count: suffix
      )
      if let last = runs.last, last.oldStart + last.count == run.oldStart,
        last.newStart + last.count == run.newStart
      {
        runs[runs.count - 1].count += suffix
      } else {
        runs.append(run)
      }
    }
    return (runs, diagonalSteps)
  }
}

/// The divide-and-conquer search, with its two diagonal vectors allocated once.
private struct MiddleSnakeSearch {
  let old: [Int32]
  let new: [Int32]
  /// Furthest-reaching x on each diagonal k = x − y, searching forward; index `k + offset`.
  var forward: [Int]
  /// Smallest x reached on each diagonal, searching backward; index `k + offset`.
  var backward: [Int]
  let offset: Int
  let costLimit: Int
  var runs: [CommonRun] = []
  var diagonalSteps = 0

  init(old: [Int32], new: [Int32], costLimit: Int) {
    self.old = old
    self.new = new
    self.costLimit = costLimit
    // Diagonals of any sub-box lie in -new.count ... old.count; one more on each side for the
    // sentinels.
    offset = new.count + 1
    forward = Array(repeating: 0, count: old.count + new.count + 3)
    backward = Array(repeating: 0, count: old.count + new.count + 3)
  }

  mutating func run() -> [CommonRun] {
    old.withUnsafeBufferPointer { old in
      new.withUnsafeBufferPointer { new in
        forward.withUnsafeMutableBufferPointer { forward in
          backward.withUnsafeMutableBufferPointer { backward in
            var solver = Solver(
              old: old,
              new: new,
              forward: forward,
              backward: backward,
              offset: offset,
              costLimit: costLimit
            )
            solver.solve(oldRange: 0..<old.count, newRange: 0..<new.count)
            runs = solver.runs
            diagonalSteps = solver.diagonalSteps
          }
        }
      }
    }
    return runs
  }
}

private struct Solver {
  let old: UnsafeBufferPointer<Int32>
  let new: UnsafeBufferPointer<Int32>
  let forward: UnsafeMutableBufferPointer<Int>
  let backward: UnsafeMutableBufferPointer<Int>
  let offset: Int
  let costLimit: Int
  var runs: [CommonRun] = []
  var diagonalSteps = 0
  /// Work left, the next on top: boxes to solve and common runs to append after them.
  private var pending: [PendingWork] = []

  private enum PendingWork {
    case box(oldRange: Range<Int>, newRange: Range<Int>)
    case run(CommonRun)
  }

  /// Where a box is cut: at one point, or at two in increasing order.
  private struct Split {
    var first: (Int, Int)
    var second: (Int, Int)?
  }

  init(
    old: UnsafeBufferPointer<Int32>,
    new: UnsafeBufferPointer<Int32>,
    forward: UnsafeMutableBufferPointer<Int>,
    backward: UnsafeMutableBufferPointer<Int>,
    offset: Int,
    costLimit: Int
  ) {
    self.old = old
    self.new = new
    self.forward = forward
    self.backward = backward
    self.offset = offset
    self.costLimit = costLimit
  }

  /// Appends the common runs of `old[oldRange]` and `new[newRange]`, in order.
  ///
  /// The boxes still to solve wait on an explicit stack rather than the call stack, so a long
  /// chain of splits forced by the cost limit cannot overflow it. With optimal splits the stack
  /// holds O(log *d*) boxes, since each split halves the number of edits left; a forced split
  /// takes at least `costLimit` elements off its box.
  mutating func solve(oldRange: Range<Int>, newRange: Range<Int>) {
    pending.append(.box(oldRange: oldRange, newRange: newRange))
    while let work = pending.popLast() {
      switch work {
      case .run(let run):
        appendRun(oldStart: run.oldStart, newStart: run.newStart, count: run.count)
      case .box(let oldRange, let newRange):
        solveBox(oldRange: oldRange, newRange: newRange)
      }
    }
  }

  /// Matches a box's common ends, then splits what lies between them, leaving the parts on
  /// ``pending`` in reverse order so that they are solved first to last.
  private mutating func solveBox(oldRange: Range<Int>, newRange: Range<Int>) {
    var oldLower = oldRange.lowerBound
    var newLower = newRange.lowerBound
    var oldUpper = oldRange.upperBound
    var newUpper = newRange.upperBound

    while oldLower < oldUpper, newLower < newUpper, old[oldLower] == new[newLower] {
      oldLower += 1
      newLower += 1
    }
    appendRun(
      oldStart: oldRange.lowerBound,
      newStart: newRange.lowerBound,
      count: oldLower - oldRange.lowerBound
    )
    while oldLower < oldUpper, newLower < newUpper, old[oldUpper - 1] == new[newUpper - 1] {
      oldUpper -= 1
      newUpper -= 1
    }
    if oldUpper < oldRange.upperBound {
      let count = oldRange.upperBound - oldUpper
      pending.append(.run(CommonRun(oldStart: oldUpper, newStart: newUpper, count: count)))
    }

    guard oldLower < oldUpper, newLower < newUpper,
      let split = middlePoint(
        oldLower: oldLower,
        oldUpper: oldUpper,
        newLower: newLower,
        newUpper: newUpper
      )
    else { return }
    let (oldFirst, newFirst) = split.first
    if let (oldSecond, newSecond) = split.second {
      pending.append(.box(oldRange: oldSecond..<oldUpper, newRange: newSecond..<newUpper))
      pending.append(.box(oldRange: oldFirst..<oldSecond, newRange: newFirst..<newSecond))
    } else {
      pending.append(.box(oldRange: oldFirst..<oldUpper, newRange: newFirst..<newUpper))
    }
    pending.append(.box(oldRange: oldLower..<oldFirst, newRange: newLower..<newFirst))
  }

  private mutating func appendRun(oldStart: Int, newStart: Int, count: Int) {
    guard count > 0 else { return }
    if let last = runs.last, last.oldStart + last.count == oldStart,
      last.newStart + last.count == newStart
    {
      runs[runs.count - 1].count += count
    } else {
      runs.append(CommonRun(oldStart: oldStart, newStart: newStart, count: count))
    }
  }

  /// Finds a point strictly inside the box through which an optimal edit path passes, or, once
  /// `costLimit` edit steps were taken from each end without finding one, the point that has come
  /// furthest (see ``MyersDiff``).
  ///
  /// The box must have no common first or last element, so its edit distance is at least 2 and
  /// the point found splits it into two smaller boxes. Coordinates are relative to the box's
  /// corner; diagonals are k = x − y, so the search runs over k in -n ... m (as `dmin ... dmax`).
  private mutating func middlePoint(
    oldLower: Int,
    oldUpper: Int,
    newLower: Int,
    newUpper: Int
  ) -> Split? {
    let n = oldUpper - oldLower
    let m = newUpper - newLower
    let delta = n - m
    let deltaIsOdd = delta & 1 != 0
    let lowestDiagonal = -m
    let highestDiagonal = n
    let old = UnsafeBufferPointer(rebasing: self.old[oldLower..<oldUpper])
    let new = UnsafeBufferPointer(rebasing: self.new[newLower..<newUpper])
    guard let forwardBase = self.forward.baseAddress, let backwardBase = self.backward.baseAddress
    else { return nil }
    let forward = forwardBase + offset
    let backward = backwardBase + offset
    // A split point must lie in the box and differ from both corners, or the recursion would not
    // shrink; anything else would be a bug, answered with "no split" rather than a crash.
    func split(_ x: Int, _ y: Int) -> (Int, Int)? {
      guard (0...n).contains(x), (0...m).contains(y), x + y > 0, x + y < n + m else { return nil }
      return (oldLower + x, newLower + y)
    }

    var forwardMin = 0
    var forwardMax = 0
    var backwardMin = delta
    var backwardMax = delta
    forward[0] = 0
    backward[delta] = n

    var cost = 1
    while cost <= n + m {
      // Forward: extend every furthest-reaching path by one edit, then along its snake.
      if forwardMin > lowestDiagonal {
        forwardMin -= 1
        forward[forwardMin - 1] = -1
      } else {
        forwardMin += 1
      }
      if forwardMax < highestDiagonal {
        forwardMax += 1
        forward[forwardMax + 1] = -1
      } else {
        forwardMax -= 1
      }
      var k = forwardMax
      while k >= forwardMin {
        let fromBelow = forward[k - 1]
        let fromAbove = forward[k + 1]
        var x = fromBelow >= fromAbove ? fromBelow + 1 : fromAbove
        var y = x - k
        while x < n, y < m, old[x] == new[y] {
          x += 1
          y += 1
        }
        forward[k] = x
        if deltaIsOdd, k >= backwardMin, k <= backwardMax, backward[k] <= x {
          return split(x, y).map { Split(first: $0) }
        }
        k -= 2
      }

      // Backward: the same from the far corner towards the origin.
      if backwardMin > lowestDiagonal {
        backwardMin -= 1
        backward[backwardMin - 1] = Int.max
      } else {
        backwardMin += 1
      }
      if backwardMax < highestDiagonal {
        backwardMax += 1
        backward[backwardMax + 1] = Int.max
      } else {
        backwardMax -= 1
      }
      k = backwardMax
      while k >= backwardMin {
        let fromBelow = backward[k - 1]
        let fromAbove = backward[k + 1]
        var x = fromBelow < fromAbove ? fromBelow : fromAbove - 1
        var y = x - k
        while x > 0, y > 0, old[x - 1] == new[y - 1] {
          x -= 1
          y -= 1
        }
        backward[k] = x
        if !deltaIsOdd, k >= forwardMin, k <= forwardMax, x <= forward[k] {
          return split(x, y).map { Split(first: $0) }
        }
        k -= 2
      }
      diagonalSteps += forwardMax - forwardMin + backwardMax - backwardMin + 2
      if cost >= costLimit {
        let (forwardPoint, backwardPoint) = furthestPoints(
          forward: forward,
          forwardDiagonals: forwardMin...forwardMax,
          backward: backward,
          backwardDiagonals: backwardMin...backwardMax,
          n: n,
          m: m
        )
        // Both points when the forward one comes first, so neither search's work is lost;
        // otherwise the one that came further.
        if forwardPoint.x <= backwardPoint.x, forwardPoint.y <= backwardPoint.y,
          let first = split(forwardPoint.x, forwardPoint.y),
          let second = split(backwardPoint.x, backwardPoint.y)
        {
          return first == second ? Split(first: first) : Split(first: first, second: second)
        }
        let forwardProgress = forwardPoint.x + forwardPoint.y
        let backwardProgress = n + m - backwardPoint.x - backwardPoint.y
        let point = forwardProgress >= backwardProgress ? forwardPoint : backwardPoint
        return split(point.x, point.y).map { Split(first: $0) }
      }
      cost += 1
    }
    // Unreachable for a box without common ends; without a split point, report no matches.
    return nil
  }

  /// The points reached so far that lie furthest from each search's starting corner, counted in
  /// elements of both sequences: x + y forward, (n − x) + (m − y) backward. Every point a search
  /// reached is on some path from its corner, so a split there keeps the result correct.
  private func furthestPoints(
    forward: UnsafeMutablePointer<Int>,
    forwardDiagonals: ClosedRange<Int>,
    backward: UnsafeMutablePointer<Int>,
    backwardDiagonals: ClosedRange<Int>,
    n: Int,
    m: Int
  ) -> (forward: (x: Int, y: Int), backward: (x: Int, y: Int)) {
    var forwardPoint = (x: 0, y: 0)
    var bestSum = -1
    for k in stride(from: forwardDiagonals.lowerBound, through: forwardDiagonals.upperBound, by: 2)
    where 2 * forward[k] - k > bestSum {
      bestSum = 2 * forward[k] - k
      forwardPoint = (forward[k], forward[k] - k)
    }
    var backwardPoint = (x: n, y: m)
    bestSum = Int.max
    for k in stride(
      from: backwardDiagonals.lowerBound,
      through: backwardDiagonals.upperBound,
      by: 2
    ) where 2 * backward[k] - k < bestSum {
      bestSum = 2 * backward[k] - k
      backwardPoint = (backward[k], backward[k] - k)
    }
    return (forwardPoint, backwardPoint)
  }
}

/// The lines of one text, kept as byte offsets into a copy of its UTF-8.
///
/// A text is cut at every `"\n"` (byte 0x0A), so a text with `k` newlines has `k + 1` lines and
/// the empty text has one empty line. A `"\r"` before the newline stays part of its line, so
/// CRLF texts are compared line by line too.
struct TextLines {
  /// The text's UTF-8 bytes.
  let bytes: [UInt8]
  /// Where each line starts, followed by one past the end of the text plus one, so that line
  /// `i` spans `lineStarts[i] ..< lineStarts[i + 1] - 1`.
  let lineStarts: [Int]

  /// Splits a text into lines.
  ///
  /// - Complexity: O(*n*), where *n* is the text's length in bytes.
  init(_ text: String) {
    let bytes = Array(text.utf8)
    var lineStarts = [0]
    lineStarts.reserveCapacity(bytes.count / 16 + 2)
    bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      var offset = 0
      while offset < raw.count,
        let found = memchr(base + offset, 0x0A, raw.count - offset)
      {
        let newline = base.distance(to: UnsafeRawPointer(found))
        lineStarts.append(newline + 1)
        offset = newline + 1
      }
    }
    lineStarts.append(bytes.count + 1)
    self.bytes = bytes
    self.lineStarts = lineStarts
  }

  /// The number of lines, at least one.
  var count: Int { lineStarts.count - 1 }

  /// The byte range of line `index`, without its newline.
  func byteRange(of index: Int) -> Range<Int> {
    lineStarts[index]..<(lineStarts[index + 1] - 1)
  }

  /// The text of line `index`, without its newline.
  func line(_ index: Int) -> String {
    String(decoding: bytes[byteRange(of: index)], as: UTF8.self)
  }
}

/// Two texts whose lines are replaced by integer identifiers: equal lines share an identifier.
///
/// Lines are equal when their bytes are equal. (Upstream compares lines as Swift strings, under
/// canonical equivalence; two lines that differ only in Unicode normalisation are reported as a
/// change here, which is what the bytes on disk say.)
struct InternedLines {
  let old: TextLines
  let new: TextLines
  /// The identifier of each line of the old text.
  let oldIDs: [Int32]
  /// The identifier of each line of the new text.
  let newIDs: [Int32]
  /// The number of distinct lines in both texts; identifiers are `0 ..< distinctCount`.
  let distinctCount: Int

  /// Splits and interns two texts.
  ///
  /// - Complexity: O(*n* + *m*) expected, where *n* and *m* are the texts' lengths in bytes.
  init(old oldText: String, new newText: String) {
    let old = TextLines(oldText)
    let new = TextLines(newText)
    var table = LineTable(capacity: old.count + new.count)
    self.oldIDs = table.intern(old, textIndex: 0)
    self.newIDs = table.intern(new, textIndex: 1)
    self.old = old
    self.new = new
    self.distinctCount = table.distinctCount
  }
}

/// An open-addressing hash set of lines, keyed by their bytes, handing out dense identifiers.
private struct LineTable {
  /// A line that was seen first: where its bytes are, and its hash.
  private struct Entry {
    var textIndex: Int32
    var start: Int
    var count: Int
    var hash: UInt64
  }

  private var slots: [Int32]
  private var entries: [Entry] = []
  private var texts: [[UInt8]] = []
  private let mask: Int

  init(capacity: Int) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = Array(repeating: -1, count: size)
    mask = size - 1
    entries.reserveCapacity(capacity)
  }

  var distinctCount: Int { entries.count }

  /// Returns the identifier of each line of `text`, adding new lines to the table.
  mutating func intern(_ text: TextLines, textIndex: Int32) -> [Int32] {
    texts.append(text.bytes)
    var ids = [Int32]()
    ids.reserveCapacity(text.count)
    text.bytes.withUnsafeBytes { raw in
      for index in 0..<text.count {
        let range = text.byteRange(of: index)
        ids.append(id(of: raw, range, textIndex: textIndex))
      }
    }
    return ids
  }

  private mutating func id(
    of raw: UnsafeRawBufferPointer,
    _ range: Range<Int>,
    textIndex: Int32
  ) -> Int32 {
    let hash = Self.hash(raw, range)
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let candidate = slots[slot]
      if candidate < 0 {
        let id = Int32(entries.count)
        entries.append(
          Entry(textIndex: textIndex, start: range.lowerBound, count: range.count, hash: hash)
        )
        slots[slot] = id
        return id
      }
      let entry = entries[Int(candidate)]
      if entry.hash == hash, entry.count == range.count,
        equalBytes(entry, raw, range, textIndex: textIndex)
      {
        return candidate
      }
      slot = (slot + 1) & mask
    }
  }

  private func equalBytes(
    _ entry: Entry,
    _ raw: UnsafeRawBufferPointer,
    _ range: Range<Int>,
    textIndex: Int32
  ) -> Bool {
    if range.isEmpty { return true }
    if entry.textIndex == textIndex {
      guard let base = raw.baseAddress else { return false }
      return memcmp(base + entry.start, base + range.lowerBound, range.count) == 0
    }
    return texts[Int(entry.textIndex)].withUnsafeBytes { other in
      guard let otherBase = other.baseAddress, let base = raw.baseAddress else { return false }
      return memcmp(otherBase + entry.start, base + range.lowerBound, range.count) == 0
    }
  }

  /// A fast, non-cryptographic hash of a byte range, eight bytes at a time.
  private static func hash(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>) -> UInt64 {
    let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    var hash = UInt64(truncatingIfNeeded: range.count) &* multiplier
    var offset = range.lowerBound
    while offset + 8 <= range.upperBound {
      let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      hash = (hash ^ word) &* multiplier
      hash ^= hash >> 29
      offset += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while offset < range.upperBound {
      tail |= UInt64(raw[offset]) << shift
      shift += 8
      offset += 1
    }
    hash = (hash ^ tail) &* multiplier
    hash ^= hash >> 32
    return hash
  }
}

/// Writes hunks in the unified format described at ``lineDiff(old:new:costLimit:)``.
///
/// The output's size is counted first, then its UTF-8 bytes are copied straight into the string's
/// storage, the lines as they are in the texts: several times faster than appending strings.
///
/// - Complexity: O(*b*), where *b* is the number of bytes of the lines shown.
func render(_ hunks: [Hunk], old: TextLines, new: TextLines) -> String {
  // Each shown line: a newline, a marker of up to 3 bytes, the line and perhaps a 2-byte `¬`;
  // each header: 14 fixed bytes and four numbers of at most 20 digits.
  var capacity = 0
  for hunk in hunks {
    capacity += 100
    for line in hunk.lines {
      switch line {
      case .context(let index), .removed(let index): capacity += old.byteRange(of: index).count + 6
      case .added(let index): capacity += new.byteRange(of: index).count + 6
      }
    }
  }
  guard capacity > 0 else { return "" }
  return old.bytes.withUnsafeBufferPointer { oldBytes in
    new.bytes.withUnsafeBufferPointer { newBytes in
      String(unsafeUninitializedCapacity: capacity) { buffer in
        var output = DiffWriter(buffer: buffer)
        for (number, hunk) in hunks.enumerated() {
          if number > 0 { output.append(byte: 0x0A) }
          output.append("@@ \u{2212}")
          output.append(hunk.oldStart + 1)
          output.append(",")
          output.append(hunk.oldCount)
          output.append(" +")
          output.append(hunk.newStart + 1)
          output.append(",")
          output.append(hunk.newCount)
          output.append(" @@")
          for line in hunk.lines {
            switch line {
            case .context(let index): output.appendLine(.unchanged, old, oldBytes, index)
            case .removed(let index): output.appendLine(.removed, old, oldBytes, index)
            case .added(let index): output.appendLine(.added, new, newBytes, index)
            }
          }
        }
        return output.count
      }
    }
  }
}

/// Writes a diff's UTF-8 bytes into storage sized beforehand by ``render(_:old:new:)``.
private struct DiffWriter {
  enum Marker {
    /// A figure space (U+2007).
    case unchanged
    /// `−` (U+2212).
    case removed
    /// `+`.
    case added
  }

  let buffer: UnsafeMutableBufferPointer<UInt8>
  private(set) var count = 0

  init(buffer: UnsafeMutableBufferPointer<UInt8>) {
    self.buffer = buffer
  }

  mutating func append(byte: UInt8) {
    guard count < buffer.count else { return }
    buffer[count] = byte
    count += 1
  }

  mutating func append(_ text: StaticString) {
    text.withUTF8Buffer { append(contentsOf: $0) }
  }

  mutating func append(_ number: Int) {
    var digits = number.description
    digits.withUTF8 { append(contentsOf: $0) }
  }

  mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    // The size counted beforehand is an upper bound, so the test never fails; it keeps a bug
    // from writing past the storage.
    guard let source = bytes.baseAddress, let target = buffer.baseAddress,
      count + bytes.count <= buffer.count
    else { return }
    (target + count).update(from: source, count: bytes.count)
    count += bytes.count
  }

  /// Appends a newline, the marker and line `index` of `text`, and `¬` after a trailing space.
  mutating func appendLine(
    _ marker: Marker,
    _ text: TextLines,
    _ bytes: UnsafeBufferPointer<UInt8>,
    _ index: Int
  ) {
    append(byte: 0x0A)
    switch marker {
    case .unchanged: append("\u{2007}")
    case .removed: append("\u{2212}")
    case .added: append(byte: UInt8(ascii: "+"))
    }
    let range = text.byteRange(of: index)
    append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
    // The byte test is the fast path; the character test agrees with how upstream decides (a
    // space after a prepended mark is part of a longer character).
    if let last = range.last, bytes[last] == UInt8(ascii: " "), text.line(index).hasSuffix(" ") {
      append("¬")
    }
  }
}
