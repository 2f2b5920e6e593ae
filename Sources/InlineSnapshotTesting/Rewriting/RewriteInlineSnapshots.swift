/// Writes inline snapshots into a test's source text and returns the new text.
///
/// A pure function of its inputs: it never touches the disk, so every rule below is tested on
/// fixtures. Each recording names a call by the `#line` and `#column` the running test was
/// compiled with, and carries the snapshot that test saw (`expected`). The text is refused,
/// whole, when
///
/// - it does not scan (``SwiftScanner``), or no call starts its arguments at a recording's line
///   and column (the source has changed since the test was compiled), or the call there has a
///   shape ``CallReader`` does not read with certainty (the refusal names it, and where);
/// - the closure found there does not return `expected` (or exists when `expected` is `nil`, or
///   is missing when it is not): the source has changed since the test was compiled;
/// - the result would not scan or would not read back as the recorded text.
///
/// Only the snapshot closures change; every other byte, comments and formatting included, stays.
///
/// - Complexity: O(*n* + *c*) for a source of *n* bytes whose recorded calls hold *c* bytes (a
///   call with several recorded closures counts once per closure). The source is scanned once
///   and the result once more to check it; in between, only the recorded calls are read again.
func rewriteInlineSnapshots(
  in source: String,
  recordings: [InlineSnapshotRecording]
) throws(InlineSnapshotRewriteError) -> String {
  try rewriteInlineSnapshots(in: ParsedSource(source), recordings: recordings)
}

/// ``rewriteInlineSnapshots(in:recordings:)`` on a source already scanned.
func rewriteInlineSnapshots(
  in parsed: ParsedSource,
  recordings: [InlineSnapshotRecording]
) throws(InlineSnapshotRewriteError) -> String {
  if let errorLine = parsed.firstSyntaxErrorLine {
    throw .unparsable(line: errorLine)
  }
  var pass = RewritePass(source: parsed)
  // Later calls first: an edit only changes text after its call's argument list starts, so the
  // lines and columns of the calls still to come stay valid.
  for recording in recordings.sorted(by: { $0.slot < $1.slot }) {
    try pass.apply(recording)
  }
  guard pass.hasEdits else { return parsed.text(0..<parsed.bytes.count) }
  let text = pass.finish()
  if ParsedSource(text).firstSyntaxErrorLine != nil {
    throw .producedInvalidSource
  }
  return text
}

/// Checks that `recordings`, all of one call, can be written into `parsed`, without the rest of
/// the file: what an assertion checks before it queues its recording for the end of the run.
///
/// - Complexity: O(*c*) for a call of *c* bytes, times the recordings.
func checkRecordings(
  _ recordings: [InlineSnapshotRecording],
  in parsed: ParsedSource
) throws(InlineSnapshotRewriteError) {
  if let errorLine = parsed.firstSyntaxErrorLine {
    throw .unparsable(line: errorLine)
  }
  var pass = RewritePass(source: parsed)
  for recording in recordings.sorted(by: { $0.slot < $1.slot }) {
    try pass.apply(recording)
  }
}

/// The recordings of one file applied one after another, against a single scan of the file.
///
/// Every edit lands after its call's position, and the calls are taken from the last in the file
/// to the first, so the text before a call never changes before the call's turn. The new text is
/// built from the end: `committed` holds the finished text after the `region`, the bytes of the
/// recorded calls being edited (one call, or calls nested in one another), so that an edit copies
/// only its region, never the file. A call is read from the file's scan while no edit has landed
/// in its region; once one has, the region's text alone is scanned again.
private struct RewritePass {
  let source: ParsedSource
  let style: SourceStyle
  /// The finished text after the region, as pieces from the end of the file backwards.
  private var committed: [Piece] = []
  private var region: Piece?
  /// The region's text scanned, while no edit has been made since.
  private var regionScan: ParsedSource?
  private(set) var hasEdits = false

  /// Bytes of the new text that stand for the range `start..<end` of the source.
  private struct Piece {
    var start: Int
    var end: Int
    var bytes: ArraySlice<UInt8>
    var isEdited: Bool
  }

  init(source: ParsedSource) {
    self.source = source
    self.style = SourceStyle(source.bytes)
  }

  /// Applies one recording, then checks that the closure reads back as the recorded text.
  mutating func apply(_ recording: InlineSnapshotRecording) throws(InlineSnapshotRewriteError) {
    let original: ScannedCall
    switch source.lookUpCall(line: recording.line, column: recording.column) {
    case .found(let call):
      original = call
    case .nothing:
      throw .callNotFound(line: recording.line, column: recording.column)
    case .refused(let shape, let line, let column):
      throw .unreadableCall(
        line: recording.line,
        column: recording.column,
        shape: shape,
        shapeLine: line,
        shapeColumn: column
      )
    }
    include(original)
    let view = try callView(for: recording)
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
        indentation: source.indentation(ofLine: recording.line),
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
    region!.bytes.replaceSubrange(
      (region!.bytes.startIndex + view.shift + edit.from)..<(region!.bytes.startIndex + view.shift
        + edit.to),
      with: edit.replacement.utf8
    )
    region!.isEdited = true
    regionScan = nil
    hasEdits = true
    try checkReadsBack(recording)
  }

