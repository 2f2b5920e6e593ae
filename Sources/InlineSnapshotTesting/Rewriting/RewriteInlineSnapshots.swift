/// Writes inline snapshots into a test's source text and returns the new text.
///
/// A pure function of its inputs: it never touches the disk, so every rule below is tested on
/// fixtures. Each recording names a call by the `#line` and `#column` the running test was
/// compiled with, and carries the snapshot that test saw (`expected`). The text is refused,
/// whole, when
///
/// - it does not scan (``SwiftScanner``), or no call the scanner can place with certainty starts
///   its arguments at a recording's line and column (``CallReader``);
/// - the closure found there does not return `expected` (or exists when `expected` is `nil`, or
///   is missing when it is not): the source has changed since the test was compiled;
/// - the result would not scan or would not read back as the recorded text.
///
/// Only the snapshot closures change; every other byte, comments and formatting included, stays.
///
/// - Complexity: O(*n* · *r*) for a source of *n* bytes and *r* recordings. The source is scanned
///   once and the result once more to check it; in between, each edited call's own text is
///   scanned again, so that the next recording of the same call sees the previous edit.
func rewriteInlineSnapshots(
  in source: String,
  recordings: [InlineSnapshotRecording]
) throws(InlineSnapshotRewriteError) -> String {
  let parsed = ParsedSource(source)
  if let errorLine = parsed.firstSyntaxErrorLine {
    throw .unparsable(line: errorLine)
  }
  var pass = RewritePass(source: parsed, text: source)
  // Later calls first: an edit only changes text after its call's argument list starts, so the
  // lines and columns of the calls still to come stay valid.
  for recording in recordings.sorted(by: { $0.slot < $1.slot }) {
    try pass.apply(recording)
  }
  if pass.text != source, ParsedSource(pass.text).firstSyntaxErrorLine != nil {
    throw .producedInvalidSource
  }
  return pass.text
}

/// The recordings of one file applied one after another, against a single scan of the file.
///
/// Every edit lands after its call's position, and the calls are taken from the last in the file
/// to the first, so the text before a call never changes before the call's turn. The call is
/// then read from the file's scan while no edit of the pass has landed inside it; once one has
/// (an earlier closure of the same call, or a recorded call nested in its arguments), its current
/// text alone is scanned again.
private struct RewritePass {
  let source: ParsedSource
  let style: SourceStyle
  private(set) var text: String
  /// The edits made so far: the offset in `source` of their call's position, and the bytes they
  /// added.
  private var edits: [(callOffset: Int, addedBytes: Int)] = []
  /// The call last read from its own text, while no edit has been made since.
  private var lastReparsed: (callPosition: Int, editCount: Int, view: CallView)?

  init(source: ParsedSource, text: String) {
    self.source = source
    self.style = SourceStyle(text)
    self.text = text
  }

  /// Applies one recording, then checks that the closure reads back as the recorded text.
  mutating func apply(_ recording: InlineSnapshotRecording) throws(InlineSnapshotRewriteError) {
    guard let view = callView(for: recording) else {
      throw .callNotFound(line: recording.line, column: recording.column)
    }
    let slot = try SnapshotSlot(
      of: view.call,
      descriptor: recording.syntaxDescriptor,
      line: recording.line
    )
    try checkUnchanged(slot, recording: recording, normalizingCRLF: style.newline == "\r\n")
    guard recording.expected != recording.actual else { return }
    let closureText = recording.actual.map {
      snapshotClosureText(
        $0,
        indentation: style.indentation(ofLine: recording.line, in: text),
        indentUnit: style.indentUnit,
        newline: style.newline
      )
    }
    guard
      let edit = try snapshotEdit(
        writing: closureText,
        into: slot,
        of: view.call,
        recording: recording
      )
    else { return }
    let before = text.utf8.count
    text = edit.apply(to: text, at: view.offset)
    edits.append((view.originalPosition, text.utf8.count - before))
    try checkReadsBack(recording)
  }

  /// The call `recording` names, as the text reads now, or `nil` when there is none.
  private mutating func callView(for recording: InlineSnapshotRecording) -> CallView? {
    guard let call = source.call(line: recording.line, column: recording.column) else {
      return nil
    }
    let start = call.start
    let end = call.end
    let editsInside = edits.filter { (start..<end).contains($0.callOffset) }
    let originalPosition = call.position
    guard !editsInside.isEmpty else {
      return CallView(call: call, offset: 0, originalPosition: originalPosition)
    }
    if let last = lastReparsed, last.callPosition == originalPosition,
      last.editCount == edits.count
    {
      return last.view
    }
    let currentEnd = end + editsInside.reduce(0) { $0 + $1.addedBytes }
    let utf8 = Array(text.utf8)
    let callText = String(decoding: utf8[start..<min(currentEnd, utf8.count)], as: UTF8.self)
    let location = source.location(of: call.start)
    let reparsed = ParsedSource(
      callText,
      origin: .init(offset: start, line: location.line, column: location.column)
    )
    guard let current = reparsed.call(line: recording.line, column: recording.column) else {
      return nil
    }
    let view = CallView(call: current, offset: start, originalPosition: originalPosition)
    lastReparsed = (originalPosition, edits.count, view)
    return view
  }

