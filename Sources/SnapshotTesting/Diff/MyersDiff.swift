/// A stretch of lines that two sequences share: `count` equal elements starting at `oldStart` in
/// the old sequence and at `newStart` in the new one.
struct CommonRun: Equatable {
  var oldStart: Int
  var newStart: Int
  var count: Int
}

/// A minimal line diff: Eugene W. Myers' O((N+M)·D) algorithm in its linear-space form.
///
/// "An O(ND) Difference Algorithm and Its Variations" (Algorithmica, 1986), section 4b: search
/// for the middle of an optimal edit path from both ends at once, split there, and solve both
/// halves. Before that, a common prefix and suffix are matched outright, and lines that occur in
/// only one of the sequences are set aside, since no common subsequence can contain them.
enum MyersDiff {
  /// Returns a longest common subsequence of `old` and `new`, as runs of equal elements in
  /// increasing order.
  ///
  ///     MyersDiff.commonRuns(old: [1, 2, 3, 4], new: [1, 9, 3, 4])
  ///     // [CommonRun(oldStart: 0, newStart: 0, count: 1),
  ///     //  CommonRun(oldStart: 2, newStart: 2, count: 2)]
  ///
  /// Every element not covered by a run is a deletion (old) or an insertion (new), and their
  /// number is the smallest possible.
  ///
  /// - Parameter distinctCount: One more than the largest element (elements are identifiers in
  ///   `0 ..< distinctCount`).
  /// - Complexity: O((*n* + *m*) · *d*) time and O(*n* + *m* + `distinctCount`) memory, where
  ///   *n* and *m* are the lengths and *d* is the number of deleted and inserted elements. When
  ///   the changes are few, it is close to O(*n* + *m* + *d*²).
  static func commonRuns(old: [Int32], new: [Int32], distinctCount: Int) -> [CommonRun] {
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
        var search = MiddleSnakeSearch(old: reducedOld, new: reducedNew)
        let reducedRuns = search.run()
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
    return runs
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
  var runs: [CommonRun] = []

  init(old: [Int32], new: [Int32]) {
    self.old = old
    self.new = new
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
              offset: offset
            )
            solver.solve(oldRange: 0..<old.count, newRange: 0..<new.count)
            runs = solver.runs
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
  var runs: [CommonRun] = []

  /// Appends the common runs of `old[oldRange]` and `new[newRange]`, in order.
  ///
  /// Recursion depth is O(log *d*): each split halves the number of edits left.
  mutating func solve(oldRange: Range<Int>, newRange: Range<Int>) {
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

    if oldLower < oldUpper, newLower < newUpper,
      let (oldMiddle, newMiddle) = middlePoint(
        oldLower: oldLower,
        oldUpper: oldUpper,
        newLower: newLower,
        newUpper: newUpper
      )
    {
      solve(oldRange: oldLower..<oldMiddle, newRange: newLower..<newMiddle)
      solve(oldRange: oldMiddle..<oldUpper, newRange: newMiddle..<newUpper)
    }

    appendRun(oldStart: oldUpper, newStart: newUpper, count: oldRange.upperBound - oldUpper)
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

  /// Finds a point strictly inside the box through which an optimal edit path passes.
  ///
  /// The box must have no common first or last element, so its edit distance is at least 2 and
  /// the point found splits it into two smaller boxes. Coordinates are relative to the box's
  /// corner; diagonals are k = x − y, so the search runs over k in -n ... m (as `dmin ... dmax`).
  private func middlePoint(
    oldLower: Int,
    oldUpper: Int,
    newLower: Int,
    newUpper: Int
  ) -> (Int, Int)? {
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
          return split(x, y)
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
          return split(x, y)
        }
        k -= 2
      }
      cost += 1
    }
    // Unreachable for a box without common ends; without a split point, report no matches.
    return nil
  }
}
