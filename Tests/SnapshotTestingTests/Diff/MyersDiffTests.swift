import Foundation
import TestSupport
import Testing

@testable import SnapshotTesting

/// The length of a longest common subsequence, by the textbook O(nm) table.
func naiveLCSLength(_ a: [Int32], _ b: [Int32]) -> Int {
  var previous = [Int](repeating: 0, count: b.count + 1)
  var current = previous
  for i in 1...max(a.count, 1) where i <= a.count {
    for j in 1...max(b.count, 1) where j <= b.count {
      current[j] =
        a[i - 1] == b[j - 1] ? previous[j - 1] + 1 : max(previous[j], current[j - 1])
    }
    swap(&previous, &current)
  }
  return previous[b.count]
}

/// Checks that runs are increasing, disjoint, in bounds and cover equal elements.
func runsAreValid(_ runs: [CommonRun], _ a: [Int32], _ b: [Int32]) -> Bool {
  var oldCursor = 0
  var newCursor = 0
  for run in runs {
    guard run.count > 0, run.oldStart >= oldCursor, run.newStart >= newCursor,
      run.oldStart + run.count <= a.count, run.newStart + run.count <= b.count
    else { return false }
    for offset in 0..<run.count where a[run.oldStart + offset] != b[run.newStart + offset] {
      return false
    }
    oldCursor = run.oldStart + run.count
    newCursor = run.newStart + run.count
  }
  return true
}

func randomSequence(
  count: Int,
  alphabet: Int32,
  using generator: inout SplitMix64
) -> [Int32] {
  (0..<count).map { _ in Int32.random(in: 0..<alphabet, using: &generator) }
}

/// Edits a sequence in a few random places, so that the two share long stretches.
func mutate(_ base: [Int32], edits: Int, alphabet: Int32, using generator: inout SplitMix64)
  -> [Int32]
{
  var result = base
  for _ in 0..<edits {
    let position = Int.random(in: 0...result.count, using: &generator)
    switch Int.random(in: 0..<3, using: &generator) {
    case 0 where position < result.count: result.remove(at: position)
    case 1 where position < result.count:
      result[position] = Int32.random(in: 0..<alphabet, using: &generator)
    default: result.insert(Int32.random(in: 0..<alphabet, using: &generator), at: position)
    }
  }
  return result
}

@Suite struct MyersDiffTests {
  @Test(arguments: [2, 3, 5, 26])
  func editCountIsMinimalOnRandomInputs(alphabet: Int32) {
    var generator = SplitMix64(state: UInt64(alphabet))
    for _ in 0..<300 {
      let a = randomSequence(
        count: Int.random(in: 0...25, using: &generator),
        alphabet: alphabet,
        using: &generator
      )
      let b =
        Bool.random(using: &generator)
        ? randomSequence(
          count: Int.random(in: 0...25, using: &generator),
          alphabet: alphabet,
          using: &generator
        )
        : mutate(
          a,
          edits: Int.random(in: 1...6, using: &generator),
          alphabet: alphabet,
          using: &generator
        )
      let runs = MyersDiff.commonRuns(old: a, new: b, distinctCount: Int(alphabet))
      #expect(runsAreValid(runs, a, b), "\(a) \(b)")
      let matched = runs.reduce(0) { $0 + $1.count }
      #expect(matched == naiveLCSLength(a, b), "\(a) \(b)")
    }
  }

  @Test func editCountIsMinimalOnLargerSimilarInputs() {
    var generator = SplitMix64(state: 7)
    for _ in 0..<20 {
      let a = randomSequence(count: 400, alphabet: 4, using: &generator)
      let b = mutate(a, edits: 40, alphabet: 4, using: &generator)
      let runs = MyersDiff.commonRuns(old: a, new: b, distinctCount: 4)
      #expect(runsAreValid(runs, a, b))
      #expect(runs.reduce(0) { $0 + $1.count } == naiveLCSLength(a, b))
    }
  }

  @Test func emptyInputs() {
    #expect(MyersDiff.commonRuns(old: [], new: [], distinctCount: 0) == [])
    #expect(MyersDiff.commonRuns(old: [0, 1], new: [], distinctCount: 2) == [])
    #expect(MyersDiff.commonRuns(old: [], new: [0, 1], distinctCount: 2) == [])
  }

  @Test func equalInputsAreOneRun() {
    let a: [Int32] = [0, 1, 0, 1, 2]
    #expect(
      MyersDiff.commonRuns(old: a, new: a, distinctCount: 3)
        == [CommonRun(oldStart: 0, newStart: 0, count: 5)]
    )
  }

  @Test func manyRepeatedLines() {
    // 3,000 equal lines with a few different ones inserted and a few equal ones removed.
    let old = [Int32](repeating: 0, count: 3_000)
    var new = old
    new.removeSubrange(2_000..<2_003)
    new.insert(1, at: 1_500)
    new.insert(1, at: 10)
    let runs = MyersDiff.commonRuns(old: old, new: new, distinctCount: 2)
    #expect(runsAreValid(runs, old, new))
    #expect(runs.reduce(0) { $0 + $1.count } == 2_997)

    // Periodic text where every shifted alignment matches too.
    let periodic = (0..<2_000).map { Int32($0 % 5) }
    var edited = periodic
    edited[700] = 9
    edited.remove(at: 1_300)
    let periodicRuns = MyersDiff.commonRuns(old: periodic, new: edited, distinctCount: 10)
    #expect(runsAreValid(periodicRuns, periodic, edited))
    #expect(periodicRuns.reduce(0) { $0 + $1.count } == 1_998)
  }
}