  /// Checks that the new closure reads back as exactly the recorded text.
  private mutating func checkReadsBack(
    _ recording: InlineSnapshotRecording
  ) throws(InlineSnapshotRewriteError) {
    guard let actual = recording.actual else { return }
    guard let view = callView(for: recording),
      let closure = try? SnapshotSlot(
        of: view.call,
        descriptor: recording.syntaxDescriptor,
        line: recording.line
      ).closure,
      var written = literalText(of: closure)
    else {
      throw .producedInvalidSource
    }
    if style.newline == "\r\n" { written = written.replacingCRLF() }
    guard written == actual else { throw .producedInvalidSource }
  }
}

/// A call as the pass reads it: from the file's parse, or from its own text parsed anew.
private struct CallView {
  var call: ScannedCall
  /// Where position 0 of `call`'s tree is in the current text.
  var offset: Int
  /// The offset in the file's parse of the call's position, which names it across edits.
  var originalPosition: Int
}

/// Refuses to write when the closure in the source is not the one the test was compiled with.
private func checkUnchanged(
  _ slot: SnapshotSlot,
  recording: InlineSnapshotRecording,
  normalizingCRLF: Bool
) throws(InlineSnapshotRewriteError) {
  let label = recording.syntaxDescriptor.trailingClosureLabel
  guard let closure = slot.closure else {
    if recording.expected != nil {
      throw .closureChanged(
        line: recording.line,
        label: label,
        detail: "is missing from the source, but the running test had one"
      )
    }
    return
  }
  guard let expected = recording.expected else {
    throw .closureChanged(
      line: recording.line,
      label: label,
      detail: "is in the source, but the running test had none"
    )
  }
  // A closure that computes its text cannot be compared; the file-level checks still apply.
  guard var text = literalText(of: closure) else { return }
  if normalizingCRLF { text = text.replacingCRLF() }
  if text != expected {
    throw .closureChanged(
      line: recording.line,
      label: label,
      detail: "no longer returns the text the running test was compiled with"
    )
  }
}

/// How the file is written: the snapshot closures follow it.
struct SourceStyle {
  /// One level of indentation: the whitespace of the first indented line, else four spaces.
  var indentUnit: String
  /// `"\r\n"` when the file's first line ends that way, else `"\n"`.
  var newline: String

  init(_ source: String) {
    newline =
      source.utf8.firstIndex(of: UInt8(ascii: "\n")).map { index in
        index > source.utf8.startIndex && source.utf8[source.utf8.index(before: index)] == 0x0D
          ? "\r\n" : "\n"
      } ?? "\n"
    indentUnit = "    "
    for line in source.unicodeScalars.split(separator: "\n") {
      let indentation = line.prefix { $0 == " " || $0 == "\t" }
      let rest = line.dropFirst(indentation.count)
      // A block comment's ` * ` continuation lines are not indentation.
      guard !indentation.isEmpty, let first = rest.first, first != "*", first != "\r" else {
        continue
      }
      indentUnit = String(String.UnicodeScalarView(indentation))
      break
    }
  }

  /// The leading spaces and tabs of the 1-based line `line`.
  func indentation(ofLine line: Int, in source: String) -> String {
    var current = 1
    var utf8 = source.utf8[...]
    while current < line, let newlineIndex = utf8.firstIndex(of: UInt8(ascii: "\n")) {
      utf8 = utf8[utf8.index(after: newlineIndex)...]
      current += 1
    }
    let indentation = utf8.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    return String(decoding: indentation, as: UTF8.self)
  }
}

extension String {
  /// The text with every CR LF pair turned into a single LF; lone carriage returns stay.
  func replacingCRLF() -> String {
    var result = ""
    var pendingCarriageReturn = false
    for scalar in unicodeScalars {
      if pendingCarriageReturn, scalar != "\n" { result.unicodeScalars.append("\r") }
      pendingCarriageReturn = scalar == "\r"
      if !pendingCarriageReturn { result.unicodeScalars.append(scalar) }
    }
    if pendingCarriageReturn { result.unicodeScalars.append("\r") }
    return result
  }
}
