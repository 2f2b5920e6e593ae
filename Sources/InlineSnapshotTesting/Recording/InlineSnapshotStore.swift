import Foundation
import RunRecord

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The snapshots recorded during this test process, waiting to be written into their source
/// files when it exits.
///
/// Writing waits for the end because every recording names its call by the line and column the
/// test was compiled with: once a file is rewritten, those positions no longer hold for the rest
/// of the run. At exit all of a file's recordings are applied in one pass, against the text the
/// file had when the run first read it.
final class InlineSnapshotStore: @unchecked Sendable {
  /// The process's store, written at exit.
  static let shared = InlineSnapshotStore()

  /// The store assertions use: the shared one, or a private one a test of this library binds
  /// (``Private``, through `TestHooks`) so that it can write the recordings itself and inspect
  /// the result.
  static var current: InlineSnapshotStore { TestHooks.value(Private.self) ?? shared }

  enum Private: TestHookKey {
    typealias Value = InlineSnapshotStore
  }

  /// Source paths (as `#filePath` gives them) read and written at another path instead; lets
  /// tests point an assertion's `file:` at a temporary copy of a fixture.
  private let redirectedPaths: [String: String]

  private let lock = NSLock()
  /// Each source file as the run first read it, by path.
  private var sources: [String: String] = [:]
  /// Each of those texts scanned, by path: a file with many failing inline assertions is scanned
  /// once, not once per failure.
  private var parsedSources: [String: ParsedSource] = [:]
  /// The recordings per source path, by call (its line and column), one per closure.
  private var pending: [String: [CallPosition: [Int: InlineSnapshotRecording]]] = [:]
  private var isExitHookInstalled = false

  init(redirectingPaths redirectedPaths: [String: String] = [:]) {
    self.redirectedPaths = redirectedPaths
  }

  /// The file read and written for the source path `path` (`#filePath`): itself, unless a test
  /// of this library redirected it to a copy.
  func filePath(for path: String) -> String {
    redirectedPaths[path] ?? path
  }

  /// The text of the source file at `path` as this run first read it, scanned once per run.
  func parsedSource(atPath path: String) throws(InlineSnapshotWriteError) -> ParsedSource {
    lock.lock()
    defer { lock.unlock() }
    return try cachedParsedSource(atPath: path)
  }

  private func cachedParsedSource(atPath path: String) throws(InlineSnapshotWriteError)
    -> ParsedSource
  {
    if let parsed = parsedSources[path] { return parsed }
    let parsed = ParsedSource(try cachedSource(atPath: path))
    parsedSources[path] = parsed
    return parsed
  }

  /// Checks that `recording` can be written into the file at `path` and queues it for the end of
  /// the run. Throws, queueing nothing, when the file cannot be read or rewritten, or when the
  /// same closure was already recorded with another text.
  ///
  /// The check reads only the recording's call, with the other closures of that call recorded so
  /// far (they move one another), never the rest of the file: each recording costs the length of
  /// its call, so a file's recordings cost linear time, however many it has.
  func enqueue(_ recording: InlineSnapshotRecording, path: String) throws(InlineSnapshotWriteError)
  {
    lock.lock()
    defer { lock.unlock() }
    let parsed = try cachedParsedSource(atPath: path)
    let call = CallPosition(line: recording.line, column: recording.column)
    let offset = recording.syntaxDescriptor.trailingClosureOffset
    let sameCall = pending[path]?[call] ?? [:]
    if let earlier = sameCall[offset] {
      guard earlier.actual == recording.actual else {
        throw .rewrite(
          path: path,
          .conflictingValues(
            line: recording.line,
            label: recording.syntaxDescriptor.trailingClosureLabel
          )
        )
      }
      return
    }
    // A dry run against the text the test was compiled from, so that a refusal fails this
    // assertion rather than surfacing only after the run.
    do {
      try checkRecordings(Array(sameCall.values) + [recording], in: parsed)
    } catch {
      throw .rewrite(path: path, error)
    }
    pending[path, default: [:]][call, default: [:]][offset] = recording
    installExitHook()
  }

  /// Writes every queued recording into its file and forgets them; returns one message per file
  /// that was left untouched.
  @discardableResult
  func writePending() -> [InlineSnapshotWriteError] {
    let (work, sources, parsedSources) = lock.withLock {
      () -> ([String: [InlineSnapshotRecording]], [String: String], [String: ParsedSource]) in
      defer { pending.removeAll() }
      return (
        pending.mapValues { $0.values.flatMap(\.values) }, self.sources, self.parsedSources
      )
    }
    var failures: [InlineSnapshotWriteError] = []
    for (path, recordings) in work.sorted(by: { $0.key < $1.key }) {
      guard let original = sources[path] else { continue }
      do {
        try writeRecordings(
          recordings,
          toFileAtPath: redirectedPaths[path] ?? path,
          readFirstAs: original,
          scanned: parsedSources[path]
        )
      } catch {
        failures.append(error)
      }
    }
    return failures
  }

