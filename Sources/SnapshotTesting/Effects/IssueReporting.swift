import Foundation
import Testing
import XCTest

/// Whether the calling code runs inside a Swift Testing test (rather than an XCTest case).
var isRunningSwiftTesting: Bool { Test.current != nil }

/// Reports a failure to the test framework that is running: a Swift Testing `Issue` at the given
/// source location, or an XCTest failure at the given file and line.
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
  if isRunningSwiftTesting {
    Issue.record(
      Comment(rawValue: message()),
      sourceLocation: safeSourceLocation(
        fileID: String(describing: fileID),
        filePath: String(describing: filePath),
        line: Int(line),
        column: Int(column)
      )
    )
  } else {
    XCTFail(message(), file: filePath, line: line)
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
