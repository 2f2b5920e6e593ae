import Foundation
import RunRecord
import Testing

@testable import SnapshotTesting

#if canImport(Glibc)
  import Glibc
#endif

/// `.directory`: a folder recorded, compared and re-recorded as one reference.
@Suite struct DirectoryStrategyTests {
  /// A folder to snapshot: text files at two depths, an executable and a link inside it.
  func makeInput(in root: URL) throws -> URL {
    let input = root.appendingPathComponent("input", isDirectory: true)
    try write("Hello\nWorld\n", to: input.appendingPathComponent("README.md"))
    try write("body {}\n", to: input.appendingPathComponent("css/site.css"))
    try write("#!/bin/sh\necho hi\n", to: input.appendingPathComponent("bin/run"))
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o755],
      ofItemAtPath: input.appendingPathComponent("bin/run").path
    )
    try FileManager.default.createSymbolicLink(
      atPath: input.appendingPathComponent("css/latest.css").path,
      withDestinationPath: "site.css"
    )
    return input
  }

  func write(_ text: String, to url: URL) throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    try Data(text.utf8).write(to: url)
  }

  func isExecutable(_ url: URL) -> Bool {
    FileManager.default.isExecutableFile(atPath: url.path)
  }

  @Test func recordsOneFolderKeepingPathsLinksAndTheExecutableBit() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let input = try makeInput(in: root)

      let message = try #require(
        sandbox.verify(input, as: .directory, named: "site", record: .missing)
      )

      let reference = sandbox.reference("sandbox.site")
      #expect(message.contains(reference.path))
      #expect(fileNames(in: sandbox.snapshots) == ["sandbox.site"])
      #expect(contents(of: reference.appendingPathComponent("README.md")) == "Hello\nWorld\n")
      #expect(contents(of: reference.appendingPathComponent("css/site.css")) == "body {}\n")
      #expect(isExecutable(reference.appendingPathComponent("bin/run")))
      #expect(!isExecutable(reference.appendingPathComponent("README.md")))
      #expect(
        try FileManager.default.destinationOfSymbolicLink(
          atPath: reference.appendingPathComponent("css/latest.css").path
        ) == "site.css"
      )
      // Compared again, it matches: in memory and from disk alike.
      #expect(sandbox.verify(input, as: .directory, named: "site", record: .never) == nil)
    }
  }

  @Test func filesInMemoryRecordAndMatchTheSameFolder() throws {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let files = ["index.html": Data("<h1>Hi</h1>\n".utf8), "a/b/c.txt": Data("deep\n".utf8)]

      #expect(sandbox.verify(files, as: .directory, named: "site") != nil)
      #expect(fileNames(in: sandbox.reference("sandbox.site")) == ["a", "index.html"])
      #expect(contents(of: sandbox.reference("sandbox.site/a/b/c.txt")) == "deep\n")
      #expect(sandbox.verify(files, as: .directory, named: "site", record: .never) == nil)
    }
  }

  /// A name of one character, and a `/` followed by a combining mark, are recorded where they
  /// belong: Foundation's `deletingLastPathComponent` trapped on `a` (the whole test process
  /// crashed while recording) and took `x/\u{301}b` for a file at the top (found by
  /// `FuzzDirectoryListing`).
  @Test func oneCharacterNamesAndCombiningMarksAfterASlashAreRecorded() throws {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let files = ["a": Data("one\n".utf8), "x/\u{301}b": Data("two\n".utf8)]

      #expect(sandbox.verify(files, as: .directory, named: "site") != nil)
      #expect(fileNames(in: sandbox.reference("sandbox.site")) == ["a", "x"])
      #expect(contents(of: sandbox.reference("sandbox.site/a")) == "one\n")
      #expect(contents(of: sandbox.reference("sandbox.site/x/\u{301}b")) == "two\n")
      #expect(sandbox.verify(files, as: .directory, named: "site", record: .never) == nil)
    }
  }

  /// Documented limit: a folder on disk may hold two names equal but for Unicode normalisation
  /// (`é` as one scalar and as `e` with a combining accent); it is read, compared and recorded
  /// with both, byte for byte, but `DirectorySnapshot.entries`, a `[String: Entry]`, has one key
  /// for the two, and files given in memory may not hold both (found by `FuzzDirectoryListing`).
  @Test func pathsEqualButForNormalizationAreOneEntry() throws {
    try withTemporaryDirectory { root in
      let input = root.appendingPathComponent("input", isDirectory: true)
      try write("composed\n", to: input.appendingPathComponent("\u{E9}"))
      try write("decomposed\n", to: input.appendingPathComponent("e\u{301}"))

      let contents = try #require(try FolderContents.read(input))

      #expect(contents.entries.map { Array($0.path.utf8) } == [[0x65, 0xCC, 0x81], [0xC3, 0xA9]])
      #expect(FolderContents(decoding: contents.encoded()) == contents)
      #expect(DirectorySnapshot(contents).entries.count == 1)
      #expect(throws: FolderContentsError.self) {
        try FolderContents(entries: contents.entries)
      }
    }
  }

  /// Found by FuzzDirectoryListing, a mistake of the harness (it split the listing at
  /// characters, and "\r\n" is one): a name may end in a carriage return, and its line of the
  /// listing is the name, then the line feed.
  @Test func aNameEndingInACarriageReturnHasItsOwnLineInTheListing() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      _ = sandbox.verify(["a\r": Data("1\n".utf8), "b": Data()], as: .directory, named: "site")
      let message = try #require(
        sandbox.verify(["a\r": Data("2\n".utf8)], as: .directory, named: "site", record: .never)
      )
      let lines = message.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        .map { String(String.UnicodeScalarView($0)) }
      #expect(lines.contains("~ a\r") && lines.contains("\u{2212} b"), "\(lines)")
    }
  }

  @Test func aMismatchListsAddedRemovedAndChangedPathsSortedWithTheirDiffs() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let old = [
        "b.txt": Data("one\ntwo\n".utf8), "gone.txt": Data("bye\n".utf8),
        "z.bin": Data([0xFF, 0, 2, 3]), "same.txt": Data("same\n".utf8),
      ]
      _ = sandbox.verify(old, as: .directory, named: "site")
      let new = [
        "b.txt": Data("one\nTWO\n".utf8), "a-new.txt": Data("fresh\n".utf8),
        "z.bin": Data([0xFF, 0, 9, 3]), "same.txt": Data("same\n".utf8),
      ]

      let message = try #require(sandbox.verify(new, as: .directory, named: "site", record: .never))

      let difference = """
        Folder snapshot does not match reference: 1 added, 1 removed, 2 changed.
        + a-new.txt
        ~ b.txt
        \u{2212} gone.txt
        ~ z.bin

        --- a-new.txt (added)
        +fresh

        --- b.txt
        @@ \u{2212}1,3 +1,3 @@
        \u{2007}one
        \u{2212}two
        +TWO
        \u{2007}

        --- z.bin
        The bytes differ (4 bytes, first at byte 2).
        """
      #expect(message.contains(difference))
      // The new snapshot is saved as a folder beside the patch, for review.
      let artifact = sandbox.artifact("sandbox.site")
      #expect(fileNames(in: artifact) == ["a-new.txt", "b.txt", "same.txt", "z.bin"])
      #expect(contents(of: sandbox.artifact("sandbox.site.difference.patch")) == difference)
      // The reference is untouched in record mode `never`.
      #expect(
        fileNames(in: sandbox.reference("sandbox.site")) == [
          "b.txt", "gone.txt", "same.txt", "z.bin",
        ]
      )
    }
  }

  @Test func modeAndLinkChangesAreNamed() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let old = DirectorySnapshot(entries: [
        "run": .file(Data("x\n".utf8), isExecutable: true),
        "link": .symbolicLink(to: "run"),
        "was-link": .symbolicLink(to: "run"),
      ])
      _ = sandbox.verify(old, as: .directory, named: "site")
      let new = DirectorySnapshot(entries: [
        "run": .file(Data("x\n".utf8)),
        "link": .symbolicLink(to: "other"),
        "was-link": .file(Data("x\n".utf8)),
      ])

      let message = try #require(sandbox.verify(new, as: .directory, named: "site", record: .never))

      #expect(
        message.contains("--- link\nThe symbolic link pointed to \"run\" and now to \"other\".")
      )
      #expect(message.contains("--- run\nIt was executable and no longer is."))
      #expect(
        message.contains("--- was-link\nIt was a symbolic link to \"run\" and is now a file.")
      )
    }
  }

  @Test func rerecordingReplacesTheFolderAndDropsFilesNoLongerThere() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      // A folder a killed recording left beside it, by a process that is gone.
      let stray = sandbox.snapshots.appendingPathComponent(
        ".sandbox.site.999999999.0123456789abcdef.tmp"
      )
      try write("half\n", to: stray.appendingPathComponent("keep.txt"))
      _ = sandbox.verify(
        ["keep.txt": Data("1\n".utf8), "old/x.txt": Data("x\n".utf8)],
        as: .directory,
        named: "site"
      )

      let message = sandbox.verify(
        ["keep.txt": Data("2\n".utf8)],
        as: .directory,
        named: "site",
        record: .all
      )

      #expect(message?.hasPrefix(#"Record mode is "all""#) == true)
      #expect(fileNames(in: sandbox.reference("sandbox.site")) == ["keep.txt"])
      #expect(contents(of: sandbox.reference("sandbox.site/keep.txt")) == "2\n")
      // Nothing but the reference is left beside it: no temporary folder, old or stray.
      #expect(fileNames(in: sandbox.snapshots) == ["sandbox.site"])
    }
  }

  @Test func recordModeFailedRerecordsAMismatchAsAWhole() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      _ = sandbox.verify(
        ["a.txt": Data("1\n".utf8), "b.txt": Data("b\n".utf8)],
        as: .directory,
        named: "site"
      )

      let message = try #require(
        sandbox.verify(["a.txt": Data("2\n".utf8)], as: .directory, named: "site", record: .failed)
      )

      #expect(message.contains("− b.txt"))
      #expect(fileNames(in: sandbox.reference("sandbox.site")) == ["a.txt"])
      #expect(
        sandbox.verify(["a.txt": Data("2\n".utf8)], as: .directory, named: "site", record: .never)
          == nil
      )
    }
  }

  @Test func aComparisonByExtensionDecidesWhatIsEqual() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      // Equal when their words are: whitespace does not count.
      let words = Diffing<Data>.diff(toData: { $0 }, fromData: { $0 }) { old, new in
        func words(_ data: Data) -> [Substring] {
          String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        }
        return words(old) == words(new) ? nil : ("Other words.", [])
      }
      _ = sandbox.verify(
        ["a.words": Data("a b\n".utf8), "b.txt": Data("a b\n".utf8)],
        as: .directory,
        named: "site"
      )

      #expect(
        sandbox.verify(
          ["a.words": Data("a   b\n".utf8), "b.txt": Data("a b\n".utf8)],
          as: .directory(comparing: ["WORDS": words]),
          named: "site",
          record: .never
        ) == nil
      )
      let message = try #require(
        sandbox.verify(
          ["a.words": Data("a c\n".utf8), "b.txt": Data("a b\n".utf8)],
          as: .directory(comparing: ["words": words]),
          named: "site",
          record: .never
        )
      )
      #expect(message.contains("--- a.words\nOther words."))
    }
  }

  // MARK: - Bad input

  @Test func aFolderThatDoesNotExistFailsNamingItAndRecordsNothing() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let missing = root.appendingPathComponent("no-such-folder")

      let message = try #require(
        sandbox.verify(missing, as: .directory, named: "site", record: .all)
      )

      #expect(message.contains(#"The folder "\#(missing.path)" to snapshot does not exist."#))
      #expect(!FileManager.default.fileExists(atPath: sandbox.snapshots.path))
    }
  }

  @Test func aFileInsteadOfAFolderFailsNamingIt() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let file = root.appendingPathComponent("file.txt")
      try write("x", to: file)

      let message = try #require(sandbox.verify(file, as: .directory, named: "site"))

      #expect(message.contains(#""\#(file.path)" is a file, not a folder."#))
    }
  }

  @Test func aLinkThatLeavesTheFolderFailsNamingIt() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let input = try makeInput(in: root)
      let link = input.appendingPathComponent("css/escape")
      try FileManager.default.createSymbolicLink(
        atPath: link.path,
        withDestinationPath: "../../secret"
      )

      let message = try #require(sandbox.verify(input, as: .directory, named: "site"))

      #expect(
        message.contains(
          #"The symbolic link "\#(link.path)" points to "../../secret", outside the folder."#
        )
      )
      #expect(!FileManager.default.fileExists(atPath: sandbox.snapshots.path))

      try FileManager.default.removeItem(at: link)
      try FileManager.default.createSymbolicLink(
        atPath: link.path,
        withDestinationPath: "/etc/passwd"
      )
      #expect(
        sandbox.verify(input, as: .directory, named: "site")?.contains(#"points to "/etc/passwd""#)
          == true
      )
    }
  }

  @Test func aPipeInsideFailsNamingIt() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let input = try makeInput(in: root)
      let pipe = input.appendingPathComponent("queue")
      #expect(mkfifo(pipe.path, 0o644) == 0)

      let message = try #require(sandbox.verify(input, as: .directory, named: "site"))

      #expect(message.contains(#""\#(pipe.path)" is neither a file, a folder nor a symbolic link"#))
    }
  }

  /// A file name that is not UTF-8 (Linux allows any byte but `/` and NUL) has no `String`:
  /// the snapshot fails saying so, naming the file with U+FFFD for the bad byte, instead of
  /// reporting the repaired name as missing (found by `FuzzDirectoryListing`).
  @Test func aNameThatIsNotUTF8FailsSayingSo() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let input = try makeInput(in: root)
      let name = (Array(input.path.utf8) + Array("/css/bad".utf8) + [0xFF, 0]).map {
        CChar(bitPattern: $0)
      }
      let descriptor = open(name, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
      #expect(descriptor >= 0)
      close(descriptor)

      let message = try #require(sandbox.verify(input, as: .directory, named: "site"))

      #expect(
        message.contains(
          #"The path "\#(input.path)/css/bad\#u{FFFD}" cannot be part of a folder snapshot: its "#
            + "name is not UTF-8"
        ),
        "\(message)"
      )
      #expect(!message.contains("No such file or directory"))
      #expect(!FileManager.default.fileExists(atPath: sandbox.snapshots.path))
    }
  }

  /// A link whose target is not UTF-8 fails saying so, rather than being recorded with its
  /// target repaired into another path (found by `FuzzDirectoryListing`).
  @Test func aLinkWhoseTargetIsNotUTF8FailsSayingSo() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let input = try makeInput(in: root)
      let link = input.appendingPathComponent("css/odd")
      let target = (Array("site".utf8) + [0xFE, 0]).map { CChar(bitPattern: $0) }
      #expect(symlink(target, link.path) == 0)

      let message = try #require(sandbox.verify(input, as: .directory, named: "site"))

      #expect(
        message.contains(
          #"The path "\#(link.path)" cannot be part of a folder snapshot: the link's target is "#
            + "not UTF-8."
        ),
        "\(message)"
      )
      #expect(!FileManager.default.fileExists(atPath: sandbox.snapshots.path))
    }
  }

  @Test func anUnreadableFileFailsNamingIt() throws {
    // Root reads any file, whatever its mode.
    guard getuid() != 0 else { return }
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let input = try makeInput(in: root)
      let secret = input.appendingPathComponent("README.md")
      try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: secret.path)

      let message = try #require(sandbox.verify(input, as: .directory, named: "site"))

      #expect(message.contains(#""\#(secret.path)" could not be read: Permission denied."#))
    }
  }

  @Test func aFolderBeyondTheLimitsFailsNamingItAndTheLimit() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let input = try makeInput(in: root)

      let byCount = try #require(
        sandbox.verify(input, as: .directory(maximumFileCount: 2), named: "site", record: .all)
      )
      #expect(byCount.contains(#"The folder "\#(input.path)" holds more than 2 files"#))

      let bySize = try #require(
        sandbox.verify(input, as: .directory(maximumByteCount: 10), named: "site", record: .all)
      )
      #expect(bySize.contains(#"The folder "\#(input.path)" holds more than 10 bytes"#))
      #expect(!FileManager.default.fileExists(atPath: sandbox.snapshots.path))
    }
  }

  @Test func pathsThatCannotBeAFolderFailNamingThePath() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let climbing = try #require(
        sandbox.verify(["../x": Data()], as: .directory, named: "site", record: .all)
      )
      #expect(climbing.contains(#"The path "../x" cannot be part of a folder snapshot"#))

      let both = try #require(
        sandbox.verify(["a": Data(), "a/b": Data()], as: .directory, named: "site", record: .all)
      )
      #expect(
        both.contains(
          #"The path "a" cannot be part of a folder snapshot: it is a file and also holds "a/b"."#
        )
      )
      #expect(!FileManager.default.fileExists(atPath: sandbox.snapshots.path))
    }
  }

  @Test func aFileWhereTheReferenceFolderBelongsFailsAndIsKept() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      try sandbox.write("recorded with .data\n", to: "sandbox.site")

      let message = try #require(sandbox.verify(["a": Data()], as: .directory, named: "site"))

      #expect(message == SnapshotFileError.isFile(sandbox.reference("sandbox.site")).description)
      #expect(contents(of: sandbox.reference("sandbox.site")) == "recorded with .data\n")
    }
  }

  @Test func aReadOnlyReferenceFolderIsNotReplaced() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      _ = sandbox.verify(["a.txt": Data("1\n".utf8)], as: .directory, named: "site")
      let reference = sandbox.reference("sandbox.site")
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o555],
        ofItemAtPath: reference.path
      )
      defer {
        try? FileManager.default.setAttributes(
          [.posixPermissions: 0o755],
          ofItemAtPath: reference.path
        )
      }

      let message = sandbox.verify(
        ["a.txt": Data("2\n".utf8)],
        as: .directory,
        named: "site",
        record: .all
      )

      #expect(message == SnapshotFileError.readOnly(reference).description)
      #expect(contents(of: reference.appendingPathComponent("a.txt")) == "1\n")
    }
  }
}

