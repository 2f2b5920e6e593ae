import Foundation
import RunRecord
import TestSupport
import Testing

@testable import SnapshotTesting

/// The cases of a parameterized test never share a reference: without a name per case the second
/// case to reach one fails and writes nothing; with `.snapshots(naming: .arguments)` each case has
/// its own. The cases run in a child process (`ParameterizedChild`, a program that runs Swift
/// Testing itself, so no entry point of this bundle is skipped in a normal run), so that Swift
/// Testing runs them in parallel and repeats them (`--repetitions 3`), as a user's run would.
@Suite(.serialized) struct ParameterizedReferenceTests {
  /// Runs `test` of `ParameterizedChild` (Tests/ParameterizedChild) three times over; returns
  /// each case's outcomes.
  func runChild(_ test: String, in folder: URL) throws -> [Int: [String]] {
    let process = Process()
    let child: URL = try #require(
      builtProduct("ParameterizedChild"),
      "ParameterizedChild was not built beside the test bundle"
    )
    process.executableURL = child
    process.arguments = [
      "--testing-library", "swift-testing", "--repetitions", "3", "--filter", test,
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["PARAMETERIZED_CHILD_FOLDER"] = folder.path
    environment["SNAPSHOT_ARTIFACTS"] = folder.appendingPathComponent("artifacts").path
    environment["SNAPSHOT_TESTING_RECORD"] = "missing"
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    var outcomes: [Int: [String]] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
    where name.hasPrefix("outcome-") {
      let n = try #require(Int(name.split(separator: "-")[1]))
      let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      outcomes[n, default: []].append(text)
    }
    return outcomes
  }

  @Test func casesWithoutANameOfTheirOwnNeverShareAReference() throws {
    try withTemporaryDirectory { folder in
      let outcomes = try runChild("childSharesOneReference", in: folder)

      #expect(outcomes.values.map(\.count) == [3, 3, 3])
      // One case owns the reference: recorded once, then matched on each repetition.
      let owners = outcomes.filter { $0.value.sorted() == ["matched", "matched", "recorded"] }
      let owner = try #require(owners.keys.first, "\(outcomes)")
      #expect(owners.count == 1)
      // `price(_:)` made file-safe, as upstream does.
      let reference = folder.appendingPathComponent("references/price-_.1.txt")
      #expect(try String(contentsOf: reference, encoding: .utf8) == "price \(owner)\n")
      #expect(fileNames(in: folder.appendingPathComponent("references")) == ["price-_.1.txt"])
      // The others fail every time, naming both cases and the two fixes.
      for (n, messages) in outcomes where n != owner {
        for message in messages {
          #expect(
            message.hasPrefix(
              #"Two cases of "price(_:)" use the same reference "\#(reference.path)""#
            ),
            "\(message)"
          )
          #expect(message.contains("the case with n → \(owner) used it first"))
          #expect(message.contains("so this case (n → \(n)) would overwrite it"))
          #expect(message.contains("named:"))
          #expect(
            message.contains(
              ".snapshots(naming: .arguments), which puts the arguments into the file name: price-_-n_\(n).<n>.<extension>"
            )
          )
        }
      }
    }
  }

  @Test func namingByArgumentsGivesEachCaseItsOwnReference() throws {
    try withTemporaryDirectory { folder in
      let outcomes = try runChild("childNamesByArguments", in: folder)

      #expect(outcomes.keys.sorted() == [1, 2, 3])
      for (n, messages) in outcomes {
        #expect(messages.sorted() == ["matched", "matched", "recorded"], "case \(n)")
        let reference = folder.appendingPathComponent("references/price-_-n_\(n).1.txt")
        #expect(try String(contentsOf: reference, encoding: .utf8) == "price \(n)\n")
      }
    }
  }

  /// The name part of each case: plain values as they are, anything else as a hash.
  @Test(arguments: ["plain", "a b", "../etc", String(repeating: "x", count: 25), "é"])
  func aCasesNamePartIsFileSafeAndStable(_ value: String) throws {
    let part = try #require(TestCaseArguments.current).fileNamePart
    if value == "plain" {
      #expect(part == "value_plain")
    } else {
      #expect(part.hasPrefix("value_h"), "\(part)")
      #expect(part.count == "value_h".count + 8)
    }
    #expect(sanitizePathComponent(part) == part)
    #expect(try #require(TestCaseArguments.current).fileNamePart == part)
  }
}
