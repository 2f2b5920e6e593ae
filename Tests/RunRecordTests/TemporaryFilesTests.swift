import Foundation
import Testing

@testable import RunRecord

@Suite struct TemporaryFilesTests {
  @Test func namesItsOwnFilesAndNoOthers() {
    let name = (TemporaryFiles.path(for: "/refs/test.1.txt") as NSString).lastPathComponent
    #expect(name.hasPrefix(".test.1.txt.\(getpid())."))
    #expect(TemporaryFiles.writer(of: name) == getpid())
    #expect(!TemporaryFiles.isStray(name), "this process is still running")
    // Earlier versions' names, with a UUID and no process id.
    #expect(TemporaryFiles.writer(of: ".test.1.txt.\(UUID().uuidString).tmp") == 0)
    for other in [
      ".gitattributes", "test.1.txt", ".test.1.txt.tmp", ".x.12.abc.tmp",
      "a.1.0123456789abcdef.tmp",
    ] {
      #expect(TemporaryFiles.writer(of: other) == nil, "\(other)")
    }
  }

  /// Found by fuzzing (Fuzz/FuzzTemporaryFileName): these names parsed as ours, so the next
  /// write in their folder would have deleted them.
  @Test func claimsOnlyTheExactFormItWrites() {
    for other in [
      ".a.+12.0123456789abcdef.tmp", ".a.012.0123456789abcdef.tmp",
      ".a.12.\u{FF10}123456789abcdef.tmp", ".a.12.0123456789ABCDEF.tmp",
    ] {
      #expect(TemporaryFiles.writer(of: other) == nil, "\(other)")
    }
    #expect(TemporaryFiles.writer(of: ".a.12.0123456789abcdef.tmp") == 12)
  }

  /// Found by fuzzing (Fuzz/FuzzTemporaryFileName): `UUID(uuidString:)` reads up to a NUL, so an
  /// earlier version's name with NULs after its UUID was claimed. (No file name holds a NUL, so
  /// no file was at risk; what is claimed is still only the exact form.)
  @Test func claimsAnEarlierVersionsNameOnlyWithAWholeUUID() {
    let uuid = "6F9619FF-8B86-D011-B42D-00C04FC240FF"
    #expect(TemporaryFiles.writer(of: ".a.\(uuid).tmp") == 0)
    #expect(TemporaryFiles.writer(of: ".a.\(uuid)\0\0.tmp") == nil)
  }

  /// Found by fuzzing (Fuzz/FuzzTemporaryFileName, 10⁶-run campaign): a reference whose name
  /// ends in U+070F, a character that joins the next one into a single character, hid the dot
  /// after it from a split at characters, so the temporary file written for it was not
  /// recognised as ours and a killed write's leftover would never have been removed.
  @Test func aNameEndingInAPrependingCharacterIsStillOurs() {
    for reference in ["te2F+.tm\u{1B}\u{70F}", "chart\u{70F}", "\u{600}", "e\u{301}"] {
      let written = (TemporaryFiles.path(for: "/folder/" + reference) as NSString)
        .lastPathComponent
      #expect(TemporaryFiles.writer(of: written) == getpid(), "\(written.debugDescription)")
    }
    #expect(TemporaryFiles.writer(of: ".chart\u{70F}.12.0123456789abcdef.tmp") == 12)
  }

  @Test func aWriteRemovesWhatKilledWritesLeftAndNothingElse() throws {
    try withTemporaryFolder { folder in
      let gone = ".t.1.txt.999999999.0123456789abcdef.tmp"  // beyond any pid_max
      let legacy = ".t.2.txt.\(UUID().uuidString).tmp"
      let live = ".t.3.txt.1.0123456789abcdef.tmp"  // init never exits
      let unrelated = [".gitattributes", ".t.4.txt.tmp", "t.1.txt"]
      for name in [gone, legacy, live] + unrelated {
        try Data("x".utf8).write(to: folder.appendingPathComponent(name))
      }
      try AtomicFile.write(Data("new".utf8), to: folder.appendingPathComponent("t.5.txt"))
      #expect(names(in: folder) == ([live, "t.5.txt"] + unrelated).sorted())
    }
  }

  @Test func theNamedFallbackLeavesNoTemporaryFile() throws {
    try TestHooks.with(UnnamedFile.Disabled.self, true) {
      try withTemporaryFolder { folder in
        let url = folder.appendingPathComponent("ref.txt")
        try AtomicFile.write(Data("one".utf8), to: url)
        try AtomicFile.write(Data("two".utf8), to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == "two")
        #expect(names(in: folder) == ["ref.txt"])
      }
    }
  }
}
