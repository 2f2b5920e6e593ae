import Foundation
import RunRecord

extension Diffing where Value == DirectorySnapshot {
  /// Compares two folders file by file, and describes a mismatch as the paths added, removed and
  /// changed, then each change in its file's own terms.
  ///
  /// A file whose extension (compared lowercased) is in `comparing` is compared with that
  /// diffing; any other file as text when both sides are UTF-8 without a NUL byte (a line diff),
  /// else as bytes. So
  /// PNG files compare by their pixels with ImageSnapshotTesting's entry:
  ///
  /// ```swift
  /// let diffing = Diffing<DirectorySnapshot>.directory(comparing: ["png": .png()])
  /// ```
  ///
  /// The message opens with `Folder snapshot does not match reference: 1 added, 2 changed.`,
  /// then one line per path, sorted (`+ new.txt`, `− old.txt`, `~ changed.txt`), then a section
  /// per added or changed path headed `--- path`. The whole message is attached as
  /// `difference.patch`; attachments of the files' own diffings (a PNG's difference image) are
  /// attached under the file's path.
  ///
  /// - Parameter comparing: Diffings by lowercase path extension (`"png"`), for files that are
  ///   equal in another sense than their bytes.
  /// - Complexity: O(*n* log *n*) in the number of paths, plus each changed file's comparison;
  ///   an unchanged folder on disk is decided by the engine as `diff -r` would, reading both
  ///   folders a piece at a time.
  public static func directory(comparing: [String: Diffing<Data>] = [:]) -> Diffing {
    let byExtension = Dictionary(
      comparing.map { ($0.key.lowercased(), $0.value) },
      uniquingKeysWith: { $1 }
    )
    var diffing = Diffing.diff(
      toData: { snapshot in
        do throws(FolderContentsError) {
          return try snapshot.encodedContents()
        } catch {
          UnavailableSnapshot.report(error.description)
          return Data()
        }
      },
      fromData: { data in DirectorySnapshot(encoded: data) ?? DirectorySnapshot(files: [:]) },
      diffV2: { reference, snapshot in
        // A folder on disk is read only now; a file gone or changed since its walk is named
        // rather than shown as removed.
        if case .failure(let error) = snapshot.source?.load().encoded {
          return ("The snapshot's folder could not be read: \(error.description)", [])
        }
        return FolderDifference(reference, snapshot, byExtension: byExtension).report
      }
    )
    diffing.storesFolder = true
    // Encoding a folder read from disk means reading it: it is compared with its reference
    // folder as both are read (`matchesFolder`), and read whole only to describe a mismatch or to
    // be written. Files held in memory are checked here, so a bad path fails every time.
    diffing.encodesOnlyToWrite = { snapshot in
      guard snapshot.source == nil else { return }
      do throws(FolderContentsError) {
        _ = try snapshot.folderContents()
      } catch {
        UnavailableSnapshot.report(error.description)
      }
    }
    diffing.matchesFolder = { snapshot, url in snapshot.matches(folderAt: url) }
    diffing.attachmentRoles = ["difference.patch": .patch]
    return diffing
  }
}

/// How two folder snapshots differ, path by path.
struct FolderDifference {
  var added: [String] = []
  var removed: [String] = []
  var changed: [String] = []
  /// Per added or changed path, what to show under its heading.
  var sections: [(path: String, text: String)] = []
  var attachments: [DiffAttachment] = []

  init(
    _ reference: DirectorySnapshot,
    _ snapshot: DirectorySnapshot,
    byExtension: [String: Diffing<Data>]
  ) {
    let paths = Set(reference.entries.keys).union(snapshot.entries.keys)
      .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    for path in paths {
      switch (reference.entries[path], snapshot.entries[path]) {
      case (nil, let new?):
        added.append(path)
        sections.append((path + " (added)", Self.describeAdded(new)))
      case (_?, nil):
        removed.append(path)
      case (let old?, let new?):
        guard old != new,
          let (text, files) = Self.compare(old, new, path: path, byExtension: byExtension)
        else { continue }
        changed.append(path)
        sections.append((path, text))
        attachments += files
      case (nil, nil):
        continue
      }
    }
  }

