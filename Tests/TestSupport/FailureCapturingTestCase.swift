import XCTest

/// An `XCTestCase` that can turn the failures a closure records into values, so a test can check
/// what an assertion reports instead of failing with it. Shared by the test targets.
open class FailureCapturingTestCase: XCTestCase {
  private var capturedFailures: [(message: String, line: Int)] = []
  private var isCapturingFailures = false

  override open func recordFailure(
    withDescription description: String,
    inFile filePath: String,
    atLine lineNumber: Int,
    expected: Bool
  ) {
    if isCapturingFailures {
      capturedFailures.append((description, lineNumber))
    } else {
      super.recordFailure(
        withDescription: description,
        inFile: filePath,
        atLine: lineNumber,
        expected: expected
      )
    }
  }

  /// The failures `body` records, with their lines, instead of recording them.
  public func capturingFailures(_ body: () -> Void) -> [(message: String, line: Int)] {
    isCapturingFailures = true
    capturedFailures = []
    body()
    isCapturingFailures = false
    return capturedFailures
  }
}
