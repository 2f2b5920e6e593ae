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
  /// The text's UTF-8 bytes: appending a few bytes is a copy, with neither `String`'s nor
  /// `Array`'s checks around it. (The JSON writer's `TextChunks` does much the same in its
  /// module; calls into another module are not inlined, and they cost a tenth of the text's
  /// time here.) Memory of the estimated size, doubled when the text outgrows it, that
  /// ``rendered(_:options:)`` copies into the `String` (see ``makeString()``) and frees.
  private var base: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity = 0
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
  /// The loggers' metadata met so far, by the address of its storage, and the last one met.
  private var loggerPairsByStorage: [UInt: LoggerPairs] = [:]
  private var lastLoggerPairs: LoggerPairs?

  /// A logger's metadata, its pairs sorted by key; a class, so that a pair written once is kept
  /// where every entry with this metadata finds it.
  private final class LoggerPairs {
    let storage: UInt?
    let metadata: Logger.Metadata
    /// Only the text that made it reads and writes it.
    @exclusivity(unchecked) var pairs: [LoggerPair] = []

    init(storage: UInt?, metadata: Logger.Metadata) {
      self.storage = storage
      self.metadata = metadata
    }
  }

  /// One pair of a logger's metadata, and once written (for a string), its line (a line break
  /// first) and the ranges in that line that may hold an identity.
  private struct LoggerPair {
    var key: String
    var index: Logger.Metadata.Index
    var written: [UInt8]?
    var candidates: [Range<Int>] = []
  }
  private let children: [ObjectIdentifier: [TranscriptSpanState]]

  init(_ transcript: Transcript, options: TranscriptOptions) {
    self.transcript = transcript
    self.options = options
    var children: [ObjectIdentifier: [TranscriptSpanState]] = [:]
    // About 130 bytes an event, and a JSON body's pretty text is under twice the body.
    var estimate = 0
    for block in transcript.blocks {
      estimate += block.count * 136
      for position in block.indices {
        switch block[position] {
        case .span(let span):
          guard let parent = span.parent else { continue }
          children[ObjectIdentifier(parent), default: []].append(span)
        case .http(let message, _): estimate += (message.body?.count ?? 0) * 2
        case .log, .error: continue
        }
      }
    }
    self.children = children
    self.estimate = max(estimate, 256)
    base = UnsafeMutablePointer(bitPattern: 1)!
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
    text.capacity = text.estimate
    text.base = .allocate(capacity: text.capacity)
    defer { text.base.deallocate() }
    text.render()
    return (text.makeString(), text.candidates)
  }

  /// The text as a `String`, copied without validating its UTF-8 again (validating took a tenth
  /// of the text's time: the `──` of every section defeats the standard library's all-ASCII fast
  /// path).
  ///
  /// The bytes are valid UTF-8 by construction: every byte is either one of the transcript's
  /// own words (ASCII, or a `StaticString` such as `──`, which the compiler wrote as UTF-8), an
  /// ASCII digit, space, line break or quote, or copied whole from a Swift `String` (a label,
  /// message, key, value, `.http`'s text, an escaped or cut value, which ``escaped(_:)`` cuts
  /// between Unicode scalars), or copied whole from bytes written earlier by these same means (a
  /// label or a logger's pair as written). The only bytes left out are a final ASCII line break.
  private func makeString() -> String {
    String(copyingValidUTF8: UnsafeBufferPointer(start: base, count: count))
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
      log(record)
    case .span(let span):
      // A child is written under its parent.
      guard span.parent == nil else { return }
      line("── span")
      self.span(span, depth: 0)
    case .error(let description):
      line("── error")
      newLine()
      value(description)
    }
  }

  /// Room for `more` bytes after the text, by doubling.
  private mutating func reserve(_ more: Int) {
    guard count + more > capacity else { return }
    capacity = max(capacity * 2, count + more)
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    moved.initialize(from: base, count: count)
    base.deallocate()
    base = moved
  }

  private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    reserve(bytes.count)
    (base + count).initialize(from: source, count: bytes.count)
    count += bytes.count
  }

  private mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  /// Starts a line: a line break before every line but the first.
  private mutating func newLine() {
    if count > 0 { append(UInt8(ascii: "\n")) }
  }

  private mutating func write(_ string: String) {
    if string.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
      var string = string
      string.withUTF8 { append($0) }
    }
  }

  /// The transcript's own words, copied from the program's constants.
  private mutating func write(words: StaticString) {
    append(UnsafeBufferPointer(start: words.utf8Start, count: words.utf8CodeUnitCount))
  }

  /// A line of the transcript's own words, which never hold an identity.
  private mutating func line(_ words: String) {
    newLine()
    write(words)
  }

  /// Appends a value that came from the work, escaped, noting it when it may hold an identity.
  /// A scan of its bytes decides the first, a look at each of its `-`s the second.
  private mutating func value(_ raw: String) {
    let start = count
    // A native string's bytes are read where they are; another (bridged) is made contiguous.
    let plainAndMayHoldIdentity: Bool?
    if let read = raw.utf8.withContiguousStorageIfAvailable({ plain($0) }) {
      plainAndMayHoldIdentity = read
    } else {
      var raw = raw
      plainAndMayHoldIdentity = raw.withUTF8 { plain($0) }
    }
    if let mayHoldIdentity = plainAndMayHoldIdentity {
      if mayHoldIdentity { candidates.append(start..<count) }
    } else {
      let escaped = Self.escaped(raw)
      write(escaped)
      if TranscriptIdentities.mayHoldIdentity(escaped) {
        candidates.append(start..<count)
      }
    }
  }

  /// Appends a value that needs no escape and returns whether it may hold an identity, or
  /// returns `nil` and appends nothing.
  private mutating func plain(_ value: UnsafeBufferPointer<UInt8>) -> Bool? {
    guard value.count <= TranscriptOptions.maximumValueLength else { return nil }
    let scanned = Self.scan(value)
    guard !scanned.needsEscaping else { return nil }
    append(value)
    return scanned.hasDashAfterFour && TranscriptIdentities.mayHoldIdentity(value)
  }

  /// Appends a text that is not escaped (what `.http` printed, a file path), noting each of its
  /// lines that may hold an identity: no identity spans a line break, and a response's body holds
  /// far more lines than identities. A line may hold one when a `-` in it follows four hex
  /// digits, so only the `-`s are looked at (found with `memchr`), not every byte.
  private mutating func unescaped(_ value: String, droppingAFinalLineBreak: Bool = false) {
    var value = value
    value.withUTF8 { value in
      // `.http` ends its text with a line break, which the next section's line break stands
      // for: a last character `\n` (not `\r\n`, one character), as `hasSuffix("\n")` sees it.
      var value = value
      if droppingAFinalLineBreak, value.last == UInt8(ascii: "\n"),
        value.count < 2 || value[value.count - 2] != UInt8(ascii: "\r")
      {
        value = UnsafeBufferPointer(rebasing: value.dropLast())
      }
      let start = count
      append(value)
      var position = 0
      while let dash = TranscriptIdentities.identityDash(in: value, from: position) {
        var lineStart = dash - 4
        while lineStart > 0, value[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        var lineEnd = dash + 1
        while lineEnd < value.count, value[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
        candidates.append(start + lineStart..<start + lineEnd)
        position = lineEnd + 1
      }
    }
  }

  private mutating func log(_ record: TranscriptLogRecord) {
    newLine()
    write(words: "── log ")
    write(words: Self.name(of: record.event.level))
    write(words: " ")
    label(record.label)
    write(words: ": ")
    value(record.event.message.description)
    if options.sourceLocations {
      write(words: " (")
      // With its line: a date at the file's end reads on into `:line` in the whole text.
      unescaped("\(record.event.file):\(record.event.line)")
      write(words: ")")
    }
    metadata(of: record)
  }

  /// Appends a logger's label: most entries repeat the label before, whose bytes are copied.
  private mutating func label(_ label: String) {
    // Byte for byte: `==` also equates other spellings of a character (a precomposed `é` and `e`
    // with an accent), whose bytes the text must keep.
    if let last = lastLabel, last.label.utf8.elementsEqual(label.utf8) {
      let start = count
      last.written.withUnsafeBufferPointer { append($0) }
      if last.mayHoldIdentity { candidates.append(start..<count) }
      return
    }
    let start = count
    let firstCandidate = candidates.count
    value(label)
    lastLabel = (
      label, Array(UnsafeBufferPointer(start: base + start, count: count - start)),
      candidates.count > firstCandidate
    )
  }

  /// The logger's metadata, the entry's over it, and the entry's error under `error`, sorted by
  /// key (the rule `TranscriptTextEquivalenceTests` writes out plainly). The logger's pairs come
  /// sorted and mostly written already (``loggerPairs(of:)``); the entry's few pairs are sorted
  /// in storage that every entry reuses, and the two lists are merged, the entry's pair winning
  /// where both have a key.
  private mutating func metadata(of record: TranscriptLogRecord) {
    let logger = loggerPairs(of: record.loggerMetadata)
    let error = record.event.error
    var next = 0
    let entry = record.event.metadata ?? [:]
    guard !entry.isEmpty || error != nil else {
      writeLoggerPairs(logger, from: &next, before: nil, hasError: false)
      return
    }
    // Most entries have one pair of their own: merged without sorting.
    if error == nil, entry.count == 1 {
      let index = entry.startIndex
      let key = entry.keys[index]
      writeLoggerPairs(logger, from: &next, before: key, hasError: false)
      pair(key, entry.values[index])
      writeLoggerPairs(logger, from: &next, before: nil, hasError: false)
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
      writeLoggerPairs(logger, from: &next, before: slot.key, hasError: error != nil)
      pair(slot.key, slot.isError ? .string("\(error!)") : entry.values[slot.index])
    }
    writeLoggerPairs(logger, from: &next, before: nil, hasError: error != nil)
  }

  /// Appends the logger's pairs from `next` whose keys sort before `key` (all when `nil`),
  /// leaving out one with that key, which the entry's pair replaces, and `error` when the entry
  /// has an error; `next` is left after the last pair looked at.
  private mutating func writeLoggerPairs(
    _ logger: LoggerPairs,
    from next: inout Int,
    before key: String?,
    hasError: Bool
  ) {
    while next < logger.pairs.count {
      let loggerKey = logger.pairs[next].key
      if let key, !(loggerKey <= key) { return }
      next += 1
      if let key, loggerKey == key { return }
      if !hasError || loggerKey != "error" { write(next - 1, of: logger) }
    }
  }

  /// Appends one `key: value` line of an entry's metadata.
  private mutating func pair(_ key: String, _ metadataValue: Logger.MetadataValue) {
    newLine()
    write(words: "  ")
    value(key)
    write(words: ": ")
    self.metadataValue(metadataValue, key: key)
  }

  /// Appends a metadata value: a request ID's placeholder, a string as it is, another value as
  /// swift-log describes it.
  private mutating func metadataValue(_ metadataValue: Logger.MetadataValue, key: String) {
    let text: String
    if case .string(let string) = metadataValue {
      text = string
    } else {
      text = metadataValue.description
    }
    value(Self.namesARequestID(key) ? requestID(text) : text)
  }

  /// A logger's metadata sorted by key, each pair whose value is a string written out once.
  ///
  /// Most entries of a request share their logger's metadata: the same dictionary storage, as
  /// the handler copied it for each entry. Its pairs are sorted the first time that storage is
  /// met, and a pair whose value is a string is kept as written the first time it is written
  /// (a request ID's placeholder included, numbered where it first appears), and copied after.
  /// Two dictionaries with one storage hold the same pairs (the transcript holds both, so
  /// neither storage was freed and reused). A value of another kind is described for each entry,
  /// as its description may change.
  private mutating func loggerPairs(of metadata: Logger.Metadata) -> LoggerPairs {
    let storage = Self.storage(of: metadata)
    if let last = lastLoggerPairs, last.storage == storage, storage != nil { return last }
    if let storage, let known = loggerPairsByStorage[storage] {
      lastLoggerPairs = known
      return known
    }
    let made = LoggerPairs(storage: storage, metadata: metadata)
    made.pairs.reserveCapacity(metadata.count)
    for index in metadata.indices {
      made.pairs.append(LoggerPair(key: metadata.keys[index], index: index))
    }
    made.pairs.sort { $0.key < $1.key }
    // A few loggers make most entries; a logger whose metadata changes at every entry would fill
    // the table with pairs never met again, so it stops growing.
    if let storage, loggerPairsByStorage.count < 64 { loggerPairsByStorage[storage] = made }
    lastLoggerPairs = made
    return made
  }

  /// Appends one of a logger's pairs, as written before or written now.
  private mutating func write(_ position: Int, of logger: LoggerPairs) {
    let start = count
    if let written = logger.pairs[position].written {
      written.withUnsafeBufferPointer { append($0) }
      for candidate in logger.pairs[position].candidates {
        candidates.append(start + candidate.lowerBound..<start + candidate.upperBound)
      }
      return
    }
    let firstCandidate = candidates.count
    let metadataValue = logger.metadata.values[logger.pairs[position].index]
    pair(logger.pairs[position].key, metadataValue)
    guard case .string = metadataValue, logger.storage != nil else { return }
    logger.pairs[position].written = Array(
      UnsafeBufferPointer(start: base + start, count: count - start)
    )
    logger.pairs[position].candidates = candidates[firstCandidate...].map {
      $0.lowerBound - start..<$0.upperBound - start
    }
  }

  /// The address of a dictionary's storage, where a dictionary is one reference to it.
  static func storage(of metadata: Logger.Metadata) -> UInt? {
    guard MemoryLayout<Logger.Metadata>.size == MemoryLayout<UInt>.size else { return nil }
    return unsafeBitCast(metadata, to: UInt.self)
  }

  /// The level as swift-log spells it (its raw value).
  static func name(of level: Logger.Level) -> StaticString {
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

  private mutating func span(_ span: TranscriptSpanState, depth: Int) {
    let indent = depth * 2
    newLine()
    write(spaces: indent)
    // The name it ended with: a server framework renames its span once the route is known.
    value(span.endName ?? span.startName)
    write(words: " (")
    write(words: Self.name(of: span.kind))
    write(words: ")")
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
        let nanoseconds = span.endNanoseconds &- span.startNanoseconds
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
    for child in children[ObjectIdentifier(span)] ?? [] {
      self.span(child, depth: depth + 1)
    }
  }

  /// Appends `count` spaces.
  private mutating func write(spaces count: Int) {
    let spaces: StaticString = "                                "
    var left = count
    while left > 0 {
      let run = min(left, spaces.utf8CodeUnitCount)
      append(UnsafeBufferPointer(start: spaces.utf8Start, count: run))
      left -= run
    }
  }

  /// The name swift-distributed-tracing gives the kind's case.
  static func name(of kind: SpanKind) -> StaticString {
    switch kind {
    case .server: "server"
    case .client: "client"
    case .producer: "producer"
    case .consumer: "consumer"
    case .internal: "internal"
    }
  }

  /// One `key = value` line an attribute, keys sorted, gathered in storage that every span
  /// reuses.
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
      write(words: " = ")
      attribute(pairs[position].value)
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
    reserve(20)
    var magnitude = integer.magnitude
    var length = 1
    var rest = magnitude / 10
    while rest > 0 {
      length += 1
      rest /= 10
    }
    if integer < 0 { append(UInt8(ascii: "-")) }
    var place = count + length
    repeat {
      place -= 1
      base[place] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
      magnitude /= 10
    } while magnitude > 0
    count += length
  }

  /// Appends a string between quotes, as `value("\"\(string)\"")` would: its bytes directly
  /// when they need no escape and are short enough not to be cut.
  private mutating func quoted(_ string: String) {
    let start = count
    let written: Bool? = string.utf8.withContiguousStorageIfAvailable { bytes in
      guard bytes.count + 2 <= TranscriptOptions.maximumValueLength else { return false }
      let scanned = Self.scan(bytes)
      guard !scanned.needsEscaping else { return false }
      append(UInt8(ascii: "\""))
      append(bytes)
      append(UInt8(ascii: "\""))
      // A quote is not a hex digit: the quoted value may hold one where the string may.
      if scanned.hasDashAfterFour, TranscriptIdentities.mayHoldIdentity(bytes) {
        candidates.append(start..<count)
      }
      return true
    }
    if written != true { value("\"\(string)\"") }
  }

  private mutating func traceID(_ id: String) -> String {
    if traceIDs[id] == nil { traceIDs[id] = traceIDs.count + 1 }
    return "TRACE_ID_\(traceIDs[id]!)"
  }

  /// Whether a metadata key holds a request's identifier, which changes from run to run:
  /// Hummingbird's `hb.request.id`, and any key ending in `request.id`, `request_id`,
  /// `request-id` or `requestID` (in any case).
  static func namesARequestID(_ key: String) -> Bool {
    if let named = key.utf8.withContiguousStorageIfAvailable(namesARequestID) { return named }
    var key = key
    return key.withUTF8(namesARequestID)
  }

  private static func namesARequestID(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
    // Every suffix ends in `d`: most keys are told apart by their last byte.
    guard let last = key.last, last | 0x20 == UInt8(ascii: "d") else { return false }
    for suffix in requestIDSuffixes where key.count >= suffix.count {
      var matches = true
      for (offset, expected) in suffix.enumerated() {
        let byte = key[key.count - suffix.count + offset]
        // ASCII case folding: no other character lowercases into these suffixes' letters.
        if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != expected {
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
  static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    scan(bytes).needsEscaping
  }

  /// Whether any byte may need an escape (see ``needsEscaping(_:)``), and whether the bytes hold
  /// a `-` after their fourth, without which they hold no identity (see
  /// ``TranscriptIdentities/identityDash(in:from:)``): one pass for both, as most values are
  /// short and hold neither, where finding the `-`s with `memchr` cost a call a value.
  ///
  /// Eight bytes at a time (a tenth of the text's time went to this scan byte by byte): with
  /// `ones` a word of 0x01 bytes and `highs` one of 0x80, `(w - ones * n) & ~w & highs` is not
  /// zero exactly when some byte of `w` is below `n` (for `n` up to 0x80; a borrow only runs on
  /// from a byte that is itself below `n`), and a byte equal to `c` is a zero byte of
  /// `w ^ (ones * c)`. `TranscriptTextEquivalenceTests` holds both to the byte-by-byte rules.
  static func scan(
    _ bytes: UnsafeBufferPointer<UInt8>
  ) -> (needsEscaping: Bool, hasDashAfterFour: Bool) {
    guard let start = bytes.baseAddress else { return (false, false) }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var dashes: UInt64 = 0
    var position = 0
    while position + 8 <= bytes.count {
      let word = UnsafeRawPointer(start + position).loadUnaligned(as: UInt64.self)
      let delete = word ^ (ones &* 0x7F)
      let c2 = word ^ (ones &* 0xC2)
      let below = (word &- ones &* 0x20) & ~word
      let zeros = ((delete &- ones) & ~delete) | ((c2 &- ones) & ~c2)
      if (below | zeros) & highs != 0 { return (true, false) }
      let dash = word ^ (ones &* 0x2D)
      // The first word's first four bytes cannot end a run of four hex digits; in memory order,
      // they are its low four bytes.
      let mask = position == 0 ? UInt64(littleEndian: 0xFFFF_FFFF_0000_0000) : ~0
      dashes |= (dash &- ones) & ~dash & highs & mask
      position += 8
    }
    var hasDash = dashes != 0
    while position < bytes.count {
      let byte = bytes[position]
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
    var value = value
    if value.utf8.count <= TranscriptOptions.maximumValueLength,
      !value.withUTF8(needsEscaping)
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
