import Foundation

/// The folder `SNAPSHOT_TESTING_USED_REFERENCES` names, and the name of every file a test process
/// writes in it (see ``ReferenceUsageLog`` for what each holds). Each process names its files
/// with its own `<pid>-<random>` stem, so parallel processes never write to the same file.
///
/// ```
/// <usage>/process-<stem>.json      the process's arguments and commit (ProcessInfoRecord)
/// <usage>/references-<stem>.txt    the references it used, one path a line
/// <usage>/variants-<stem>.txt      the reference variants it used, one name a line
/// <usage>/finished-<stem>          written when it exits normally
/// ```
package struct UsageLogFolder: Sendable {
  /// What a file of the folder is.
  package enum Kind: String, CaseIterable, Sendable {
    case process
    case references
    case variants
    case finished

    var suffix: String {
      switch self {
      case .process: ".json"
      case .references, .variants: ".txt"
      case .finished: ""
      }
    }
  }

  package var url: URL

  package init(_ url: URL) {
    self.url = url
  }

  /// A new stem for this process: its id and a random part.
  package static func newStem() -> String {
    "\(getpid())-\(UUID().uuidString.prefix(8))"
  }

  /// The file of `kind` that the process with `stem` writes.
  package func file(_ kind: Kind, stem: String) -> URL {
    url.appendingPathComponent("\(kind.rawValue)-\(stem)\(kind.suffix)", isDirectory: false)
  }

  /// What a file name in the folder is, and whose; `nil` for a file no process writes.
  package static func parse(_ fileName: String) -> (kind: Kind, stem: String)? {
    for kind in Kind.allCases {
      let prefix = kind.rawValue + "-"
      guard fileName.hasPrefix(prefix), fileName.hasSuffix(kind.suffix) else { continue }
      let stem = fileName.dropFirst(prefix.count).dropLast(kind.suffix.count)
      guard !stem.isEmpty else { return nil }
      return (kind, String(stem))
    }
    return nil
  }
}