/// The article's "one test per input file": a parameterized test named by its arguments gives
/// each fixture a reference named after it.
@Suite struct FixtureArgumentsNamingTests {
  struct Fixture: CustomTestStringConvertible, Sendable {
    var name: String
    var testDescription: String { name }
  }

  @Test(
    .snapshots(naming: .arguments),
    arguments: [Fixture(name: "intro"), Fixture(name: "tables2"), Fixture(name: "two words")]
  )
  func rendersPage(_ page: Fixture) throws {
    withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      _ = sandbox.verify(page.name, as: .lines, testName: #function)
      let expected =
        page.name == "two words"
        ? fileNames(in: sandbox.snapshots).filter { $0.hasPrefix("rendersPage-_-page_h") }
        : ["rendersPage-_-page_\(page.name).1.txt"]
      #expect(expected.count == 1)
      #expect(fileNames(in: sandbox.snapshots) == expected)
    }
  }
}

/// The matching assertion's shortcut: a folder on disk compared with encoded bytes as it is read.
@Suite struct FolderStreamingMatchTests {
  @Test func aFolderMatchesItsOwnBytesAndNoChangedVersionOfThem() throws {
    try withTemporaryDirectory { root in
      let folder = root.appendingPathComponent("site", isDirectory: true)
      let page = folder.appendingPathComponent("a/page.txt")
      try FileManager.default.createDirectory(
        at: page.deletingLastPathComponent(),
        withIntermediateDirectories: true
      )
      try Data(repeating: 0x61, count: 300_000).write(to: page)
      try Data("b\n".utf8).write(to: folder.appendingPathComponent("b.txt"))
      let encoded = try #require(try FolderContents.readEncoded(folder))
      #expect(FolderContents.folder(at: folder, matches: encoded))

      // One byte changed past the first piece read, the size unchanged.
      var changed = Data(repeating: 0x61, count: 300_000)
      changed[290_000] = 0x62
      try changed.write(to: page)
      #expect(!FolderContents.folder(at: folder, matches: encoded))
      try Data(repeating: 0x61, count: 300_000).write(to: page)
      #expect(FolderContents.folder(at: folder, matches: encoded))

      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: page.path)
      #expect(!FolderContents.folder(at: folder, matches: encoded))
      try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: page.path)

