// libFuzzer harness: `.directory`'s reading, writing and listing of a folder of arbitrary file
// names and contents (`FolderContents`, `FolderListing`, `FolderDifference`). Run with
// `scripts/fuzz.sh FuzzDirectoryListing SECONDS`.
//
// The input is a list of entries, each a kind byte (a file, an executable or a symbolic link), a
// path (any bytes but NUL; `/` separates folders) and contents (a link's target), each after a
// length byte. They are created in a folder of their own with the system calls, as a program
// under test would (entries that cannot be made, or that clash with one made before, are left
// out). Invariants, for any input:
// - reading the folder fails, with the error the rule gives, exactly when an entry breaks a rule
//   (a path that is not UTF-8, a link whose target is empty, not UTF-8, absolute or climbs out of
//   the folder); otherwise it gives exactly the entries made, sorted by their bytes, with their
//   kinds and contents;
// - what it gives encodes and decodes to itself, reads straight into the same bytes, matches the
//   folder piece by piece, and written to another folder reads back the same (a fixed point) and
//   matches it;
// - the listing of a changed copy (one entry removed, one changed, one added) names exactly those
//   three paths, sorted, one line each;
// - each input takes at most 1 s of processor time.

import Foundation
import FuzzingChecks
import FuzzingSupport
import RunRecord

@testable import SnapshotTesting

#if canImport(Glibc)
  import Glibc
#endif

private let base = FileManager.default.temporaryDirectory
  .appendingPathComponent("FuzzDirectoryListing-\(getpid())", isDirectory: true).path
private let root = base + "/in"
private let copy = base + "/out"

/// One run of libFuzzer, on one input.
private func fuzzDirectoryListing(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = [UInt8](UnsafeBufferPointer(start: data, count: size))
  return withinTimeBound(.seconds(1), size: size) { check(input) }
}

/// The folders made for the last input, even those whose entry could not be made after.
private nonisolated(unsafe) var folders: [[UInt8]] = []

private struct Made {
  var path: [UInt8]
  var kind: FolderContents.Kind
  var data: [UInt8]
}

