import Foundation
import RunRecord

/// How snapshot assertions behave in a scope: when references are written and how a failure
/// points at the two files.
///
/// Set it for a block with ``withSnapshotTesting(record:diffTool:operation:)-2kuyr``, for a
/// Swift Testing suite or test with the `.snapshots(record:diffTool:)` trait, or for a whole run
/// with the `SNAPSHOT_TESTING_RECORD` environment variable.
public struct SnapshotTestingConfiguration: Sendable {
  /// The configuration of the current task, set by `withSnapshotTesting` and the `.snapshots`
  /// trait; `nil` outside them. Libraries built on top of snapshot testing read and bind it.
  ///
  /// Inside a scope both fields are filled in with what is in effect there: the innermost
  /// scope's choice, else the deprecated globals (and `SNAPSHOT_TESTING_RECORD` for the record
  /// mode), else the defaults. It is the one task-local of the settings in scope: the variant,
  /// scrubbers and counter travel in it too.
  ///
  /// ```swift
  /// withSnapshotTesting(diffTool: .ksdiff) {
  ///   SnapshotTestingConfiguration.current?.record  // .missing, unless configured elsewhere
  /// }
  /// ```
  @_spi(Internals) @TaskLocal public static var current: Self?

  /// How a failure message shows the reference and the failed snapshot, or `nil` to inherit.
  public var diffTool: DiffTool?

  /// When references are written, or `nil` to inherit.
  public var record: Record?

  /// The variant, scrubbers, counter and naming in scope; a configuration made by a library
  /// inside a scope keeps the enclosing one's.
  var scope: SnapshotScope

  /// Creates a configuration; `nil` fields inherit from the enclosing scope.
  public init(record: Record?, diffTool: DiffTool?) {
    self.record = record
    self.diffTool = diffTool
    self.scope = Self.current?.scope ?? SnapshotScope()
  }

  /// When an assertion writes its reference to disk.
  ///
  /// | mode | missing reference | mismatch | match |
  /// |---|---|---|---|
  /// | ``missing`` (default) | written, test fails | fails | passes |
  /// | ``all`` | written, test fails | rewritten, test fails | rewritten, test fails |
  /// | ``failed`` | written, test fails | rewritten, test fails | passes |
  /// | ``never`` | fails | fails | passes |
  public struct Record: Equatable, Sendable, CustomStringConvertible {
    enum Mode: String, Sendable {
      case all, failed, missing, never
    }

    let mode: Mode

    /// Whether a scope, trait, argument or user chose this mode, or
    /// ``SnapshotTestingConfiguration/current`` showed it from outside every scope (the globals,
    /// `SNAPSHOT_TESTING_RECORD` or the default), as upstream does. Record-mode resolution skips
    /// such a mode when it comes back as an argument and looks outside the scopes again, so a
    /// mode that nobody configured keeps counting as unconfigured (the CI rule) and the globals
    /// and the environment variable keep their precedence.
    var origin: Origin = .chosen

    enum Origin: Sendable {
      case chosen
      case copiedFromOutsideScopes
    }

    /// Parses `"all"`, `"failed"`, `"missing"` or `"never"`, the values of
    /// `SNAPSHOT_TESTING_RECORD`; returns `nil` for anything else.
    public init?(rawValue: String) {
      guard let mode = Mode(rawValue: rawValue) else { return nil }
      self.mode = mode
    }

    private init(_ mode: Mode) { self.mode = mode }

    /// Record every snapshot, even matching ones, and fail so the new references get reviewed.
    public static let all = Self(.all)
    /// Re-record only the snapshots that do not match (and the missing ones), failing for each.
    public static let failed = Self(.failed)
    /// Record only missing references; compare the rest. The default.
    public static let missing = Self(.missing)
    /// Never write: a missing reference is a failure, as on a strict CI.
    public static let never = Self(.never)

    /// The mode's name, as `SNAPSHOT_TESTING_RECORD` spells it.
    public var description: String { mode.rawValue }

    /// Two records are equal when they are the same mode, wherever it came from.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.mode == rhs.mode }
  }

