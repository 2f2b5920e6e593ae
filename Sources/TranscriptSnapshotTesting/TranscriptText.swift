import Foundation
import HTTPSnapshotTesting
import InMemoryTracing
import Logging
import SnapshotTesting
import Tracing

/// What the transcript strategy prints and leaves out.
struct TranscriptOptions: Sendable {
  var minimumLevel: Logger.Level
  var durationBucket: Duration?
  var sourceLocations: Bool
  /// Longer log messages and values are cut here, with a note of how much was left out.
  static let maximumValueLength = 4096
}

/// Renders a transcript into one text: one section per event, spans as an indented tree at their
/// root's start.
///
/// It also notes where the text's values lie that may hold a UUID or an ISO 8601 date (the only
/// places an identity can be, see ``TranscriptIdentities``), so that scrubbing reads those
/// values rather than the whole text.
struct TranscriptText {
  let transcript: Transcript
  let options: TranscriptOptions
  /// The text's UTF-8 bytes, reserved at the estimated size.
  private var bytes: [UInt8] = []
  /// The text's size as estimated from its events and bodies.
  private let estimate: Int
  /// UTF-8 offsets in `text` of the values that may hold a UUID or a date, in order.
  private var candidates: [Range<Int>] = []
  private var traceIDs: [String: Int] = [:]
  private var spanIDs: [String: Int] = [:]
  /// Each request ID's placeholder, made once: most entries of a request repeat its ID.
  private var requestIDs: [String: String] = [:]
  /// The last request ID met and its placeholder, looked up without hashing.
  private var lastRequestID: (id: String, placeholder: String)?
  /// An entry's metadata while it is written, kept so that its storage is reused.
  private var metadataSlots: [MetadataSlot] = []
  /// The last label written, as written, and whether it may hold an identity.
  private var lastLabel: (label: String, written: [UInt8], mayHoldIdentity: Bool)?
  /// A span's attributes while they are written, likewise.
  private var attributePairs: [(key: String, value: SpanAttribute)] = []

  /// Where one pair of an entry's metadata is, and its key, read once: sorting moves no values.
  private struct MetadataSlot {
    var key: String
    /// The entry's error, written under `error` (`index` is then unused).
    var isError: Bool
    var index: Logger.Metadata.Index
  }
  /// The loggers' metadata met last, the most recent last (a few loggers make most entries),
  /// and the place of the one the last entry had.
  private var knownLoggerPairs: [LoggerPairs] = []
  private var lastLoggerPairs = 0
  private static let knownLoggerPairsLimit = 8

  /// A logger's metadata, its pairs sorted by key, and each string pair once written.
  private struct LoggerPairs {
    let version: Int
    let metadata: Logger.Metadata
    var pairs: [LoggerPair] = []
  }

  /// One pair of a logger's metadata, and once written (for a string), its line (a line break
  /// first) and the ranges in that line that may hold an identity.
  private struct LoggerPair {
    var key: String
    var index: Logger.Metadata.Index
    var written: [UInt8]?
    var candidates: [Range<Int>] = []
  }
  /// Each span's children in start order, by the parent's number.
  private let children: [Int: [TranscriptSpanState]]

  init(_ transcript: Transcript, options: TranscriptOptions) {
    self.transcript = transcript
    self.options = options
    var children: [Int: [TranscriptSpanState]] = [:]
    // About 130 bytes an event, and a JSON body's pretty text is under twice the body.
    var estimate = 0
    for block in transcript.blocks {
      estimate += block.count * 136
      for position in block.indices {
        switch block[position] {
        case .span(let span):
          guard span.parentNumber != 0 else { continue }
          children[span.parentNumber, default: []].append(span)
        case .http(let message, _): estimate += (message.body?.count ?? 0) * 2
        case .log, .error: continue
        }
      }
    }
    self.children = children
    self.estimate = max(estimate, 256)
  }

  static func render(_ transcript: Transcript, options: TranscriptOptions) -> String {
    rendered(transcript, options: options).text
  }

  /// The text, and the ranges of its values that may hold an identity.
  static func rendered(
    _ transcript: Transcript,
    options: TranscriptOptions
  ) -> (text: String, candidates: [Range<Int>]) {
    var text = TranscriptText(transcript, options: options)
    text.bytes.reserveCapacity(text.estimate)
    text.render()
    return (text.makeString(), text.candidates)
  }

