import Foundation
import Testing
import XCTest

/// Whether the calling code runs inside a Swift Testing test: on its task or a child task of it.
var isRunningSwiftTesting: Bool { Test.current != nil }

/// Reports a failure to the test that runs it: a Swift Testing `Issue` at the given source
/// location, or an XCTest failure at the given file and line. A failure that no test can own (an
/// assertion in a `DispatchQueue` block, a `Thread` or a `Task.detached` of a Swift Testing test,
/// or one made after its test ended) still fails the run.
///
/// Libraries that wrap the assertions use it to report their own failures the same way.
@_spi(Internals)
public func recordIssue(
  _ message: @autoclosure () -> String,
  fileID: StaticString,
  filePath: StaticString,
  line: UInt,
  column: UInt
) {
  reportFailure(
    message(),
    at: safeSourceLocation(
      fileID: String(describing: fileID),
      filePath: String(describing: filePath),
      line: Int(line),
      column: Int(column)
    ),
    xcTestLocation: (filePath, line)
  )
}

/// Reports a failure to the test that owns it (``IssueOwner``): the one place every entry point
/// (`assertSnapshot`, `expectSnapshot`, `requireSnapshot`, `assertInlineSnapshot`) reports
/// through. XCTest needs a compile-time file path for a failure's location; without one
/// (`xcTestLocation` is `nil`, as for a `SourceLocation`), the location starts the message.
func reportFailure(
  _ message: String,
  at sourceLocation: SourceLocation,
  xcTestLocation: (file: StaticString, line: UInt)?
) {
  switch IssueOwner.current {
  case .swiftTestingTest:
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  case .xcTestCase:
    if let (file, line) = xcTestLocation {
      XCTFail(message, file: file, line: line)
    } else {
      XCTFail("\(sourceLocation.filePath):\(sourceLocation.line): \(message)")
    }
  case .noTest:
    reportUnownedFailure(message, at: sourceLocation)
  }
}

/// Which test a failure reported now, on this thread, reaches.
///
/// Swift Testing knows its test only on the test's task and the child tasks that inherit it
/// (`Test.current`); XCTest fails the one test case that runs, from any thread, and drops a failure
/// made when none runs. So a failure on a queue, a thread or a detached task of a Swift Testing
/// test, or one made after its test ended, has no owner: `XCTFail` would drop it and the run would
/// pass.
enum IssueOwner: Equatable {
  /// The Swift Testing test whose task, or a child task of it, reports the failure.
  case swiftTestingTest
  /// The XCTest test case that runs now, or an unknown state: the observer of XCTest was installed
  /// after a test case started (see ``XCTestActivity``), so `XCTFail` is the best guess.
  case xcTestCase
  /// No test: the failure is reported by ``reportUnownedFailure(_:at:)``.
  case noTest

  /// Decides from what is known: whether the caller runs in a Swift Testing test, and whether an
  /// XCTest test case runs (`nil`: not known).
  static func decide(inSwiftTestingTest: Bool, xcTestCaseIsRunning: Bool?) -> IssueOwner {
    if inSwiftTestingTest { return .swiftTestingTest }
    return xcTestCaseIsRunning == false ? .noTest : .xcTestCase
  }

  /// The owner of a failure reported now, on this thread.
  static var current: IssueOwner {
    XCTestActivity.observe()
    return decide(
      inSwiftTestingTest: isRunningSwiftTesting,
      xcTestCaseIsRunning: XCTestActivity.isTestCaseRunning
    )
  }
}

/// A `SourceLocation` from values a caller may have passed by hand. Swift Testing traps on a file
/// ID without a module (`"MyTests.swift"`) or on a line or column below 1; a helper that forwards
/// a hand-written `fileID:` must get a misplaced issue at worst, never a crashed test run.
func safeSourceLocation(fileID: String, filePath: String, line: Int, column: Int) -> SourceLocation
{
  let qualifiedFileID: String
  if let slash = fileID.firstIndex(of: "/"), slash != fileID.startIndex,
    fileID.index(after: slash) != fileID.endIndex
  {
    qualifiedFileID = fileID
  } else {
    let fileName =
      fileID.split(separator: "/").last.map(String.init)
      ?? URL(fileURLWithPath: filePath).lastPathComponent
    qualifiedFileID = "UnknownModule/\(fileName.isEmpty ? "UnknownFile.swift" : fileName)"
  }
  return SourceLocation(
    fileID: qualifiedFileID,
    filePath: filePath,
    line: max(1, line),
    column: max(1, column)
  )
}

/// Reports what a strategy warned about (``SnapshotWarning``): a Swift Testing warning, which
/// does not fail the test, or, under XCTest, which has no warnings, a line on standard error in
/// the compiler's `file:line: warning:` form.
func reportWarning(_ message: String, context: AssertionContext) {
  if isRunningSwiftTesting {
    Issue.record(Comment(rawValue: message), severity: .warning, sourceLocation: context.sourceLocation)
  } else {
    FileHandle.standardError.write(
      Data("\(context.filePath):\(context.line): warning: \(message)\n".utf8)
    )
  }
}