  /// The message and its attachments, or `nil` when no path differs.
  var report: (String, [DiffAttachment])? {
    guard !(added.isEmpty && removed.isEmpty && changed.isEmpty) else { return nil }
    // Written out with explicit types: as one chain of `+` over tuple arrays and closures, this
    // getter took the type checker 0.9 s, paid by every user's build of the module.
    let groups: [(paths: [String], mark: String, word: String)] = [
      (added, "+", "added"), (removed, "\u{2212}", "removed"), (changed, "~", "changed"),
    ]
    var counts: [String] = []
    var marked: [(path: String, mark: String)] = []
    for group in groups where !group.paths.isEmpty {
      counts.append("\(group.paths.count) \(group.word)")
      for path in group.paths { marked.append((path, group.mark)) }
    }
    marked.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    var lines = ["Folder snapshot does not match reference: \(counts.joined(separator: ", "))."]
    for entry in marked {
      lines.append("\(entry.mark) \(entry.path)")
    }
    var text = lines.joined(separator: "\n")
    for section in sections {
      text += "\n\n--- \(section.path)\n\(section.text)"
    }
    return (text, [.data(Data(text.utf8), name: "difference.patch")] + attachments)
  }

  private static func describeAdded(_ entry: DirectorySnapshot.Entry) -> String {
    switch entry {
    case .symbolicLink(let target):
      return "A symbolic link to \"\(target)\"."
    case .file(let data, let isExecutable):
      let mode = isExecutable ? "An executable file" : "A file"
      guard let text = text(data) else {
        return "\(mode) of \(data.count) bytes, not UTF-8 text."
      }
      if text.isEmpty { return "\(mode), empty." }
      var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      if lines.last == "" { lines.removeLast() }
      return lines.map { "+" + $0 }.joined(separator: "\n")
    }
  }

  /// What changed in one path, or `nil` when its diffing finds the two equal.
  private static func compare(
    _ old: DirectorySnapshot.Entry,
    _ new: DirectorySnapshot.Entry,
    path: String,
    byExtension: [String: Diffing<Data>]
  ) -> (String, [DiffAttachment])? {
    switch (old, new) {
    case (.symbolicLink(let oldTarget), .symbolicLink(let newTarget)):
      return ("The symbolic link pointed to \"\(oldTarget)\" and now to \"\(newTarget)\".", [])
    case (.symbolicLink(let target), .file):
      return ("It was a symbolic link to \"\(target)\" and is now a file.", [])
    case (.file, .symbolicLink(let target)):
      return ("It was a file and is now a symbolic link to \"\(target)\".", [])
    case (.file(let oldData, let wasExecutable), .file(let newData, let isExecutable)):
      var notes: [String] = []
      var attachments: [DiffAttachment] = []
      if wasExecutable != isExecutable {
        notes.append(
          isExecutable ? "It was not executable and now is." : "It was executable and no longer is."
        )
      }
      if oldData != newData,
        let (text, files) = compareContents(oldData, newData, path: path, byExtension: byExtension)
      {
        notes.append(text)
        let prefix = sanitizePathComponent(path)
        attachments = files.map { attachment in
          let (data, name) = attachment.fileContents
          return .data(data, name: "\(prefix)-\(name ?? "attachment")")
        }
      }
      return notes.isEmpty ? nil : (notes.joined(separator: "\n"), attachments)
    }
  }

  private static func compareContents(
    _ old: Data,
    _ new: Data,
    path: String,
    byExtension: [String: Diffing<Data>]
  ) -> (String, [DiffAttachment])? {
    let pathExtension = (path as NSString).pathExtension.lowercased()
    if let diffing = byExtension[pathExtension] {
      return diffing.diffV2(diffing.fromData(old), diffing.fromData(new))
    }
    if let oldText = text(old), let newText = text(new) {
      // Texts whose lines are equal byte for byte cannot differ; say so rather than show nothing.
      return (lineDiff(old: oldText, new: newText) ?? "The bytes differ.", [])
    }
    return (
      old.count == new.count
        ? "The bytes differ (\(new.count) bytes, first at byte \(firstDifference(old, new)))."
        : "Expected \(new.count) bytes to match \(old.count) bytes.",
      []
    )
  }

  /// The bytes as text when they are UTF-8 without a NUL byte (a NUL marks binary data, as Git
  /// decides), else `nil`.
  static func text(_ data: Data) -> String? {
    guard !data.contains(0) else { return nil }
    return String(validating: data, as: UTF8.self)
  }

  private static func firstDifference(_ old: Data, _ new: Data) -> Int {
    zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? 0
  }
}