      try FileManager.default.removeItem(at: folder.appendingPathComponent("b.txt"))
      try FileManager.default.createSymbolicLink(
        atPath: folder.appendingPathComponent("b.txt").path,
        withDestinationPath: "a/page.txt"
      )
      #expect(!FolderContents.folder(at: folder, matches: encoded))
      #expect(!FolderContents.folder(at: root.appendingPathComponent("none"), matches: encoded))
    }
  }
}

/// A folder on disk is walked when snapshotted and read only when needed: compared with its
/// reference a piece at a time, read whole to describe a mismatch.
@Suite struct FolderOnDiskComparisonTests {
  @Test func twoFoldersMatchOnlyWhenEveryPathKindAndByteDoes() throws {
    try withTemporaryDirectory { root in
      let one = root.appendingPathComponent("one", isDirectory: true)
      let two = root.appendingPathComponent("two", isDirectory: true)
      for folder in [one, two] {
        try FileManager.default.createDirectory(
          at: folder.appendingPathComponent("a"),
          withIntermediateDirectories: true
        )
        try Data(repeating: 0x61, count: 600_000).write(to: folder.appendingPathComponent("a/big"))
        try FileManager.default.createSymbolicLink(
          atPath: folder.appendingPathComponent("link").path,
          withDestinationPath: "a/big"
        )
      }
      let listing = try #require(try FolderListing.list(one))
      #expect(listing.matches(folderAt: two))

      var changed = Data(repeating: 0x61, count: 600_000)
      changed[599_999] = 0x62
      try changed.write(to: two.appendingPathComponent("a/big"))
      #expect(!listing.matches(folderAt: two))
      try Data(repeating: 0x61, count: 600_000).write(to: two.appendingPathComponent("a/big"))
      #expect(listing.matches(folderAt: two))

      try Data().write(to: two.appendingPathComponent("extra"))
      #expect(!listing.matches(folderAt: two))
      try FileManager.default.removeItem(at: two.appendingPathComponent("extra"))
      try FileManager.default.removeItem(at: two.appendingPathComponent("link"))
      try FileManager.default.createSymbolicLink(
        atPath: two.appendingPathComponent("link").path,
        withDestinationPath: "a"
      )
      #expect(!listing.matches(folderAt: two))
    }
  }

