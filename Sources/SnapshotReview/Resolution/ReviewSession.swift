import Foundation
import RunRecord

/// The `review`, `accept` and `reject` commands, free of argument parsing so tests can run them.
package struct ReviewSession {
  /// The artifacts folder; reports are written there.
  package var artifactsRoot: URL
  /// More artifacts folders whose failures are read too (`--artifacts` repeated).
  package var additionalArtifactsRoots: [URL] = []
  package var hints: CommandHints
  package var console: any ReviewConsole
  /// Whether `review` colours its diffs and marks the changed words (see ``TerminalColors``).
  package var colors = false
  /// Whether failures of other packages sharing the artifacts folder are seen too
  /// (`--all-packages`); by default only this package's are (see ``PendingFailures``).
  package var includesOtherPackages = false
  /// Whether a person is at a terminal (standard input is one). Only then, and only for more
  /// than one failure chosen without filters, does the tool suggest `accept --all`; an agent or
  /// a script is shown the commands that resolve one failure.
  package var hasTerminal = false

  package init(artifactsRoot: URL, hints: CommandHints, console: any ReviewConsole) {
    self.artifactsRoot = artifactsRoot
    self.hints = hints
    self.console = console
  }

  /// A session on the failures of several artifacts folders, merged; the first is where reports
  /// go. An empty list means the current folder.
  package init(artifactsRoots: [URL], hints: CommandHints, console: any ReviewConsole) {
    self.init(
      artifactsRoot: artifactsRoots.first ?? URL(fileURLWithPath: ".", isDirectory: true),
      hints: hints,
      console: console
    )
    self.additionalArtifactsRoots = Array(artifactsRoots.dropFirst())
  }

  /// Every artifacts folder the session reads.
  package var artifactsRoots: [URL] { [artifactsRoot] + additionalArtifactsRoots }

  /// The artifacts folders, as messages name them.
  var artifactsDescription: String {
    artifactsRoots.map(\.path).joined(separator: ", ")
  }

  /// Lists the pending failures that match `filters`; when `interactive`, asks what to do with
  /// each.
  ///
  /// Returns ``ToolExitCode/success`` when nothing is left pending, ``ToolExitCode/pending`` when
  /// failures were listed but not all resolved, ``ToolExitCode/noMatch`` when filters matched none
  /// and ``ToolExitCode/failure`` when a decision could not be carried out.
  package func review(filters: [String], interactive: Bool) -> ToolExitCode {
    let selected: [PendingFailure]
    switch select(filters: filters) {
    case .done(let status): return status
    case .selected(let failures): selected = failures
    }
    console.write(
      "\(count(selected.count, "pending snapshot failure")) in \(artifactsDescription):\n"
    )

    var acceptRest = false
    var tally = Tally()
    for (index, failure) in selected.enumerated() {
      console.write("\n" + describe(failure, position: index + 1, of: selected.count))
      guard interactive else { continue }
      var decision: Decision?
      if acceptRest {
        decision = .accept
      } else {
        switch askDecision() {
        case .decide(let chosen): decision = chosen
        case .acceptRest: acceptRest = true; decision = .accept
        case .skip: decision = nil
        case .quit:
          tally.skipped += selected.count - index
          return finish(tally)
        }
      }
      guard let decision else {
        tally.skipped += 1
        continue
      }
      carryOut(decision, on: failure, tally: &tally)
    }
    guard interactive else {
      console.write("\n" + resolutionHint(for: selected, filters: filters))
      return .pending
    }
    return finish(tally)
  }

  /// Whether to suggest `accept --all` for `selected`: only to a person at a terminal, for more
  /// than one failure, when no filter chose them.
  func suggestsAll(for selected: [PendingFailure], filters: [String]) -> Bool {
    hasTerminal && filters.isEmpty && selected.count > 1
  }

  /// What a listing ends with: the commands that resolve what it showed.
  private func resolutionHint(for selected: [PendingFailure], filters: [String]) -> String {
    if suggestsAll(for: selected, filters: filters) {
      return """
        Accept all of them with:  \(hints.command("accept", ["--all"]))
        Discard all of them with: \(hints.command("reject", ["--all"]))

        """
    }
    guard selected.count > 1, let first = selected.first else {
      let name = selected.first.map(hints.name(of:)) ?? ""
      return """
        Accept it with:  \(hints.command("accept", [name]))
        Discard it with: \(hints.command("reject", [name]))

        """
    }
    return """
      Resolve them one at a time: accept one with the command under it, or discard it with \
      reject and the same name, as in:
        \(hints.command("reject", [hints.name(of: first)]))

      """
  }

  /// Prints the pending failures that match `filters` for a machine: the versioned JSON document
  /// (``ReviewDocument``) or GitHub Actions workflow commands (``GitHubAnnotations``). Standard
  /// output holds only that; notes and warnings go to standard error. The JSON document is
  /// printed even when nothing is pending.
  ///
  /// Returns what ``review(filters:interactive:)`` returns without a terminal:
  /// ``ToolExitCode/success`` when nothing is pending, ``ToolExitCode/pending`` when failures were
  /// printed, ``ToolExitCode/noMatch`` when filters matched none, ``ToolExitCode/failure`` when
  /// only unreadable records were found.
  package func review(filters: [String], format: ReviewOutputFormat) -> ToolExitCode {
    let pending = loadPending()
    let selected: [PendingFailure]
    let status: ToolExitCode
    switch select(in: pending, filters: filters, quietly: true) {
    case .done(let done): (selected, status) = ([], done)
    case .selected(let failures): (selected, status) = (failures, .pending)
    }
    switch format {
    case .json:
      let document = ReviewDocument(
        failures: selected,
        problems: pending.problems,
        artifactsRoots: artifactsRoots,
        hints: hints
      )
      console.write(document.json())
    case .github:
      console.write(GitHubAnnotations.lines(for: selected, hints: hints))
    }
    return status
  }

  /// Accepts or rejects every pending failure matching `filters` (all of them when `all`).
  package func resolve(_ decision: Decision, filters: [String]) -> ToolExitCode {
    switch select(filters: filters) {
    case .done(let status): return status
    case .selected(let failures): return resolve(decision, failures: failures)
    }
  }

  /// Accepts or rejects `selected`, saying what was done: what the `accept` and `reject`
  /// commands and the served report's buttons carry out.
  package func resolve(_ decision: Decision, failures selected: [PendingFailure]) -> ToolExitCode {
    var tally = Tally()
    // Inline snapshots of one file are written in one rewrite.
    let inline = decision == .accept ? selected.filter(\.isInline) : []
    for (failure, error) in zip(inline, InlineAcceptance.accept(inline)) {
      report(.accept, on: failure, error: error, tally: &tally)
    }
    for failure in selected where !(decision == .accept && failure.isInline) {
      carryOut(decision, on: failure, tally: &tally)
    }
    return finish(tally)
  }

  // MARK: - Steps

  private enum Selection {
    case done(ToolExitCode)
    case selected([PendingFailure])
  }

  /// The pending failures `filters` select, or the status to end with. With `quietly`, what it
  /// says goes to standard error, keeping standard output for a machine-readable format.
  private func select(filters: [String], quietly: Bool = false) -> Selection {
    select(in: loadPending(), filters: filters, quietly: quietly)
  }

  /// The pending failures in scope, having said on standard error what was skipped or left out.
  func loadPending() -> PendingFailures {
    let pending = PendingFailures.load(
      artifactsRoots: artifactsRoots,
      packageRoot: hints.packageRoot,
      includingOtherPackages: includesOtherPackages
    )
    for problem in pending.problems {
      console.warn("warning: skipped an unreadable failure record: \(problem)\n")
    }
    for note in pending.notes { console.warn("note: \(note)\n") }
    if pending.otherPackages > 0 {
      console.warn(
        """
        note: left out \(count(pending.otherPackages, "pending failure")) of other packages in \
        \(artifactsDescription): their references and test files are not in \
        \(hints.packageRoot.path) (another package's, or moved since the run). Run the tool in \
        their package, or pass --all-packages to see them.

        """
      )
    }
    return pending
  }

  private func select(in pending: PendingFailures, filters: [String], quietly: Bool) -> Selection {
    guard !pending.failures.isEmpty else {
      let say = quietly ? console.warn : console.write
      say("No pending snapshot failures in \(artifactsDescription).\n")
      for root in artifactsRoots where !FileManager.default.fileExists(atPath: root.path) {
        say(
          artifactsRoots.count == 1
            ? "That folder does not exist: pass --artifacts with the SNAPSHOT_ARTIFACTS the tests used.\n"
            : "\(root.path) does not exist: pass --artifacts with the SNAPSHOT_ARTIFACTS the tests used.\n"
        )
      }
      return .done(pending.problems.isEmpty ? .success : .failure)
    }
    let filter = FailureFilter(filters, packageRoot: hints.packageRoot)
    let selected = pending.failures.filter(filter.matches)
    let unmatched = filter.unmatchedPatterns(in: pending.failures)
    for pattern in unmatched where !selected.isEmpty {
      console.warn("warning: no pending failure matches \"\(pattern)\".\n")
    }
    guard !selected.isEmpty else {
      console.warn(
        """
        No pending failure matches \(filters.map { "\"\($0)\"" }.joined(separator: ", ")). \
        \(count(pending.failures.count, "failure")) pending; list them with: \
        \(hints.command("review"))

        """
      )
      return .done(.noMatch)
    }
    return .selected(selected)
  }

  private enum Answer {
    case decide(Decision)
    case acceptRest
    case skip
    case quit
  }

  private func askDecision() -> Answer {
    while true {
      guard
        let answer = console.ask(
          "[a]ccept, [r]eject, [s]kip, accept [A]ll remaining, [q]uit? "
        )
      else { return .quit }
      switch answer.trimmingCharacters(in: .whitespaces) {
      case "a", "accept": return .decide(.accept)
      case "r", "reject": return .decide(.reject)
      case "s", "skip", "": return .skip
      case "A", "all": return .acceptRest
      case "q", "quit": return .quit
      default: console.write("Answer a, r, s, A or q.\n")
      }
    }
  }

  private struct Tally {
    var accepted: [String] = []
    var rejected: [String] = []
    var skipped = 0
    var failed = 0
  }

  private func carryOut(_ decision: Decision, on failure: PendingFailure, tally: inout Tally) {
    do {
      try failure.resolve(decision)
      report(decision, on: failure, error: nil, tally: &tally)
    } catch {
      report(decision, on: failure, error: error, tally: &tally)
    }
  }

  private func report(
    _ decision: Decision,
    on failure: PendingFailure,
    error: ResolutionError?,
    tally: inout Tally
  ) {
    let name = hints.name(of: failure)
    if let error {
      console.warn("error: \(error.description)\n")
      tally.failed += 1
      return
    }
    switch decision {
    case .accept:
      console.write("Accepted \(name)\n")
      tally.accepted.append(name)
    case .reject:
      console.write("Rejected \(name)\n")
      tally.rejected.append(name)
    }
  }

  private func finish(_ tally: Tally) -> ToolExitCode {
    var parts: [String] = []
    if !tally.accepted.isEmpty { parts.append("accepted \(tally.accepted.count)") }
    if !tally.rejected.isEmpty { parts.append("rejected \(tally.rejected.count)") }
    if tally.skipped > 0 { parts.append("skipped \(tally.skipped)") }
    if tally.failed > 0 { parts.append("\(tally.failed) could not be resolved") }
    let summary = parts.isEmpty ? "Nothing changed" : parts.joined(separator: ", ")
    console.write("\(summary.prefix(1).uppercased() + summary.dropFirst()).\n")
    if tally.failed > 0 { return .failure }
    return tally.skipped > 0 ? .pending : .success
  }

  // MARK: - Showing a failure

  /// A failure as `review` prints it: where it is, its difference, and how to accept it.
  package func describe(_ failure: PendingFailure, position: Int, of total: Int) -> String {
    let record = failure.record
    var text = "[\(position)/\(total)] \(record.testName) — \(failure.headline)\n"
    text += "  test:      \(hints.display(failure.testFilePath)):\(record.line)\n"
    if failure.isInline {
      text += "  inline:    the closure of the call at column \(record.inline?.column ?? 0)"
      text += record.reason == .missing ? " (none yet)\n" : "\n"
    } else {
      let reference = failure.referenceURL?.path ?? record.referencePath
      text += "  reference: \(hints.display(reference))"
      text += record.reason == .missing ? " (missing)\n" : "\n"
      text += "  new:       \(hints.display(failure.failedSnapshotURL.path))\n"
    }
    if let changes = failure.structuredChanges, !changes.isEmpty {
      text += "  changes:\n" + changes.map { "    \($0)\n" }.joined()
    }
    let shown = DifferenceExcerpt(difference(of: failure), patchPath: hints.wholeDifference(of: failure))
    text += "\n" + indented(colors ? TerminalColors.colour(shown.kept) : shown.kept, by: 4)
    if let note = shown.note { text += indented(note, by: 4) }
    text += "\n  accept: \(hints.acceptCommand(for: failure))\n"
    return text
  }

  /// The text diff (the `.patch` attachment), or for images and other formats the stored
  /// message and the files to look at. Shown through ``DifferenceExcerpt``, the failure
  /// message's own bounds.
  private func difference(of failure: PendingFailure) -> String {
    if failure.isInline { return inlineDifference(of: failure) }
    if failure.record.reason == .mismatch, let patchURL = failure.file(.patch),
      let patch = try? String(contentsOf: patchURL, encoding: .utf8)
    {
      return patch
    }
    var text = failure.details
    if failure.isImage {
      let files = failure.files.dropFirst().filter { $0.role != .patch }.map(\.url)
      for url in files { text += "\nfile: \(hints.display(url.path))" }
      text += "\nSee the images side by side with: \(hints.command("report"))"
    } else if failure.record.reason == .missing,
      let listing = folderListing(failure.failedSnapshotURL)
    {
      text += "\n\n" + listing
    } else if failure.record.reason == .missing,
      let data = try? Data(contentsOf: failure.failedSnapshotURL),
      let snapshot = String(data: data, encoding: .utf8)
    {
      let lines = snapshot.split(separator: "\n", omittingEmptySubsequences: false)
      let shown = lines.prefix(20).map { "+" + $0 }.joined(separator: "\n")
      text += "\n\n" + shown + (lines.count > 20 ? "\n… \(lines.count - 20) more lines" : "")
    }
    return text
  }
}

/// An inline failure's diff, or for a missing snapshot its new text as added lines.
func inlineDifference(of failure: PendingFailure) -> String {
  if let difference = failure.record.difference { return difference }
  guard let actual = failure.record.inline?.actual else { return failure.details }
  let lines = actual.split(separator: "\n", omittingEmptySubsequences: false)
  let shown = lines.prefix(20).map { "+" + $0 }.joined(separator: "\n")
  return shown + (lines.count > 20 ? "\n… \(lines.count - 20) more lines" : "")
}

func indented(_ text: String, by spaces: Int) -> String {
  let pad = String(repeating: " ", count: spaces)
  return text.split(separator: "\n", omittingEmptySubsequences: false)
    .map { $0.isEmpty ? "" : pad + $0 }
    .joined(separator: "\n")
    .trimmingCharacters(in: .newlines) + "\n"
}

/// "1 failure", "2 failures"; "1 test process", "2 test processes" with `plural`.
func count(_ number: Int, _ noun: String, _ plural: String? = nil) -> String {
  "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
}