  private func cachedSource(atPath path: String) throws(InlineSnapshotWriteError) -> String {
    if let source = sources[path] { return source }
    let source = try readSourceFile(atPath: redirectedPaths[path] ?? path).text
    sources[path] = source
    return source
  }

  private func installExitHook() {
    guard self === Self.shared, !isExitHookInstalled else { return }
    isExitHookInstalled = true
    atexit {
      for failure in InlineSnapshotStore.shared.writePending() {
        FileHandle.standardError.write(Data("InlineSnapshotTesting: \(failure)\n".utf8))
      }
    }
  }
}

/// A call in a source file, by the line and column its arguments start at.
struct CallPosition: Hashable {
  var line: Int
  var column: Int
}

/// Why recorded snapshots were not written into a source file.
enum InlineSnapshotWriteError: Error, Equatable, CustomStringConvertible {
  case unreadable(path: String, reason: String)
  case changedOnDisk(path: String)
  case unwritable(path: String, SnapshotFileError)
  case rewrite(path: String, InlineSnapshotRewriteError)

  var description: String {
    switch self {
    case .unreadable(let path, let reason):
      return #"Could not read the test's source file "\#(path)": \#(reason)."#
    case .changedOnDisk(let path):
      return """
        "\(path)" changed on disk while the tests ran and the recorded calls could not be found \
        in it unchanged, so its inline snapshots were not written. Re-run the tests to record \
        them.
        """
    case .unwritable(let path, let error):
      return #"Could not write the inline snapshots into "\#(path)". \#(error.description)"#
    case .rewrite(let path, let error):
      return #"Could not record an inline snapshot in "\#(path)". \#(error.description)"#
    }
  }
}

/// A source file as UTF-8 text, and the byte-order mark it opened with, if any.
///
/// The mark is kept apart from the text: the rewrite sees the text the compiler saw (which skips
/// the mark), and the file is written back with the very bytes it began with.
struct SourceFileContents: Equatable {
  /// The UTF-8 byte-order mark, which some editors put at the start of every file they save.
  static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// The text after the byte-order mark.
  var text: String
  /// Whether the file's first bytes are ``byteOrderMark``.
  var hasByteOrderMark: Bool

  /// Splits a file's bytes into its mark and its text; `nil` when they are not UTF-8.
  init?(_ data: Data) {
    hasByteOrderMark = data.starts(with: Self.byteOrderMark)
    let body = hasByteOrderMark ? data.dropFirst(Self.byteOrderMark.count) : data[...]
    guard let text = String(validating: body, as: UTF8.self) else { return nil }
    self.text = text
  }

  /// The file's bytes for `text`, opening with the mark when the file read did.
  func bytes(for text: String) -> Data {
    (hasByteOrderMark ? Data(Self.byteOrderMark) : Data()) + Data(text.utf8)
  }
}

/// Reads a source file as UTF-8 text, setting aside a byte-order mark.
func readSourceFile(atPath path: String) throws(InlineSnapshotWriteError) -> SourceFileContents {
  let data: Data
  do {
    data = try Data(contentsOf: URL(fileURLWithPath: path))
  } catch {
    throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
  }
  guard let contents = SourceFileContents(data) else {
    throw .unreadable(path: path, reason: "it is not UTF-8 text")
  }
  return contents
}

/// Applies `recordings`, made against `original`, to the file at `path` and replaces the file
/// atomically. When another process rewrote the file meanwhile, the recordings follow their calls
/// to their new lines (see ``remapRecordings(_:from:to:)``) or the file is left alone. An
/// advisory lock on the file keeps two test processes from rewriting it at the same time. Only the
/// snapshot closures change: every other byte, a byte-order mark and CRLF line endings included,
/// is written back as it was read.
func writeRecordings(
  _ recordings: [InlineSnapshotRecording],
  toFileAtPath path: String,
  readFirstAs original: String,
  scanned: ParsedSource? = nil
) throws(InlineSnapshotWriteError) {
  let descriptor = try? SystemCalls.open(path, flags: O_RDONLY).get()
  if let descriptor { _ = flock(descriptor, LOCK_EX) }
  defer {
    if let descriptor {
      _ = flock(descriptor, LOCK_UN)
      _ = close(descriptor)
    }
  }
  let file = try readSourceFile(atPath: path)
  let current = file.text
  guard let placed = remapRecordings(recordings, from: original, to: current) else {
    throw .changedOnDisk(path: path)
  }
  let rewritten: String
  do {
    // The scan of the text the run first read serves while the file is unchanged.
    let parsed = current == original ? scanned ?? ParsedSource(current) : ParsedSource(current)
    rewritten = try rewriteInlineSnapshots(in: parsed, recordings: placed)
  } catch {
    throw .rewrite(path: path, error)
  }
  guard rewritten != current else { return }
  do {
    try AtomicFile.write(file.bytes(for: rewritten), to: URL(fileURLWithPath: path))
  } catch {
    throw .unwritable(path: path, error)
  }
}