  /// The new text: the source before the region, the region, and the committed text.
  mutating func finish() -> String {
    var pieces = committed
    var start = source.bytes.count
    if let region {
      pieces.append(region)
      start = region.start
    }
    pieces.append(Piece(start: 0, end: start, bytes: source.bytes[0..<start], isEdited: false))
    var bytes: [UInt8] = []
    bytes.reserveCapacity(pieces.reduce(0) { $0 + $1.bytes.count })
    for piece in pieces.reversed() { bytes.append(contentsOf: piece.bytes) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Makes the region cover `call` (source offsets): a call after the region... cannot come, as
  /// calls come last first; one before it commits the region and starts a new one; one that
  /// overlaps it (encloses it, or holds it in its called expression) widens it.
  private mutating func include(_ call: ScannedCall) {
    guard var current = region else {
      region = Piece(
        start: call.start, end: call.end, bytes: source.bytes[call.start..<call.end],
        isEdited: false)
      committed.append(
        Piece(start: call.end, end: source.bytes.count, bytes: source.bytes[call.end...],
          isEdited: false))
      return
    }
    if call.end <= current.start {
      committed.append(current)
      committed.append(
        Piece(start: call.end, end: current.start, bytes: source.bytes[call.end..<current.start],
          isEdited: false))
      region = Piece(
        start: call.start, end: call.end, bytes: source.bytes[call.start..<call.end],
        isEdited: false)
      regionScan = nil
      return
    }
    var bytes = Array(source.bytes[min(call.start, current.start)..<current.start])
    bytes.append(contentsOf: current.bytes)
    // Take back what was committed up to the call's end.
    while current.end < call.end, var next = committed.popLast() {
      if next.end <= call.end || next.isEdited {
        bytes.append(contentsOf: next.bytes)
        current.end = next.end
        current.isEdited = current.isEdited || next.isEdited
      } else {
        let split = call.end - next.start
        bytes.append(contentsOf: next.bytes.prefix(split))
        next.bytes = next.bytes.dropFirst(split)
        next.start = call.end
        current.end = call.end
        committed.append(next)
      }
    }
    current.start = min(call.start, current.start)
    current.bytes = bytes[...]
    region = current
    regionScan = nil
  }

  /// The call `recording` names, as the region reads now.
  private mutating func callView(
    for recording: InlineSnapshotRecording
  ) throws(InlineSnapshotRewriteError) -> CallView {
    let region = self.region!
    if !region.isEdited, let call = source.call(line: recording.line, column: recording.column) {
      return CallView(call: call, shift: -region.start)
    }
    if regionScan == nil {
      let location = source.location(of: region.start)
      regionScan = ParsedSource(
        region.bytes,
        origin: .init(offset: region.start, line: location.line, column: location.column)
      )
    }
    guard let call = regionScan!.call(line: recording.line, column: recording.column) else {
      throw .producedInvalidSource
    }
    return CallView(call: call, shift: 0)
  }

  /// Checks that the new closure reads back as exactly the recorded text.
  private mutating func checkReadsBack(
    _ recording: InlineSnapshotRecording
  ) throws(InlineSnapshotRewriteError) {
    guard let actual = recording.actual else { return }
    guard let view = try? callView(for: recording),
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

/// A call as the pass reads it: from the file's scan, or from its region's text scanned anew.
private struct CallView {
  var call: ScannedCall
  /// What to add to an offset of `call` to find its byte in the region.
  var shift: Int
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

  /// The style of a file's bytes; reads them only up to the first indented line.
  init<Bytes: Collection<UInt8>>(_ bytes: Bytes) where Bytes.Index == Int {
    let lineFeed = UInt8(ascii: "\n")
    newline =
      bytes.firstIndex(of: lineFeed).map { index in
        index > bytes.startIndex && bytes[index - 1] == 0x0D ? "\r\n" : "\n"
      } ?? "\n"
    indentUnit = "    "
    var lineStart = bytes.startIndex
    while lineStart < bytes.endIndex {
      let lineEnd = bytes[lineStart...].firstIndex(of: lineFeed) ?? bytes.endIndex
      let line = bytes[lineStart..<lineEnd]
      let indentation = line.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
      let rest = line.dropFirst(indentation.count)
      // A block comment's ` * ` continuation lines are not indentation.
      if !indentation.isEmpty, let first = rest.first, first != UInt8(ascii: "*"), first != 0x0D {
        indentUnit = String(decoding: indentation, as: UTF8.self)
        break
      }
      lineStart = lineEnd + 1
    }
  }

  init(_ source: String) {
    self.init(Array(source.utf8))
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
