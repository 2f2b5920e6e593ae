@_spi(Internals) import SnapshotTesting

/// Says where, at a call in the test's source, the inline snapshot's closure lives.
///
/// `assertInlineSnapshot` writes its snapshot into the trailing closure labelled `matches` of its
/// own call. A helper that wraps it reports its caller's `line` and `column` instead, so the
/// snapshot lands in the helper's call; the descriptor names the closure there:
///
/// ```swift
/// func assertGreeting(
///   for name: String,
///   matches expected: (() -> String)? = nil,
///   fileID: StaticString = #fileID, file: StaticString = #filePath,
///   function: StaticString = #function, line: UInt = #line, column: UInt = #column
/// ) {
///   assertInlineSnapshot(
///     of: "Hello, \(name)!", as: .lines,
///     syntaxDescriptor: InlineSnapshotSyntaxDescriptor(trailingClosureLabel: "matches"),
///     matches: expected,
///     fileID: fileID, file: file, function: function, line: line, column: column
///   )
/// }
/// ```
public struct InlineSnapshotSyntaxDescriptor: Hashable, Sendable {
  /// The label of `assertInlineSnapshot`'s own snapshot closure: `"matches"`.
  public static let defaultTrailingClosureLabel = "matches"

  /// Labels the snapshot closure had in earlier versions of a helper. A closure found under one of
  /// them is taken as the snapshot and relabelled when it is re-recorded.
  public var deprecatedTrailingClosureLabels: [String]

  /// The label written in front of the snapshot closure when it is not the first trailing closure.
  public var trailingClosureLabel: String

  /// Which trailing closure holds the snapshot, counted from the call's first trailing closure:
  /// `0` for `helper(value) { snapshot }`, `1` for `helper { setup } matches: { snapshot }`.
  public var trailingClosureOffset: Int

  /// Creates a descriptor.
  ///
  /// - Parameters:
  ///   - deprecatedTrailingClosureLabels: Former labels of the snapshot closure.
  ///   - trailingClosureLabel: The snapshot closure's label.
  ///   - trailingClosureOffset: The snapshot closure's position among the trailing closures.
  public init(
    deprecatedTrailingClosureLabels: [String] = [],
    trailingClosureLabel: String = Self.defaultTrailingClosureLabel,
    trailingClosureOffset: Int = 0
  ) {
    self.deprecatedTrailingClosureLabels = deprecatedTrailingClosureLabels
    self.trailingClosureLabel = trailingClosureLabel
    self.trailingClosureOffset = trailingClosureOffset
  }

  /// Records a test failure on the line of the snapshot closure this descriptor describes, at the
  /// call found at `line` and `column` of `filePath`; on `line` itself when the closure is not
  /// there (not written yet, or the source cannot be read).
  ///
  /// - Parameters:
  ///   - message: The failure's text.
  ///   - fileID: The file ID of the call.
  ///   - filePath: The path of the file with the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func fail(
    _ message: @autoclosure () -> String = "",
    fileID: StaticString,
    file filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    let closureLine = (try? InlineSnapshotStore.current.parsedSource(atPath: "\(filePath)"))
      .flatMap { parsed in
        try? snapshotClosureLine(
          in: parsed,
          callLine: Int(line),
          callColumn: Int(column),
          syntaxDescriptor: self
        )
      }
    recordIssue(
      message(),
      fileID: fileID,
      filePath: filePath,
      line: closureLine.map(UInt.init) ?? line,
      column: column
    )
  }

  /// Whether `label` names this descriptor's closure, now or formerly.
  func names(_ label: String) -> Bool {
    label == trailingClosureLabel || deprecatedTrailingClosureLabels.contains(label)
  }
}