  @Test func aChangedFolderOnDiskIsReadToDescribeTheMismatch() throws {
    try withTemporaryDirectory { root in
      let sandbox = SnapshotSandbox(root: root)
      let input = root.appendingPathComponent("input", isDirectory: true)
      try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
      try Data("one\n".utf8).write(to: input.appendingPathComponent("a.txt"))
      _ = sandbox.verify(input, as: .directory, named: "site")
      try Data("two\n".utf8).write(to: input.appendingPathComponent("a.txt"))

      let message = try #require(
        sandbox.verify(input, as: .directory, named: "site", record: .never)
      )

      #expect(message.contains("~ a.txt\n\n--- a.txt\n@@ \u{2212}1,2 +1,2 @@\n\u{2212}one\n+two"))
      #expect(contents(of: sandbox.artifact("sandbox.site/a.txt")) == "two\n")
      #expect(contents(of: sandbox.reference("sandbox.site/a.txt")) == "one\n")
    }
  }
}

extension FolderOnDiskComparisonTests {
  @Test func aFileGoneSinceTheWalkIsNamedNotShownAsRemoved() throws {
    try withTemporaryDirectory { root in
      let file = root.appendingPathComponent("a.txt")
      try Data("one\n".utf8).write(to: file)
      let snapshot = DirectorySnapshot(listing: try #require(try FolderListing.list(root)))
      try FileManager.default.removeItem(at: file)

      let (message, _) = try #require(
        Diffing<DirectorySnapshot>.directory().diffV2(DirectorySnapshot(files: [:]), snapshot)
      )

      #expect(
        message == """
          The snapshot's folder could not be read: "\(file.path)" could not be read: No such \
          file or directory.
          """
      )
    }
  }
}
