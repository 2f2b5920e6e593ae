import Foundation
import RunRecord
import SnapshotTesting

// The child process of `KilledRecordingTests` and `KilledFolderRecordingTests`: records 8 MiB
// references (or, with `folders`, `.directory` references of 200 files) into a folder, to be
// killed with SIGKILL at any moment. A program of its own rather than a test of the test bundle
// run with `--filter`, so that no entry point shows up as a skipped test in a normal run.
//
//     RecordingChild loop|once FOLDER [named] [folders]
//
// `loop` writes "started" beside FOLDER, then records `A` and `B` in turn until killed; `once`
// records `C` and exits. `named` disables Linux's unnamed temporary files (the fallback path).

let arguments = CommandLine.arguments
guard arguments.count >= 3, ["loop", "once"].contains(arguments[1]) else {
  FileHandle.standardError.write(
    Data("usage: RecordingChild loop|once FOLDER [named] [folders]\n".utf8))
  exit(2)
}
let folder = arguments[2]
let size = 8 << 20
func text(_ letter: Character) -> String {
  String(repeating: letter, count: size - 1) + "\n"
}
func write(_ text: String) {
  _ = verifySnapshot(
    of: text,
    as: .lines,
    named: "large",
    record: .all,
    snapshotDirectory: folder,
    testName: "killed()"
  )
}
/// 200 files of 16 KiB, named and filled after `letter`: two versions share no file (the same
/// as `KilledFolderRecordingTests.files`).
func files(_ letter: Character) -> [String: Data] {
  var files: [String: Data] = [:]
  for index in 0..<200 {
    files["part-\(index % 10)/\(letter)-\(index).txt"] =
      Data((String(repeating: letter, count: 16_383) + "\n").utf8)
  }
  return files
}
func writeFolder(_ files: [String: Data]) {
  _ = verifySnapshot(
    of: files,
    as: .directory,
    named: "site",
    record: .all,
    snapshotDirectory: folder,
    testName: "killed()"
  )
}
if arguments.dropFirst(3).contains("folders") {
  guard arguments[1] == "loop" else {
    writeFolder(files("C"))
    exit(0)
  }
  let (a, b) = (files("A"), files("B"))
  _ = FileManager.default.createFile(atPath: folder + "/../started", contents: nil)
  for round in 0..<1000 { writeFolder(round % 2 == 0 ? a : b) }
  exit(0)
}
TestHooks.with(UnnamedFile.Disabled.self, arguments.dropFirst(3).contains("named")) {
  guard arguments[1] == "loop" else { return write(text("C")) }
  let (a, b) = (text("A"), text("B"))
  _ = FileManager.default.createFile(atPath: folder + "/../started", contents: nil)
  for round in 0..<1000 { write(round % 2 == 0 ? a : b) }
}