  /// Renders the part of a failure message that locates the reference and the failed snapshot,
  /// typically a command that opens a diff tool on the two files.
  ///
  /// ```swift
  /// withSnapshotTesting(diffTool: "meld") { ... }   // "meld REFERENCE FAILED"
  /// withSnapshotTesting(diffTool: .init { "code --diff \($0) \($1)" }) { ... }
  /// ```
  public struct DiffTool: Sendable, ExpressibleByStringLiteral {
    var render: @Sendable (_ currentFilePath: String, _ failedFilePath: String) -> String
    /// `false` when ``SnapshotTestingConfiguration/current`` shows this tool from outside every
    /// scope (the global one or the default): resolution then looks outside the scopes again,
    /// so a global set later inside the scope applies.
    var isChosen = true

    /// This tool if a scope or user chose it. (Spelled `.none`: a bare `nil` here would be the
    /// deprecated `ExpressibleByNilLiteral` conformance, the default tool.)
    var chosen: Self? { isChosen ? self : .none }

    /// Creates a diff tool from a function of the reference's path and the failed snapshot's path.
    public init(
      _ tool: @escaping @Sendable (_ currentFilePath: String, _ failedFilePath: String) -> String
    ) {
      self.render = tool
    }

    /// A command to which the two paths are appended, each quoted for a POSIX shell when it needs
    /// to be: `"opendiff"` gives `opendiff REFERENCE FAILED`.
    public init(stringLiteral value: StringLiteralType) {
      self.render = { "\(value) \(shellQuoted($0)) \(shellQuoted($1))" }
    }

    /// Kaleidoscope's command-line tool, with the paths quoted for a POSIX shell (single quotes),
    /// so that a pasted command never runs anything a folder's name holds.
    public static let ksdiff = Self { "ksdiff \(shellQuoted($0)) \(shellQuoted($1))" }

    /// The two files as `file://` URLs, marked `@−` (reference) and `@+` (failed snapshot), with a
    /// hint on reviewing them: on Linux the review tool and diff tools found there (`diff -u`,
    /// `git diff --no-index`, `meld`); elsewhere upstream's hint, configuring a diff tool.
    public static let `default` = Self { reference, failed in
      """
      @\u{2212}
      "file://\(reference)"
      @+
      "file://\(failed)"

      \(FailureMessage.diffToolHint)
      """
    }

    /// Renders the text for a reference and a failed snapshot.
    public func callAsFunction(currentFilePath: String, failedFilePath: String) -> String {
      render(currentFilePath, failedFilePath)
    }
  }
}

// Deprecated where upstream deprecates it, on Apple platforms only and with `deprecated: 9999`
// (which never warns): a suite that writes `record: true` builds without a warning against both.
@available(
  iOS,
  deprecated: 9999,
  message: "Use '.all' instead of 'true', and '.missing' instead of 'false'."
)
@available(
  macOS,
  deprecated: 9999,
  message: "Use '.all' instead of 'true', and '.missing' instead of 'false'."
)
@available(
  tvOS,
  deprecated: 9999,
  message: "Use '.all' instead of 'true', and '.missing' instead of 'false'."
)
@available(
  watchOS,
  deprecated: 9999,
  message: "Use '.all' instead of 'true', and '.missing' instead of 'false'."
)
@available(
  visionOS,
  deprecated: 9999,
  message: "Use '.all' instead of 'true', and '.missing' instead of 'false'."
)
extension SnapshotTestingConfiguration.Record: ExpressibleByBooleanLiteral {
  /// `true` is ``all``, `false` is ``missing``.
  public init(booleanLiteral value: BooleanLiteralType) {
    self = value ? .all : .missing
  }
}

@available(*, deprecated, renamed: "SnapshotTestingConfiguration.DiffTool.default")
extension SnapshotTestingConfiguration.DiffTool: ExpressibleByNilLiteral {
  /// `nil` is the ``default`` diff tool.
  public init(nilLiteral: ()) {
    self = .default
  }
}

extension SnapshotTestingConfiguration.Record {
  /// `true` is ``all``, `false` is ``missing``, `nil` stays `nil`; for the deprecated `Bool`
  /// record parameters.
  init?(_ isRecording: Bool?) {
    guard let isRecording else { return nil }
    self = isRecording ? .all : .missing
  }
}