  /// The text as a `String`, copied without validating its UTF-8 again (validating took a tenth
  /// of the text's time: the `──` of every section defeats the standard library's all-ASCII fast
  /// path).
  ///
  /// The bytes are valid UTF-8 by construction: every byte is either one of the transcript's
  /// own words (ASCII, or a literal such as `──`, which the compiler wrote as UTF-8), an
  /// ASCII digit, space, line break or quote, or copied whole from a Swift `String` (a label,
  /// message, key, value, `.http`'s text, an escaped or cut value, which ``escaped(_:)`` cuts
  /// between Unicode scalars), or copied whole from bytes written earlier by these same means (a
  /// label or a logger's pair as written). The only bytes left out are a final ASCII line break.
  private func makeString() -> String {
    String(copyingValidUTF8: bytes)
  }

  private mutating func render() {
    // By place in each block (a flattened sequence of the blocks costs more).
    for block in transcript.blocks {
      for position in block.indices { render(block[position]) }
    }
  }

  private mutating func render(_ event: TranscriptEvent) {
    switch event {
    case .http(let message, let outgoing):
      let kind: String
      switch message.head {
      case .request: kind = outgoing ? "outgoing request" : "request"
      case .response: kind = outgoing ? "outgoing response" : "response"
      }
      line("── \(kind)")
      newLine()
      unescaped(httpText(of: message), droppingAFinalLineBreak: true)
    case .log(let record):
      guard record.event.level >= options.minimumLevel else { return }
      if let metadata = record.event.metadata, let sql = Self.loggedStatement(in: metadata) {
        statement(sql, of: record)
      } else {
        log(record)
      }
    case .span(let span):
      // A child is written under its parent.
      guard span.parentNumber == 0 else { return }
      line("── span")
      tree(of: span)
    case .error(let description):
      line("── error")
      newLine()
      value(description)
    }
  }

  private var count: Int { bytes.count }

  private mutating func append(_ byte: UInt8) {
    bytes.append(byte)
  }

  /// Starts a line: a line break before every line but the first.
  private mutating func newLine() {
    if !bytes.isEmpty { bytes.append(UInt8(ascii: "\n")) }
  }

  /// Appends a string's bytes, or the transcript's own words (literals, native strings whose
  /// bytes are copied as they are).
  private mutating func write(_ string: String) {
    bytes.append(contentsOf: string.utf8)
  }

  private mutating func write(words: String) {
    bytes.append(contentsOf: words.utf8)
  }

  /// The transcript's most frequent words as bytes, made once: an array's bytes are appended
  /// faster than a string's.
  private mutating func write(words: [UInt8]) {
    bytes.append(contentsOf: words)
  }

  /// Appends a string's bytes, and says whether any of them may need an escape (see
  /// ``scan(_:)``) and whether a `-` follows their fourth: one pass over the string's own
  /// memory for the copy and the scan.
  private mutating func appendScanning(
    _ string: String
  ) -> (needsEscaping: Bool, hasDashAfterFour: Bool) {
    let source = string.utf8.span
    var needsEscaping = false
    var hasDash = false
    bytes.append(addingCapacity: source.count) { output in
      for position in source.indices {
        let byte = source[position]
        if byte < 0x20 || byte == 0x7F || byte == 0xC2 { needsEscaping = true }
        if byte == UInt8(ascii: "-"), position >= 4 { hasDash = true }
        output.append(byte)
      }
    }
    return (needsEscaping, needsEscaping ? false : hasDash)
  }

  /// A few bytes of the transcript's own words, appended one by one (faster than appending an
  /// array's or a string's for two or three bytes).
  private mutating func write(_ first: UInt8, _ second: UInt8, _ third: UInt8? = nil) {
    bytes.append(first)
    bytes.append(second)
    if let third { bytes.append(third) }
  }

  /// `── log LEVEL ` for each level, in `Logger.Level`'s order (see `words(of:)`).
  private static let logHeads = Logger.Level.allCases.map { Array("── log \(name(of: $0)) ".utf8) }
  /// `── sql LEVEL ` likewise.
  private static let statementHeads = Logger.Level.allCases.map {
    Array("── sql \(name(of: $0)) ".utf8)
  }
  /// Each kind's name as bytes, in the order `words(of:)` reads them.
  private static let kindWords = [SpanKind.server, .client, .producer, .consumer, .internal].map {
    Array(name(of: $0).utf8)
  }

  /// The kind's name as bytes.
  private static func words(of kind: SpanKind) -> [UInt8] {
    switch kind {
    case .server: kindWords[0]
    case .client: kindWords[1]
    case .producer: kindWords[2]
    case .consumer: kindWords[3]
    case .internal: kindWords[4]
    }
  }

  /// The level's place in `Logger.Level.allCases`.
  private static func place(of level: Logger.Level) -> Int {
    switch level {
    case .trace: 0
    case .debug: 1
    case .info: 2
    case .notice: 3
    case .warning: 4
    case .error: 5
    case .critical: 6
    }
  }

