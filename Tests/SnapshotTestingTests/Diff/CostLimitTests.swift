import Testing
import TestSupport

@testable import SnapshotTesting

/// The line diff's cost limit: below it the diff is minimal, beyond it the work stays bounded and
/// the diff stays correct.
@Suite struct CostLimitTests {
  /// Two unrelated sequences of 0s and 1s: every alignment matches somewhere, so an exact search
  /// explores about d² diagonals.
  func coinFlips(_ count: Int, seed: UInt64) -> [Int32] {
    var generator = SplitMix64(state: seed)
    return randomSequence(count: count, alphabet: 2, using: &generator)
  }

  @Test func theLimitBoundsTheWorkOnUnrelatedRepetitiveInputs() {
    let old = coinFlips(6_000, seed: 1)
    let new = coinFlips(6_000, seed: 2)
    let exact = MyersDiff.search(old: old, new: new, distinctCount: 2, costLimit: .max)
    let limited = MyersDiff.search(old: old, new: new, distinctCount: 2, costLimit: 32)
    #expect(runsAreValid(exact.runs, old, new))
    #expect(runsAreValid(limited.runs, old, new))
    // The exact search does millions of steps here, the limited one a few per element.
    #expect(exact.diagonalSteps > 3_000_000)
    #expect(limited.diagonalSteps < 8 * (old.count + new.count) * 32 / 10)
    // Longer than minimal, but not by much.
    let lcs = exact.runs.reduce(0) { $0 + $1.count }
    let matched = limited.runs.reduce(0) { $0 + $1.count }
    #expect(matched <= lcs)
    #expect(matched * 10 >= lcs * 9)
  }

  @Test func aLimitedLineDiffStillTurnsOldIntoNew() throws {
    let old = coinFlips(3_000, seed: 3).map { $0 == 0 ? "x" : "y" }.joined(separator: "\n")
    let new = coinFlips(3_000, seed: 4).map { $0 == 0 ? "x" : "y" }.joined(separator: "\n")
    let diff = try #require(lineDiff(old: old, new: new, costLimit: 8))
    #expect(applyPrintedDiff(diff, to: old) == new)
    #expect(applyPrintedDiff(diff, to: "x\n" + old) != new, "the check can fail")
  }

  @Test(arguments: [1, 2, 3, 5])
  func smallInputsAreMinimalWithinTheLimitAndCorrectBeyondIt(limit: Int) throws {
    var generator = SplitMix64(state: UInt64(100 + limit))
    var shorterThanMinimal = 0
    for _ in 0..<400 {
      let alphabet = Int32.random(in: 2...4, using: &generator)
      let old = randomSequence(
        count: Int.random(in: 0...30, using: &generator),
        alphabet: alphabet,
        using: &generator
      )
      let new = randomSequence(
        count: Int.random(in: 0...30, using: &generator),
        alphabet: alphabet,
        using: &generator
      )
      let lcs = naiveLCSLength(old, new)
      let editDistance = old.count + new.count - 2 * lcs
      let runs = MyersDiff.commonRuns(
        old: old,
        new: new,
        distinctCount: Int(alphabet),
        costLimit: limit
      )
      #expect(runsAreValid(runs, old, new), "\(old) \(new)")
      let matched = runs.reduce(0) { $0 + $1.count }
      #expect(matched <= lcs)
      if editDistance <= 2 * limit {
        #expect(matched == lcs, "limit \(limit), \(old) \(new)")
      } else if matched < lcs {
        shorterThanMinimal += 1
      }

      // The same as text: the printed diff turns old into new.
      let oldText = old.map { "line \($0)" }.joined(separator: "\n")
      let newText = new.map { "line \($0)" }.joined(separator: "\n")
      if let diff = lineDiff(old: oldText, new: newText, costLimit: limit) {
        #expect(applyPrintedDiff(diff, to: oldText) == newText, "\(old) \(new)")
      } else {
        #expect(old == new)
      }
    }
    // The limit did make a difference somewhere, so the cases above tested it.
    #expect(shorterThanMinimal > 0)
  }

  @Test func theDefaultLimitLeavesOrdinaryDiffsMinimal() {
    #expect(MyersDiff.costLimit(oldCount: 0, newCount: 0) == 2_048)
    #expect(MyersDiff.costLimit(oldCount: 200_000, newCount: 200_000) == 2_048)
    #expect(MyersDiff.costLimit(oldCount: 2_000_000, newCount: 2_000_000) == 4_000)
    var generator = SplitMix64(state: 9)
    let old = randomSequence(count: 3_000, alphabet: 3, using: &generator)
    let new = randomSequence(count: 3_000, alphabet: 3, using: &generator)
    let runs = MyersDiff.commonRuns(old: old, new: new, distinctCount: 3)
    #expect(runs.reduce(0) { $0 + $1.count } == naiveLCSLength(old, new))
  }
}
