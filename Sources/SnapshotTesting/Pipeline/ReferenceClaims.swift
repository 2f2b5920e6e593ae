import Foundation
import RunRecord
import Testing

/// Which case of a parameterized test first used each reference in this process, so that two
/// cases never share one.
///
/// Without `named:` or `.snapshots(naming: .arguments)`, every case of
/// `@Test(arguments: [1, 2, 3]) func price(_ n: Int)` would use `price.1.txt`: each would
/// overwrite or compare against another's, and the outcome would depend on the order they ran.
/// The second case to reach a reference fails instead, before anything is written. Repetitions
/// of one case (`--repetitions`) share their references as they should.
final class ReferenceClaims: @unchecked Sendable {
  static let shared = ReferenceClaims()

  private let lock = NSLock()
  /// The case that first used each reference, by test and reference path. Another test sharing
  /// a reference is upstream's layout at work, not a case of this one, so tests are kept apart.
  private var claims: [String: TestCaseArguments] = [:]

  /// Claims `referencePath` for the running case of the running test, or fails naming the case
  /// that claimed it first and the two fixes.
  func claim(
    _ referencePath: String,
    by testCase: TestCaseArguments,
    context: AssertionContext
  ) throws(AssertionFailure) {
    let test = Test.current.map { String(describing: $0.id) } ?? context.testName
    let key = "\(test)\u{0}\(referencePath)"
    let earlier: TestCaseArguments? = lock.withLock {
      if let existing = claims[key] { return existing }
      claims[key] = testCase
      return nil
    }
    guard let earlier, earlier.key != testCase.key else { return }
    let name = sanitizePathComponent(context.testName)
    throw AssertionFailure(
      description: """
        Two cases of "\(context.testName)" use the same reference "\(referencePath)": the case \
        with \(earlier.description) used it first, so this case (\(testCase.description)) \
        would overwrite it or be compared with it. Nothing was compared or written.

        Give each case references of its own, either:
          - a snapshot name derived from the arguments: assertSnapshot(of: …, as: …, named: "…"), or
          - the trait .snapshots(naming: .arguments), which puts the arguments into the file \
        name: \(name)-\(testCase.fileNamePart).<n>.<extension>
        """
    )
  }
}