  /// A line of the transcript's own words, which never hold an identity.
  private mutating func line(_ words: String) {
    newLine()
    write(words)
  }

  /// Appends a value that came from the work, escaped, noting it when it may hold an identity.
  /// A scan of its bytes, copied first, decides the first, a look at each of its `-`s the
  /// second.
  private mutating func value(_ raw: String) {
    let start = count
    if raw.utf8.count <= TranscriptOptions.maximumValueLength {
      let scanned = appendScanning(raw)
      if !scanned.needsEscaping {
        if scanned.hasDashAfterFour, TranscriptIdentities.mayHoldIdentity(bytes[start...]) {
          candidates.append(start..<count)
        }
        return
      }
      bytes.removeSubrange(start...)
    }
    let escaped = Self.escaped(raw)
    write(escaped)
    if TranscriptIdentities.mayHoldIdentity(bytes[start...]) {
      candidates.append(start..<count)
    }
  }

  /// Appends a text that is not escaped (what `.http` printed, a file path), noting each of its
  /// lines that may hold an identity: no identity spans a line break, and a response's body holds
  /// far more lines than identities. A line may hold one when a `-` in it follows four hex
  /// digits, so only the `-`s are looked at, not every byte.
  private mutating func unescaped(_ value: String, droppingAFinalLineBreak: Bool = false) {
    let start = count
    // Read in the string's own memory.
    var text = value.utf8.span
    // `.http` ends its text with a line break, which the next section's line break stands for:
    // a last character `\n` (not `\r\n`, one character), as `hasSuffix("\n")` sees it.
    if droppingAFinalLineBreak, !text.isEmpty, text[text.count - 1] == UInt8(ascii: "\n"),
      text.count < 2 || text[text.count - 2] != UInt8(ascii: "\r")
    {
      text = text.extracting(droppingLast: 1)
    }
    bytes.append(contentsOf: value.utf8)
    if text.count < value.utf8.count { bytes.removeLast() }
    var position = 0
    while let dash = TranscriptIdentities.identityDash(in: text, from: position) {
      var lineStart = dash - 4
      while lineStart > 0, text[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
      var lineEnd = dash + 1
      while lineEnd < text.count, text[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
      candidates.append(start + lineStart..<start + lineEnd)
      position = lineEnd + 1
    }
  }

  private mutating func log(_ record: TranscriptLogRecord) {
    newLine()
    write(words: Self.logHeads[Self.place(of: record.event.level)])
    label(record.label)
    write(UInt8(ascii: ":"), UInt8(ascii: " "))
    value(record.event.message.description)
    if options.sourceLocations {
      write(words: " (")
      // With its line: a date at the file's end reads on into `:line` in the whole text.
      unescaped("\(record.event.file):\(record.event.line)")
      write(words: ")")
    }
    metadata(of: record)
  }

  /// The metadata key under which an entry carries the SQL statement it logs, as SQLKit's
  /// drivers (PostgresKit, SQLiteKit, and through them Fluent's SQL drivers) log each statement:
  /// `Executing query`, with `sql` and `binds`.
  static let statementKey = "sql"
  /// The key of the statement's bind parameters, whose values are left out.
  static let bindsKey = "binds"
  /// The message SQLKit's drivers log a statement with, which the `── sql` line stands for.
  static let statementMessage = "Executing query"

  /// Appends an entry that logs an SQL statement: `── sql LEVEL LABEL: STATEMENT`, then its
  /// other metadata as an entry's, the bind parameters as their count (their values change from
  /// run to run: ids, times, hashes), and the message unless it is SQLKit's `Executing query`.
  private mutating func statement(_ sql: String, of record: TranscriptLogRecord) {
    newLine()
    write(words: Self.statementHeads[Self.place(of: record.event.level)])
    label(record.label)
    write(UInt8(ascii: ":"), UInt8(ascii: " "))
    value(sql)
    if options.sourceLocations {
      write(words: " (")
      unescaped("\(record.event.file):\(record.event.line)")
      write(words: ")")
    }
    var rest = record
    var metadata = record.event.metadata ?? [:]
    metadata[Self.statementKey] = nil
    if let binds = metadata[Self.bindsKey] {
      metadata[Self.bindsKey] = Self.scrubbedBinds(binds)
    }
    let message = record.event.message.description
    if message != Self.statementMessage, metadata["message"] == nil {
      metadata["message"] = .string(message)
    }
    rest.event.metadata = metadata
    self.metadata(of: rest)
  }

  /// The statement an entry's metadata logs under ``statementKey``, if any. A few pairs are
  /// looked through rather than hashed (most entries have one or two, and no statement).
  static func loggedStatement(in metadata: Logger.Metadata) -> String? {
    guard metadata.count > 4 else {
      for index in metadata.indices where metadata.keys[index] == statementKey {
        guard case .string(let sql) = metadata.values[index] else { return nil }
        return sql
      }
      return nil
    }
    guard case .string(let sql)? = metadata[statementKey] else { return nil }
    return sql
  }

  /// A statement's bind parameters as the transcript shows them: how many, not what.
  static func scrubbedBinds(_ binds: Logger.MetadataValue) -> Logger.MetadataValue? {
    switch binds {
    case .array(let values) where values.isEmpty: nil
    case .array(let values) where values.count == 1: "1 (value left out)"
    case .array(let values): "\(values.count) (values left out)"
    case .dictionary(let values) where values.isEmpty: nil
    case .dictionary(let values): "\(values.count) (values left out)"
    case .string, .stringConvertible: "(values left out)"
    }
  }

  /// Appends a logger's label: most entries repeat the label before, whose bytes are copied.
  private mutating func label(_ label: String) {
    // Byte for byte: `==` also equates other spellings of a character (a precomposed `é` and `e`
    // with an accent), whose bytes the text must keep.
    if let last = lastLabel, Self.sameBytes(last.label, label) {
      let start = count
      bytes.append(contentsOf: last.written)
      if last.mayHoldIdentity { candidates.append(start..<count) }
      return
    }
    let start = count
    let firstCandidate = candidates.count
    value(label)
    lastLabel = (label, Array(bytes[start...]), candidates.count > firstCandidate)
  }

  /// Whether two strings hold the same bytes.
  private static func sameBytes(_ first: String, _ second: String) -> Bool {
    let first = first.utf8.span
    let second = second.utf8.span
    guard first.count == second.count else { return false }
    for position in first.indices where first[position] != second[position] { return false }
    return true
  }

  /// The logger's metadata, the entry's over it, and the entry's error under `error`, sorted by
  /// key (the rule `TranscriptTextEquivalenceTests` writes out plainly). The logger's pairs come
  /// sorted and mostly written already (``loggerPairs(of:)``); the entry's few pairs are sorted
  /// in storage that every entry reuses, and the two lists are merged, the entry's pair winning
  /// where both have a key.
  private mutating func metadata(of record: TranscriptLogRecord) {
    let logger = loggerPairs(of: record.loggerMetadata, version: record.metadataVersion)
    let metadata = record.loggerMetadata
    let error = record.event.error
    var next = 0
    let entry = record.event.metadata ?? [:]
    guard !entry.isEmpty || error != nil else {
      writeLoggerPairs(logger, metadata, from: &next, before: nil, hasError: false)
      return
    }
    // Most entries have one pair of their own: merged without sorting.
    if error == nil, entry.count == 1 {
      let index = entry.startIndex
      let key = entry.keys[index]
      writeLoggerPairs(logger, metadata, from: &next, before: key, hasError: false)
      pair(key, entry.values[index])
      writeLoggerPairs(logger, metadata, from: &next, before: nil, hasError: false)
      return
    }
    var slots: [MetadataSlot] = []
    // Taken out while used (and put back for the next entry): its storage is reused.
    swap(&slots, &metadataSlots)
    defer { swap(&slots, &metadataSlots) }
    // Not `removeAll(keepingCapacity:)`, which goes through `replaceSubrange` (1.6% of the text's
    // time, for a handful of slots).
    while slots.popLast() != nil {}
    for index in entry.indices {
      let key = entry.keys[index]
      if error == nil || key != "error" {
        slots.append(MetadataSlot(key: key, isError: false, index: index))
      }
    }
    if error != nil {
      slots.append(MetadataSlot(key: "error", isError: true, index: entry.startIndex))
    }
    // By insertion, as an entry has a few pairs, unless it has many; keys are unique.
    if slots.count > 32 {
      slots.sort { $0.key < $1.key }
    } else {
      for position in slots.indices.dropFirst() {
        let slot = slots[position]
        var place = position
        while place > 0, slot.key < slots[place - 1].key {
          slots[place] = slots[place - 1]
          place -= 1
        }
        slots[place] = slot
      }
    }
    for slot in slots {
      writeLoggerPairs(logger, metadata, from: &next, before: slot.key, hasError: error != nil)
      pair(slot.key, slot.isError ? .string("\(error!)") : entry.values[slot.index])
    }
    writeLoggerPairs(logger, metadata, from: &next, before: nil, hasError: error != nil)
  }

  /// Appends the logger's pairs from `next` whose keys sort before `key` (all when `nil`),
  /// leaving out one with that key, which the entry's pair replaces, and `error` when the entry
  /// has an error; `next` is left after the last pair looked at.
  private mutating func writeLoggerPairs(
    _ logger: Int,
    _ metadata: Logger.Metadata,
    from next: inout Int,
    before key: String?,
    hasError: Bool
  ) {
    while next < knownLoggerPairs[logger].pairs.count {
      let loggerKey = knownLoggerPairs[logger].pairs[next].key
      if let key, !(loggerKey <= key) { return }
      next += 1
      if let key, loggerKey == key { return }
      if !hasError || loggerKey != "error" { write(next - 1, of: logger, metadata) }
    }
  }

  /// Appends one `key: value` line of an entry's metadata.
  private mutating func pair(_ key: String, _ metadataValue: Logger.MetadataValue) {
    // After the entry's first line: never the text's first.
    write(UInt8(ascii: "\n"), UInt8(ascii: " "), UInt8(ascii: " "))
    value(key)
    write(UInt8(ascii: ":"), UInt8(ascii: " "))
    self.metadataValue(metadataValue, key: key)
  }

  /// Appends a metadata value: a request ID's placeholder, a string as it is, another value as
  /// `describe(_:)` writes it.
  private mutating func metadataValue(_ metadataValue: Logger.MetadataValue, key: String) {
    let text: String
    if case .string(let string) = metadataValue {
      text = string
    } else {
      text = Self.describe(metadataValue)
    }
    value(Self.namesARequestID(key) ? requestID(text) : text)
  }

  /// A metadata value as swift-log describes it (`["key": "value", "list": ["a", 1]]`: each
  /// string in a collection quoted as Swift's `debugDescription` quotes it), except that a
  /// dictionary's keys are sorted, at every depth. swift-log writes them in the dictionary's
  /// order, which changes from process to process, so that a transcript with a dictionary of
  /// several keys would differ from its reference in every other run. Arrays keep their order.
  ///
  /// Written with a stack of the collections still open, not a call a level, so that a value
  /// nested however deep cannot overflow the stack.
  ///
  /// - Complexity: O(*n* log *n*) in the pairs of the largest dictionary, O(*n*) otherwise.
  static func describe(_ metadataValue: Logger.MetadataValue) -> String {
    /// A collection being written: its elements (a dictionary's sorted, with their keys) and the
    /// next to write.
    struct Open {
      var elements: [(key: String?, value: Logger.MetadataValue)]
      var next = 0
    }
    var text = ""
    var open: [Open] = []
    /// Writes a value, or opens the collection it is.
    func begin(_ metadataValue: Logger.MetadataValue, inCollection: Bool) {
      switch metadataValue {
      case .string(let string):
        text += inCollection ? string.debugDescription : string
      case .stringConvertible(let convertible):
        let description = convertible.description
        text += inCollection ? description.debugDescription : description
      case .array(let values):
        text += "["
        open.append(Open(elements: values.map { (nil, $0) }))
      case .dictionary(let pairs) where pairs.isEmpty:
        text += "[:]"
      case .dictionary(let pairs):
        text += "["
        let sorted = pairs.sorted { $0.key < $1.key }
        open.append(Open(elements: sorted.map { ($0.key, $0.value) }))
      }
    }
    begin(metadataValue, inCollection: false)
    while let last = open.indices.last {
      let next = open[last].next
      guard next < open[last].elements.count else {
        text += "]"
        open.removeLast()
        continue
      }
      open[last].next += 1
      if next > 0 { text += ", " }
      let element = open[last].elements[next]
      if let key = element.key { text += key.debugDescription + ": " }
      begin(element.value, inCollection: true)
    }
    return text
  }

  /// A logger's metadata sorted by key, each pair whose value is a string written out once: the
  /// place of its pairs in `knownLoggerPairs`.
  ///
  /// Most entries of a request share their logger's metadata: one value, numbered by
  /// ``LoggerMetadataVersion``. Its pairs are sorted the first time that number is met, and a
  /// pair whose value is a string is kept as written the first time it is written (a request
  /// ID's placeholder included, numbered where it first appears), and copied after. A value of
  /// another kind is described for each entry, as its description may change.
  private mutating func loggerPairs(of metadata: Logger.Metadata, version: Int) -> Int {
    if lastLoggerPairs < knownLoggerPairs.count,
      knownLoggerPairs[lastLoggerPairs].version == version
    {
      return lastLoggerPairs
    }
    for place in knownLoggerPairs.indices.reversed()
    where knownLoggerPairs[place].version == version {
      lastLoggerPairs = place
      return place
    }
    var made = LoggerPairs(version: version, metadata: metadata)
    made.pairs.reserveCapacity(metadata.count)
    for index in metadata.indices {
      made.pairs.append(LoggerPair(key: metadata.keys[index], index: index))
    }
    made.pairs.sort { $0.key < $1.key }
    // A logger whose metadata changes at every entry would fill the list with pairs never met
    // again: the oldest goes.
    if knownLoggerPairs.count == Self.knownLoggerPairsLimit { knownLoggerPairs.removeFirst() }
    knownLoggerPairs.append(made)
    lastLoggerPairs = knownLoggerPairs.count - 1
    return lastLoggerPairs
  }

  /// Appends one of a logger's pairs, as written before or written now (from this entry's
  /// logger metadata, the same value).
  private mutating func write(_ position: Int, of logger: Int, _ metadata: Logger.Metadata) {
    let start = count
    if let written = knownLoggerPairs[logger].pairs[position].written {
      bytes.append(contentsOf: written)
      for candidate in knownLoggerPairs[logger].pairs[position].candidates {
        candidates.append(start + candidate.lowerBound..<start + candidate.upperBound)
      }
      return
    }
    let firstCandidate = candidates.count
    let key = knownLoggerPairs[logger].pairs[position].key
    let metadataValue = metadata.values[knownLoggerPairs[logger].pairs[position].index]
    pair(key, metadataValue)
    guard case .string = metadataValue else { return }
    knownLoggerPairs[logger].pairs[position].written = Array(bytes[start...])
    knownLoggerPairs[logger].pairs[position].candidates = candidates[firstCandidate...].map {
      $0.lowerBound - start..<$0.upperBound - start
    }
  }

  /// The level as swift-log spells it (its raw value).
  static func name(of level: Logger.Level) -> String {
    switch level {
    case .trace: "trace"
    case .debug: "debug"
    case .info: "info"
    case .notice: "notice"
    case .warning: "warning"
    case .error: "error"
    case .critical: "critical"
    }
  }

  /// The deepest nesting of spans written; the spans below a span at this depth are counted in
  /// a line of their own, so that the text of a runaway recursion stays linear in its spans.
  static let maximumSpanDepth = 1_000

  /// Writes a span and the spans under it, each child under its parent one level in, in start
  /// order: depth first, with a stack of its own rather than the call stack, so that no depth of
  /// nesting can exhaust it.
  private mutating func tree(of root: TranscriptSpanState) {
    var stack: [(span: TranscriptSpanState, depth: Int)] = [(root, 0)]
    while let (span, depth) = stack.popLast() {
      self.span(span, depth: depth)
      guard let children = children[span.number] else { continue }
      guard depth < Self.maximumSpanDepth else {
        newLine()
        write(spaces: depth * 2 + 2)
        write(
          "! \(descendants(of: span)) spans nested deeper than \(Self.maximumSpanDepth) levels left out"
        )
        continue
      }
      for child in children.reversed() { stack.append((child, depth + 1)) }
    }
  }

  /// How many spans are under `span`, at any depth.
  private func descendants(of span: TranscriptSpanState) -> Int {
    var count = 0
    var pending = [span.number]
    while let number = pending.popLast() {
      for child in children[number] ?? [] {
        count += 1
        pending.append(child.number)
      }
    }
    return count
  }

  /// One span's lines, without its children.
  private mutating func span(_ state: TranscriptSpanState, depth: Int) {
    let span = state.recorded
    let indent = depth * 2
    newLine()
    write(spaces: indent)
    // The name it ended with: a server framework renames its span once the route is known.
    value(span.endName ?? state.startName)
    write(UInt8(ascii: " "), UInt8(ascii: "("))
    write(words: Self.words(of: state.kind))
    append(UInt8(ascii: ")"))
    let inner = indent + 2
    if span.endCount > 0 {
      attributes(span.attributes, indent: inner)
      for event in span.events {
        newLine()
        write(spaces: inner)
        write(words: "event ")
        value(event.name)
        attributes(event.attributes, indent: inner + 2)
      }
      for error in span.errors {
        newLine()
        write(spaces: inner)
        write(words: "error ")
        value(String(describing: error))
      }
      for link in span.links {
        newLine()
        write(spaces: inner)
        if let linked = link.context[TranscriptSpanKey.self] {
          write("link \(traceID(linked.traceID)) \(spanID(linked.spanID))")
        } else if let context = link.context.inMemorySpanContext {
          write("link \(traceID(context.traceID)) \(spanID(context.spanID))")
        } else {
          write(words: "link (a context with no span)")
        }
      }
      if let status = span.status {
        newLine()
        write(spaces: inner)
        write(words: "status ")
        write(words: status.code == .ok ? "ok" : "error")
        if let message = status.message {
          write(words: ": ")
          value(message)
        }
      }
      if let bucket = options.durationBucket {
        let nanoseconds = span.endNanoseconds &- state.startNanoseconds
        newLine()
        write(spaces: inner)
        write("duration \(Self.rounded(nanoseconds, to: bucket))")
      }
      if span.endCount > 1 {
        newLine()
        write(spaces: inner)
        write("! ended \(span.endCount) times")
      }
    } else {
      newLine()
      write(spaces: inner)
      write(words: "! never ended")
    }
  }

  /// Appends `count` spaces.
  private mutating func write(spaces count: Int) {
    if count <= Self.spaces.count {
      bytes.append(contentsOf: Self.spaces[..<count])
    } else {
      bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
    }
  }

  /// Enough spaces for the indentation of spans 32 levels deep.
  private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 66)

  /// The name swift-distributed-tracing gives the kind's case.
  static func name(of kind: SpanKind) -> String {
    switch kind {
    case .server: "server"
    case .client: "client"
    case .producer: "producer"
    case .consumer: "consumer"
    case .internal: "internal"
    }
  }

  /// The prefix of OpenTelemetry's attributes for a statement's bind parameters
  /// (`db.query.parameter.<key>`, beside the statement in `db.query.text`), whose values are left
  /// out as a logged statement's are.
  static let queryParameterPrefix = "db.query.parameter."

  /// One `key = value` line an attribute, keys sorted, gathered in storage that every span
  /// reuses; a statement's bind parameter's value is left out.
  private mutating func attributes(_ attributes: SpanAttributes, indent: Int) {
    var pairs: [(key: String, value: SpanAttribute)] = []
    // Taken out while used (and put back after): its storage is reused.
    swap(&pairs, &attributePairs)
    defer {
      // Not `removeAll(keepingCapacity:)`: see ``metadata(of:)``.
      while pairs.popLast() != nil {}
      swap(&pairs, &attributePairs)
    }
    attributes.forEach { pairs.append(($0, $1)) }
    pairs.sort { $0.key < $1.key }
    for position in pairs.indices {
      newLine()
      write(spaces: indent)
      value(pairs[position].key)
      write(UInt8(ascii: " "), UInt8(ascii: "="), UInt8(ascii: " "))
      if pairs[position].key.hasPrefix(Self.queryParameterPrefix) {
        write(words: "(value left out)")
      } else {
        attribute(pairs[position].value)
      }
    }
  }

  /// Appends an attribute's value as ``describe(_:)`` spells it, the common kinds without
  /// making that string: an integer's digits, a boolean's word, a string between quotes.
  private mutating func attribute(_ attribute: SpanAttribute) {
    switch attribute {
    case .int64(let number): write(integer: number)
    case .int32(let number): write(integer: Int64(number))
    case .bool(let truth): write(words: truth ? "true" : "false")
    case .string(let string): quoted(string)
    default: value(Self.describe(attribute))
    }
  }

  /// Appends a decimal integer (digits, a `-` first if negative: never an identity nor an
  /// escape).
  private mutating func write(integer: Int64) {
    var magnitude = integer.magnitude
    var length = 1
    var rest = magnitude / 10
    while rest > 0 {
      length += 1
      rest /= 10
    }
    if integer < 0 { append(UInt8(ascii: "-")) }
    bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: length))
    var place = count
    repeat {
      place -= 1
      bytes[place] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
      magnitude /= 10
    } while magnitude > 0
  }

  /// Appends a string between quotes, as `value("\"\(string)\"")` would: its bytes directly
  /// when they need no escape and are short enough not to be cut.
  private mutating func quoted(_ string: String) {
    let start = count
    if string.utf8.count + 2 <= TranscriptOptions.maximumValueLength {
      append(UInt8(ascii: "\""))
      let scanned = appendScanning(string)
      if !scanned.needsEscaping {
        append(UInt8(ascii: "\""))
        // A quote is not a hex digit: the quoted value may hold one where the string may.
        if scanned.hasDashAfterFour, TranscriptIdentities.mayHoldIdentity(bytes[start...]) {
          candidates.append(start..<count)
        }
        return
      }
      bytes.removeSubrange(start...)
    }
    value("\"\(string)\"")
  }

  private mutating func traceID(_ id: String) -> String {
    if traceIDs[id] == nil { traceIDs[id] = traceIDs.count + 1 }
    return "TRACE_ID_\(traceIDs[id]!)"
  }

  /// Whether a metadata key holds a request's identifier, which changes from run to run:
  /// Hummingbird's `hb.request.id`, and any key ending in `request.id`, `request_id`,
  /// `request-id` or `requestID` (in any case).
  static func namesARequestID(_ key: String) -> Bool {
    let key = key.utf8.span
    // Every suffix ends in `d`: most keys are told apart by their last byte.
    guard !key.isEmpty, key[key.count - 1] | 0x20 == UInt8(ascii: "d") else { return false }
    for suffix in requestIDSuffixes where key.count >= suffix.count {
      // ASCII case folding: no other character lowercases into these suffixes' letters.
      let start = key.count - suffix.count
      var matches = true
      for position in suffix.indices {
        let byte = key[start + position]
        if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != suffix[position] {
          matches = false
          break
        }
      }
      if matches { return true }
    }
    return false
  }

  private static let requestIDSuffixes = ["request.id", "request_id", "request-id", "requestid"]
    .map { Array($0.utf8) }

  private mutating func requestID(_ id: String) -> String {
    if let last = lastRequestID, last.id == id { return last.placeholder }
    let placeholder: String
    if let known = requestIDs[id] {
      placeholder = known
    } else {
      placeholder = "REQUEST_ID_\(requestIDs.count + 1)"
      requestIDs[id] = placeholder
    }
    lastRequestID = (id, placeholder)
    return placeholder
  }

  private mutating func spanID(_ id: String) -> String {
    if spanIDs[id] == nil { spanIDs[id] = spanIDs.count + 1 }
    return "SPAN_ID_\(spanIDs[id]!)"
  }

  /// Rounds up to a whole number of buckets, so that jitter below a bucket leaves the text alone.
  static func rounded(_ nanoseconds: UInt64, to bucket: Duration) -> String {
    let (seconds, attoseconds) = bucket.components
    let size = max(UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000), 1)
    let buckets = max((nanoseconds + size - 1) / size, 1)
    return "≤ \(Duration.nanoseconds(Int64(buckets * size)))"
  }

  static func describe(_ attribute: SpanAttribute) -> String {
    switch attribute {
    case .int32(let value): "\(value)"
    case .int64(let value): "\(value)"
    case .double(let value): "\(value)"
    case .bool(let value): "\(value)"
    case .string(let value): "\"\(value)\""
    case .stringConvertible(let value): "\(value)"
    case .int32Array(let value): "\(value)"
    case .int64Array(let value): "\(value)"
    case .doubleArray(let value): "\(value)"
    case .boolArray(let value): "\(value)"
    case .stringArray(let value): "\(value)"
    case .stringConvertibleArray(let value): "\(value.map(\.description))"
    default: "\(attribute)"
    }
  }

  /// Whether any byte may need an escape: a C0 control, DEL, or 0xC2, which may begin a C1
  /// control character (U+0080 to U+009F) and sends the value the long way, which decides.
  static func needsEscaping(_ bytes: some Sequence<UInt8>) -> Bool {
    scan(bytes).needsEscaping
  }

  /// Whether any byte may need an escape (see ``needsEscaping(_:)``), and whether the bytes hold
  /// a `-` after their fourth, without which they hold no identity (see
  /// ``TranscriptIdentities/identityDash(in:from:)``): one pass for both, as most values are
  /// short and hold neither. `TranscriptTextEquivalenceTests` holds both to the rules.
  static func scan(
    _ bytes: some Sequence<UInt8>
  ) -> (needsEscaping: Bool, hasDashAfterFour: Bool) {
    var hasDash = false
    var position = 0
    for byte in bytes {
      if byte < 0x20 || byte == 0x7F || byte == 0xC2 { return (true, false) }
      if byte == UInt8(ascii: "-"), position >= 4 { hasDash = true }
      position += 1
    }
    return (false, hasDash)
  }

  /// One line whatever the value holds: control characters as `\u{…}` escapes (newlines and
  /// tabs too), and values beyond ``TranscriptOptions/maximumValueLength`` cut with a note.
  static func escaped(_ value: String) -> String {
    // Most values are short and plain: a scan of their bytes shows nothing needs escaping or
    // cutting.
    if value.utf8.count <= TranscriptOptions.maximumValueLength,
      !needsEscaping(value.utf8)
    {
      return value
    }
    var result = ""
    var count = 0
    for scalar in value.unicodeScalars {
      if count == TranscriptOptions.maximumValueLength {
        let rest = value.unicodeScalars.count - count
        result += "… (\(rest) more characters)"
        break
      }
      count += 1
      switch scalar {
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      // The control characters (general category Cc): C0, DEL and C1.
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