/// The entries the input describes, made on disk under `root`; those that could be made.
private func makeTree(_ input: [UInt8]) -> [Made] {
  removeAll(Array(root.utf8))
  removeAll(Array(copy.utf8))
  folders = []
  guard mkdir(root, 0o755) == 0 else { fail("mkdir \(root): \(String(cString: strerror(errno)))") }
  var position = 0
  func take(_ limit: Int) -> [UInt8] {
    guard position < input.count else { return [] }
    let count = Int(input[position]) % limit
    position += 1
    let end = min(position + count, input.count)
    defer { position = end }
    return Array(input[position..<end])
  }
  var made: [Made] = []
  while position < input.count {
    let kinds: [FolderContents.Kind] = [.file, .executable, .symbolicLink]
    let kind = kinds[Int(input[position]) % 3]
    position += 1
    let components = take(48).map { $0 == 0 ? UInt8(ascii: "n") : $0 }
      .split(separator: UInt8(ascii: "/"))
    let data = take(64)
    guard !components.isEmpty,
      !components.contains(where: { $0.elementsEqual(".".utf8) || $0.elementsEqual("..".utf8) })
    else { continue }
    let path = Array(components.joined(separator: [UInt8(ascii: "/")]))
    // A path made before, or a folder of it, or one of its folders a file: it cannot be made.
    let clashes = made.contains { other in
      other.path == path || isFolder(other.path, of: path) || isFolder(path, of: other.path)
    }
    if clashes { continue }
    var folderMade = true
    for end in components.indices.dropLast() {
      let folder = Array(components[...end].joined(separator: [0x2F]))
      if mkdir(cPath(folder), 0o755) == 0 {
        folders.append(folder)
      } else if errno != EEXIST {
        folderMade = false
      }
    }
    guard folderMade else { continue }
    let full = cPath(path)
    if kind == .symbolicLink {
      let target = data.filter { $0 != 0 }
      let targetPath = (target + [0]).map { CChar(bitPattern: $0) }
      guard !target.isEmpty, symlink(targetPath, full) == 0 else { continue }
      made.append(Made(path: path, kind: kind, data: target))
    } else {
      let descriptor = open(full, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else { continue }
      let written = data.isEmpty ? 0 : write(descriptor, data, data.count)
      fchmod(descriptor, kind == .executable ? 0o755 : 0o644)
      close(descriptor)
      guard written == data.count else { fail("a short write of \(data.count) bytes") }
      made.append(Made(path: path, kind: kind, data: data))
    }
  }
  return made
}

/// Whether `folder` is one of the folders `path` is in.
private func isFolder(_ folder: [UInt8], of path: [UInt8]) -> Bool {
  path.count > folder.count && path.starts(with: folder) && path[folder.count] == 0x2F
}

/// Removes a folder and everything in it, names that are not UTF-8 included (the package's
/// `removeTree` lists names through `String`, and cannot name those), with a list of folders
/// rather than recursion.
private func removeAll(_ top: [UInt8]) {
  func cString(_ bytes: [UInt8]) -> [CChar] { (bytes + [0]).map { CChar(bitPattern: $0) } }
  var pending: [(path: [UInt8], emptied: Bool)] = [(top, false)]
  while let (path, emptied) = pending.popLast() {
    if emptied {
      rmdir(cString(path))
      continue
    }
    guard let stream = opendir(cString(path)) else {
      unlink(cString(path))
      continue
    }
    pending.append((path, true))
    while let item = readdir(stream) {
      let name = withUnsafeBytes(of: item.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
      if name == [0x2E] || name == [0x2E, 0x2E] { continue }
      let child = path + [0x2F] + name
      if Int32(item.pointee.d_type) == Int32(DT_DIR) {
        pending.append((child, false))
      } else {
        unlink(cString(child))
      }
    }
    closedir(stream)
  }
}

/// A path under `root` as the system calls take it: its bytes as they are (a `String` would
/// repair those that are not UTF-8), then a NUL.
private func cPath(_ relative: [UInt8]) -> [CChar] {
  (Array(root.utf8) + [0x2F] + relative + [0]).map { CChar(bitPattern: $0) }
}

private func check(_ input: [UInt8]) {
  let made = makeTree(input)
  let url = URL(fileURLWithPath: root)
  // A folder whose name is not UTF-8 fails the reading too, even left empty.
  let badFolder = folders.first { String(validating: $0, as: UTF8.self) == nil }
  let expectedError = badFolder.map { _ in Rule.notUTF8Path } ?? made.lazy.compactMap(brokenRule).first
  let contents: FolderContents
  do {
    guard let read = try FolderContents.read(url) else { fail("the folder reads as missing") }
    contents = read
  } catch {
    guard expectedError != nil else { fail("reading the folder failed: \(error)") }
    require(
      (badFolder != nil && matches(error, .notUTF8Path))
        || made.contains { brokenRule($0).map { matches(error, $0) } ?? false },
      "reading failed with \(error), which breaks no rule of an entry made: "
        + made.map { String(decoding: $0.path, as: UTF8.self) }.joined(separator: ", ")
    )
    return
  }
  require(expectedError == nil, "a folder breaking a rule (\(expectedError!)) was read")
  let expected = made.sorted { $0.path.lexicographicallyPrecedes($1.path) }
  require(
    contents.entries.count == expected.count
      && zip(contents.entries, expected).allSatisfy { entry, made in
        entry.path.utf8.elementsEqual(made.path) && entry.kind == made.kind
          && entry.data.elementsEqual(made.data)
      },
    "the folder reads as \(contents.entries.map(\.path)), made as "
      + "\(expected.map { String(decoding: $0.path, as: UTF8.self) })"
  )
  checkRoundTrips(contents, url: url)
  checkListing(contents)
}

/// The rule an entry breaks, as the error reading it must give.
private enum Rule: CustomStringConvertible {
  case notUTF8Path
  case badTarget
  case linkOutside(String)

  var description: String {
    switch self {
    case .notUTF8Path: "a path that is not UTF-8"
    case .badTarget: "a link target that is not UTF-8"
    case .linkOutside(let target): "a link to \(target), outside"
    }
  }
}

private func brokenRule(_ made: Made) -> Rule? {
  guard String(validating: made.path, as: UTF8.self) != nil else { return .notUTF8Path }
  guard made.kind == .symbolicLink else { return nil }
  guard let target = String(validating: made.data, as: UTF8.self) else { return .badTarget }
  if target.hasPrefix("/") { return .linkOutside(target) }
  var depth = made.path.split(separator: 0x2F).count - 1
  for part in target.split(separator: "/", omittingEmptySubsequences: true) {
    if part == ".." {
      depth -= 1
      if depth < 0 { return .linkOutside(target) }
    } else if part != "." {
      depth += 1
    }
  }
  return nil
}

private func matches(_ error: FolderContentsError, _ rule: Rule) -> Bool {
  switch (error, rule) {
  case (.invalidPath, .notUTF8Path), (.invalidPath, .badTarget): return true
  case (.linkOutside(_, let target), .linkOutside(let expected)): return target == expected
  default: return false
  }
}

private func checkRoundTrips(_ contents: FolderContents, url: URL) {
  let encoded = contents.encoded()
  require(FolderContents(decoding: encoded) == contents, "the encoding does not decode to itself")
  do {
    let straight = try FolderContents.readEncoded(url)
    require(straight == encoded, "reading straight into bytes gives other bytes")
  } catch {
    fail("reading straight into bytes failed: \(error)")
  }
  require(FolderContents.folder(at: url, matches: encoded), "the folder does not match itself")
  let copyURL = URL(fileURLWithPath: copy)
  do {
    try contents.writeFolder(at: copyURL)
  } catch {
    fail("writing the folder failed: \(error)")
  }
  do {
    let again = try FolderContents.read(copyURL)
    require(again == contents, "the written folder reads as \(again.map { "\($0)" } ?? "nothing")")
    let listing = try FolderListing.list(url)
    require(listing?.matches(folderAt: copyURL) == true, "the written folder does not match")
  } catch {
    fail("reading the written folder failed: \(error)")
  }
}

/// The listing of a copy with its first entry removed, its last changed and one added.
private func checkListing(_ contents: FolderContents) {
  guard let first = contents.entries.first, let last = contents.entries.last, first != last,
    !contents.entries.contains(where: { $0.path.contains("\n") })
  else { return }
  let reference = DirectorySnapshot(contents)
  // Documented: `DirectorySnapshot.entries` is a `[String: Entry]`, so two paths equal but for
  // Unicode normalisation (`é` and `e\u{301}`) are one key there; the folder itself is compared
  // byte for byte (`DirectoryStrategyTests.pathsEqualButForNormalizationAreOneEntry`).
  let distinct = Set(contents.entries.map(\.path)).count
  require(
    reference.entries.count == distinct,
    "\(distinct) distinct paths are \(reference.entries.count) in a DirectorySnapshot"
  )
  guard distinct == contents.entries.count else { return }
  var entries = reference.entries
  entries[first.path] = nil
  entries[last.path] =
    last.kind == .symbolicLink
    ? .symbolicLink(to: String(decoding: last.data, as: UTF8.self) + "x")
    : .file(last.data + Data([0x0A]), isExecutable: true)
  let added = "added-\(contents.entries.count)"
  guard reference.entries[added] == nil else { return }
  entries[added] = .file(Data("new\n".utf8))
  let changed = DirectorySnapshot(entries: entries)
  guard let (report, _) = FolderDifference(reference, changed, byExtension: [:]).report else {
    fail("no difference reported")
  }
  // Split at line feeds, not at characters: a name may end in a carriage return, and "\r\n" is
  // one `Character`.
  let lines = report.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
    .map { String(String.UnicodeScalarView($0)) }
  let expected = [("+ ", added), ("\u{2212} ", first.path), ("~ ", last.path)]
    .sorted { $0.1.utf8.lexicographicallyPrecedes($1.1.utf8) }
    .map { $0.0 + $0.1 }
  require(
    lines.count > 3
      && lines[0] == "Folder snapshot does not match reference: 1 added, 1 removed, 1 changed."
      && Array(lines[1...3]) == expected,
    "the listing starts \(lines.prefix(4)), not \(expected)"
  )
}

try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
atexit { removeAll(Array(base.utf8)) }
// Last: globals of main.swift are initialised in order, as the top-level code runs.
exit(fuzzing_support_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzDirectoryListing))
