import Foundation
import RunRecord

/// The words of an assertion's failure, built from what it decided and did; pure, so each
/// message can be tested on its own. The text is upstream's where upstream has the case.
enum FailureMessage {
  /// The default diff tool's advice below the two files. On Linux it names what a Linux user
  /// has, in two lines: the review tool and diff tools that exist there. Elsewhere it is
  /// upstream's text, which suggests Kaleidoscope.
  static var diffToolHint: String {
    #if os(Linux) || os(Android) || os(FreeBSD) || os(OpenBSD)
      """
      Review it with 'swift run snapshot-testing review', or set a diff tool:
      withSnapshotTesting(diffTool: "diff -u") { … } (or "git diff --no-index", "meld")
      """
    #else
      """
      To open the two files in a diff tool of your choice, configure one with \
      'withSnapshotTesting(diffTool:)', for example:

          withSnapshotTesting(diffTool: .ksdiff) {
            // assertions
          }
      """
    #endif
  }

  /// The line of a recording's message that leads to the new reference. On macOS it is upstream's
  /// `open "file://…"`, a command that opens the file; Linux has no `open` (and a server often no
  /// `xdg-open`), so there it is the file's path, quoted, which a terminal or an editor takes.
  static func showReference(_ referenceURL: URL) -> String {
    #if os(Linux) || os(Android) || os(FreeBSD) || os(OpenBSD)
      #""\#(referenceURL.path)""#
    #else
      #"open "\#(referenceURL.absoluteString)""#
    #endif
  }

  /// The failure of an assertion that recorded its snapshot as the reference.
  static func recorded(
    _ reason: SnapshotDecision.RecordingReason,
    referenceURL: URL,
    testName: String
  ) -> String {
    let note =
      switch reason {
      case .recordModeAll: #"Record mode is "all", so every snapshot is recorded and fails."#
      case .referenceMissing: "No reference was found on disk."
      }
    return """
      \(note) Recorded the snapshot: …

      \(showReference(referenceURL))

      Re-run "\(sanitizePathComponent(testName))" to compare against the new reference.
      """
  }

  /// The failure of an assertion whose strategy could not snapshot the value; nothing was
  /// compared or written.
  static func unavailable(_ reason: String, _ referencePath: String) -> String {
    """
    \(reason)

    The strategy could not produce a snapshot of this value, so nothing was compared with \
    "\(referencePath)" and nothing was recorded.
    """
  }

  /// The failure's headline as review tools show it.
  static func headline(_ reason: SnapshotDecision.MissingReason) -> String {
    switch reason {
    case .recordModeNever: #"No reference was found, and none was recorded (record mode "never")."#
    case .continuousIntegration: "No reference was found, and none was recorded on CI."
    }
  }

  /// The failure of an assertion whose reference is missing and was not recorded.
  static func missing(
    _ reason: SnapshotDecision.MissingReason,
    referencePath: String,
    newSnapshotPath: String
  ) -> String {
    switch reason {
    case .recordModeNever:
      return """
        No reference was found at "\(referencePath)". Nothing was recorded because the record \
        mode is "never".
        """
    case .continuousIntegration:
      return """
        No reference was found at "\(referencePath)". It was not recorded because this is a CI \
        run (the CI environment variable is set) and no record mode is configured: a retried job \
        must never pass on a reference it wrote itself.

        Record the snapshot locally and commit it, or set SNAPSHOT_TESTING_RECORD=missing to \
        record on CI on purpose. The new snapshot was saved to "\(newSnapshotPath)".
        """
    }
  }

  /// `Snapshot does not match reference.`, naming the snapshot when it has a name.
  static func mismatchHeadline(name: String?, rerecorded: Bool) -> String {
    let headline =
      name.map { #"Snapshot "\#($0)" does not match reference."# }
      ?? "Snapshot does not match reference."
    return rerecorded ? headline + " A new snapshot was automatically recorded." : headline
  }

  /// The failure of an assertion whose snapshot differs from its reference.
  static func mismatch(
    headline: String,
    diffToolCommand: String,
    difference: String,
    recordingProblem: String?,
    referenceWasEmpty: Bool,
    referencePath: String
  ) -> String {
    var text = """
      \(headline)

      \(diffToolCommand)

      \(difference)
      """
    if let recordingProblem { text += "\n\n\(recordingProblem)" }
    if referenceWasEmpty {
      text += """
        \n\nThe reference "\(referencePath)" is empty (0 bytes); it may have been truncated.
        """
    }
    return text
  }

  /// Appends problems met while saving the failure's files, each as its own paragraph.
  static func appending(_ problems: [String], to message: String) -> String {
    problems.reduce(message) { $0 + "\n\n" + $1 }
  }
}
