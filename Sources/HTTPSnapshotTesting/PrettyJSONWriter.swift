import Foundation

/// Writes a JSON body as `.json` prints the values it holds, straight from the bytes: the text
/// `prettyJSONText(of:)` makes from the parsed values with `JSONEncoder` (`.prettyPrinted`,
/// `.sortedKeys`), byte for byte, without a tree of values or the encoder's own copies in memory.
///
/// What it reproduces (proved against `prettyJSONText(of:)` in `PrettyJSONWriterTests`): two
/// spaces an indent level and `" : "` after a name; an empty array or object as `[`, two line
/// breaks and `]`; members sorted by the UTF-8 bytes of their decoded names, a repeated name
/// keeping its last value; strings re-escaped as the encoder escapes them (`"`, `\`, `/`,
/// `\b \f \n \r \t`, other control characters as `\u00xx`, everything else as UTF-8); integers
/// that fit in `Int` as written; every other number as its `Double`'s description without `.0`.
///
/// The body must be one that ``JSONBody/check(_:)`` read as a value: the writer does not validate.
enum PrettyJSONWriter {
  /// `prefix` followed by the text of `body`, in one string.
  ///
  /// - Parameter chunkSize: The bytes written before they are moved into the string (a test
  ///   makes it small, to move them often).
  /// - Complexity: O(*n* log *m*) for *n* bytes and objects of at most *m* members, in one pass
  ///   (an object's members are found, then written; each member's container is stepped over by
  ///   its noted extent); memory is the text, one chunk, and the members of the objects being
  ///   written.
  static func text(
    of body: Data,
    extents: ContainerExtents,
    after prefix: String,
    chunkSize: Int = 64 * 1024
  ) -> String {
    var writer = PrettyJSONWalk(
      bytes: [UInt8](body),
      extents: extents,
      // Pretty text is about 1.7 times a compact body, more with deep nesting.
      text: TextChunks(after: prefix, chunkSize: chunkSize, expecting: body.count * 2)
    )
    writer.writeValue()
    return writer.text.finish()
  }
}

/// Bytes appended one after another into a buffer of fixed size, whose whole characters are
/// moved into a string each time it fills: the text is never held twice (bytes, then a string
/// made of them) but for one buffer's worth.
struct TextChunks {
  private var text: String
  private var buffer: [UInt8] = []
  private let capacity: Int

  /// A text that starts with `prefix`, with room for `expectedCount` bytes more.
  init(after prefix: String, chunkSize: Int, expecting expectedCount: Int) {
    text = prefix
    // Room a string reserves is only paged in as it is written.
    text.reserveCapacity(prefix.utf8.count + expectedCount)
    // Longer than any character, so that a full buffer always holds a whole one.
    capacity = max(chunkSize, 8)
    buffer.reserveCapacity(capacity)
  }

  mutating func append(_ byte: UInt8) {
    if buffer.count == capacity { moveOut() }
    buffer.append(byte)
  }

  mutating func append(contentsOf bytes: ArraySlice<UInt8>) {
    var start = bytes.startIndex
    while start < bytes.endIndex {
      if buffer.count == capacity { moveOut() }
      let end = min(bytes.endIndex, start + capacity - buffer.count)
      buffer.append(contentsOf: bytes[start..<end])
      start = end
    }
  }

  mutating func append(contentsOf string: String) {
    append(contentsOf: Array(string.utf8)[...])
  }

  mutating func append(repeating byte: UInt8, count more: Int) {
    var remaining = more
    while remaining > 0 {
      if buffer.count == capacity { moveOut() }
      let taken = min(remaining, capacity - buffer.count)
      buffer.append(contentsOf: repeatElement(byte, count: taken))
      remaining -= taken
    }
  }

  /// Moves the buffer's bytes into the text up to its last character, which may be unfinished
  /// and stays (a string made of part of a character would repair it into another).
  private mutating func moveOut() {
    var end = buffer.count
    if end > 0, buffer[end - 1] >= 0x80 {
      while end > 0, buffer[end - 1] & 0xC0 == 0x80 { end -= 1 }
      end = max(end - 1, 0)  // its first byte
    }
    text.append(String(decoding: buffer[..<end], as: UTF8.self))
    buffer.removeSubrange(..<end)
  }

  /// The whole text.
  mutating func finish() -> String {
    text.append(String(decoding: buffer, as: UTF8.self))
    buffer = []
    return text
  }
}

/// One member of an object, found before any is written: members are written sorted.
private struct Member {
  /// Where the name's bytes are: in the body (no escape) or in the walk's decoded names.
  var nameStart: Int
  var nameCount: Int
  var nameIsDecoded: Bool
  /// The offset of the opening quote of the name, from which it is written.
  var quote: Int
  var valueStart: Int
  /// The member's place in the object, so that of two equal names the last one wins.
  var order: Int
}

/// A walk over a well-formed body that writes its pretty text.
private struct PrettyJSONWalk {
  let bytes: [UInt8]
  let extents: ContainerExtents
  /// The text written so far.
  var text: TextChunks
  var index = 0
  /// The members of the objects being written, innermost last: one array for every level, so
  /// that an object costs no allocation of its own.
  var members: [Member] = []
  /// The decoded bytes of those members' names that hold an escape, likewise.
  var decodedNames: [UInt8] = []

  init(bytes: [UInt8], extents: ContainerExtents, text: TextChunks) {
    self.bytes = bytes
    self.extents = extents
    self.text = text
  }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  /// An array or object being written. Its level is its place on the walk's stack of them.
  struct Frame {
    var isObject: Bool
    /// Whether no element or member has been written yet.
    var first = true
    // An object's: its members at `base..<top` of ``members``, sorted; the next one to write;
    // whether the names came strictly ascending (so none repeats); where its text ends; where
    // its decoded names start.
    var base = 0
    var top = 0
    var next = 0
    var strictlyAscending = true
    var end = 0
    var decodedBase = 0
  }

  /// Writes the value at `index` (after whitespace), and steps past it.
  ///
  /// The arrays and objects being written are frames on an array, not calls on the stack, so
  /// no depth exhausts it; the innermost frame's place on it is its nesting level. Scalars are
  /// written in a run by the innermost container's frame, which hands back only at a container.
  mutating func writeValue() {
    var open: [Frame] = []
    while true {
      // A value at nesting `open.count`: a scalar is written, a container's frame entered.
      if !writeScalar() {
        if bytes[index] == UInt8(ascii: "{") {
          open.append(beginObject())
        } else {
          index += 1
          text.append(UInt8(ascii: "["))
          text.append(0x0A)
          skipWhitespace()
          if bytes[index] != UInt8(ascii: "]") {
            open.append(Frame(isObject: false))
          } else {
            // Empty: both line breaks, as the encoder writes it.
            index += 1
            endContainer(UInt8(ascii: "]"), level: open.count)
          }
        }
      }
      // The innermost container's next elements or members, up to one that is a container;
      // those that are done are closed.
      while let last = open.indices.last {
        if open[last].isObject {
          if nextMember(of: &open[last], level: last) { break }
          let frame = open.removeLast()
          endContainer(UInt8(ascii: "}"), level: last)
          members.removeSubrange(frame.base...)
          decodedNames.removeSubrange(frame.decodedBase...)
          index = frame.end
        } else {
          if nextElement(of: &open[last], level: last) { break }
          index += 1  // `]`
          open.removeLast()
          endContainer(UInt8(ascii: "]"), level: last)
        }
      }
      if open.isEmpty { return }
    }
  }

  /// Writes the scalar at `index` (after whitespace), stepping past it, and returns `true`; at
  /// an array or an object, returns `false` and writes nothing.
  mutating func writeScalar() -> Bool {
    skipWhitespace()
    switch bytes[index] {
    case UInt8(ascii: "{"), UInt8(ascii: "["): return false
    case UInt8(ascii: "\""): writeString()
    case UInt8(ascii: "t"): copy(count: 4)
    case UInt8(ascii: "f"): copy(count: 5)
    case UInt8(ascii: "n"): copy(count: 4)
    default: writeNumber()
    }
    return true
  }

  /// Writes the array `frame`'s next elements at `level`, one a line one level in, up to one
  /// that is a container (then returns `true`, at it) or the end (`false`, at its `]`).
  mutating func nextElement(of frame: inout Frame, level: Int) -> Bool {
    while true {
      if !frame.first {
        skipWhitespace()
        if bytes[index] != UInt8(ascii: ",") { return false }
        index += 1
        text.append(UInt8(ascii: ","))
        text.append(0x0A)
      }
      frame.first = false
      appendSpaces(2 * (level + 1))
      if !writeScalar() { return true }
    }
  }

  mutating func copy(count: Int) {
    text.append(contentsOf: bytes[index..<index + count])
    index += count
  }

  mutating func appendSpaces(_ count: Int) {
    text.append(repeating: UInt8(ascii: " "), count: count)
  }

  /// A line break, then `bracket` indented to `level`.
  mutating func endContainer(_ bracket: UInt8, level: Int) {
    text.append(0x0A)
    appendSpaces(2 * level)
    text.append(bracket)
  }

  /// Reads the members of the object at `index` (each value stepped over), sorts them, writes
  /// `{` and a line break, and returns its frame; its members are written one a line one level
  /// in by ``nextMember(of:level:)``.
  mutating func beginObject() -> Frame {
    index += 1
    var frame = Frame(isObject: true, base: members.count, decodedBase: decodedNames.count)
    skipWhitespace()
    if bytes[index] != UInt8(ascii: "}") {
      while true {
        skipWhitespace()
        let quote = index
        let (nameStart, nameEnd, hasEscape) = scanString()
        var member = Member(
          nameStart: nameStart,
          nameCount: nameEnd - nameStart,
          nameIsDecoded: false,
          quote: quote,
          valueStart: 0,
          order: members.count - frame.base
        )
        if hasEscape {
          member.nameStart = decodedNames.count
          appendDecoded(from: nameStart, to: nameEnd, into: &decodedNames)
          member.nameCount = decodedNames.count - member.nameStart
          member.nameIsDecoded = true
        }
        skipWhitespace()
        index += 1  // `:`
        skipWhitespace()
        member.valueStart = index
        skipValue()
        members.append(member)
        skipWhitespace()
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
        } else {
          break
        }
      }
    }
    index += 1  // `}`
    frame.end = index
    frame.top = members.count
    frame.next = frame.base
    frame.strictlyAscending = sortByName(frame.base..<frame.top)
    text.append(UInt8(ascii: "{"))
    text.append(0x0A)
    return frame
  }

  /// Writes the object `frame`'s next members at `level`, one a line one level in, up to one
  /// whose value is a container (then returns `true`, at that value) or the last (`false`).
  /// Members written inside that value push theirs above `frame.top` and take them off again.
  mutating func nextMember(of frame: inout Frame, level: Int) -> Bool {
    while frame.next < frame.top {
      let position = frame.next
      frame.next += 1
      let member = members[position]
      // Of a run of equal names, only the last (the last written in the body) is kept.
      if !frame.strictlyAscending, position + 1 < frame.top,
        compareNames(member, members[position + 1], decodedNames) == 0
      {
        continue
      }
      if !frame.first {
        text.append(UInt8(ascii: ","))
        text.append(0x0A)
      }
      frame.first = false
      appendSpaces(2 * (level + 1))
      index = member.quote
      writeString()
      text.append(UInt8(ascii: " "))
      text.append(UInt8(ascii: ":"))
      text.append(UInt8(ascii: " "))
      index = member.valueStart
      if !writeScalar() { return true }
    }
    return false
  }

  /// Sorts the members in `range` by the names' UTF-8 bytes, as `.sortedKeys` sorts, then by
  /// place; members already in that order (as an encoder with sorted keys sends them) are only
  /// compared once each.
  /// - Returns: Whether the names came strictly ascending, so that no two are equal.
  @discardableResult
  mutating func sortByName(_ range: Range<Int>) -> Bool {
    let decodedNames = decodedNames
    var sorted = true
    for position in range.dropFirst()
    where compareNames(members[position - 1], members[position], decodedNames) >= 0 {
      sorted = false
      break
    }
    if sorted { return true }
    let bytes = bytes
    func precedes(_ first: Member, _ second: Member) -> Bool {
      let order = Self.compareNames(first, second, bytes, decodedNames)
      return order != 0 ? order < 0 : first.order < second.order
    }
    guard range.count <= 16 else {
      members[range].sort(by: precedes)
      return false
    }
    // Most objects are small: an insertion sort allocates nothing (the library's sort takes
    // room for a merge).
    for position in range.dropFirst() {
      let member = members[position]
      var slot = position
      while slot > range.lowerBound, precedes(member, members[slot - 1]) {
        members[slot] = members[slot - 1]
        slot -= 1
      }
      members[slot] = member
    }
    return false
  }

  func compareNames(_ first: Member, _ second: Member, _ decodedNames: [UInt8]) -> Int {
    Self.compareNames(first, second, bytes, decodedNames)
  }

  /// The order of two names by their bytes: negative, zero or positive.
  static func compareNames(
    _ first: Member,
    _ second: Member,
    _ bytes: [UInt8],
    _ decodedNames: [UInt8]
  ) -> Int {
    let left = first.nameIsDecoded ? decodedNames : bytes
    let right = second.nameIsDecoded ? decodedNames : bytes
    let common = min(first.nameCount, second.nameCount)
    for offset in 0..<common {
      let a = left[first.nameStart + offset]
      let b = right[second.nameStart + offset]
      if a != b { return a < b ? -1 : 1 }
    }
    return first.nameCount - second.nameCount
  }

  /// Steps over the value at `index`: a member's container by its noted extent, anything else
  /// by reading it.
  mutating func skipValue() {
    let byte = bytes[index]
    if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
      if let end = extents.end(ofContainerAt: index) {
        index = end
        return
      }
      var depth = 0
      repeat {
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
          index += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          index += 1
        case UInt8(ascii: "\""): _ = scanString()
        default: index += 1
        }
      } while depth > 0
      return
    }
    if byte == UInt8(ascii: "\"") {
      _ = scanString()
      return
    }
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D:
        return
      default: index += 1
      }
    }
  }

  /// Steps over the string whose opening quote is at `index`: where its contents start and
  /// end, and whether they hold an escape.
  mutating func scanString() -> (start: Int, end: Int, hasEscape: Bool) {
    index += 1
    let start = index
    var hasEscape = false
    while bytes[index] != UInt8(ascii: "\"") {
      if bytes[index] == UInt8(ascii: "\\") {
        hasEscape = true
        index += 2
      } else {
        index += 1
      }
    }
    index += 1
    return (start, index - 1, hasEscape)
  }

  /// The contents of a string with its escapes decoded, as the parser decodes them.
  func appendDecoded(from start: Int, to end: Int, into decoded: inout [UInt8]) {
    var position = start
    while position < end {
      let byte = bytes[position]
      guard byte == UInt8(ascii: "\\") else {
        decoded.append(byte)
        position += 1
        continue
      }
      let escape = bytes[position + 1]
      position += 2
      if escape == UInt8(ascii: "u") {
        decoded.append(contentsOf: UTF8.encode(unicodeEscape(at: &position))!)
      } else {
        decoded.append(JSONBody.byte(escapedAs: escape)!)
      }
    }
  }

  /// The scalar of the `\u` escape whose hex digits start at `position` (a surrogate pair read
  /// as one), stepping past it.
  func unicodeEscape(at position: inout Int) -> Unicode.Scalar {
    func hexQuad() -> UInt32 {
      var value: UInt32 = 0
      for offset in 0..<4 {
        value = value << 4 | JSONBody.hexDigitValue(bytes[position + offset])!
      }
      position += 4
      return value
    }
    let high = hexQuad()
    guard (0xD800..<0xDC00).contains(high) else { return Unicode.Scalar(high)! }
    position += 2  // `\u`
    let low = hexQuad()
    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
  }

  /// The string at `index`, escaped as the encoder escapes it: its own escapes decoded and
  /// written again the encoder's way, every other byte copied.
  mutating func writeString() {
    index += 1
    text.append(UInt8(ascii: "\""))
    var mark = index
    while true {
      skipPlainWords()
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        flush(from: mark)
        index += 1
        text.append(UInt8(ascii: "\""))
        return
      }
      if byte == UInt8(ascii: "/") {
        flush(from: mark)
        writeEscaped(scalar: "/")
        index += 1
        mark = index
      } else if byte == UInt8(ascii: "\\") {
        flush(from: mark)
        let escape = bytes[index + 1]
        index += 2
        if escape == UInt8(ascii: "u") {
          writeEscaped(scalar: unicodeEscape(at: &index))
        } else {
          writeEscaped(scalar: Unicode.Scalar(JSONBody.byte(escapedAs: escape)!))
        }
        mark = index
      } else {
        index += 1
      }
    }
  }

  /// Steps over the bytes a string's text is copied as they are: up to the next `"`, `/` or
  /// `\`.
  mutating func skipPlainWords() {
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") {
        return
      }
      index += 1
    }
  }

  mutating func flush(from mark: Int) {
    if index > mark { text.append(contentsOf: bytes[mark..<index]) }
  }

  /// One decoded scalar as the encoder writes it inside a string.
  mutating func writeEscaped(scalar: Unicode.Scalar) {
    let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
    switch scalar.value {
    case 0x22, 0x5C, 0x2F:
      text.append(UInt8(ascii: "\\"))
      text.append(UInt8(scalar.value))
    case 0x08: appendEscape("b")
    case 0x0C: appendEscape("f")
    case 0x0A: appendEscape("n")
    case 0x0D: appendEscape("r")
    case 0x09: appendEscape("t")
    case 0..<0x20:
      for byte in "\\u00".utf8 { text.append(byte) }
      text.append(hexDigits[Int(scalar.value / 16)])
      text.append(hexDigits[Int(scalar.value % 16)])
    default:
      for byte in UTF8.encode(scalar)! { text.append(byte) }
    }
  }

  mutating func appendEscape(_ letter: Unicode.Scalar) {
    text.append(UInt8(ascii: "\\"))
    text.append(UInt8(letter.value))
  }

  /// An integer that fits in `Int` as written (JSON's spelling of one is its description); any
  /// other number as its `Double`'s description without a trailing `.0`, as the encoder writes.
  mutating func writeNumber() {
    let start = index
    var isInteger = true
    while index < bytes.count, isNumberByte(bytes[index]) {
      let byte = bytes[index]
      if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
        isInteger = false
      }
      index += 1
    }
    let digits = bytes[start..<index]
    if isInteger, JSONBody.integer(spelledBy: digits) != nil {
      text.append(contentsOf: digits)
      return
    }
    if let description = PrettyJSONNumber.shortDecimal(digits) {
      text.append(contentsOf: description)
      return
    }
    text.append(contentsOf: PrettyJSONNumber.doubleDescription(digits))
  }

  func isNumberByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
      UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
      return true
    default:
      return false
    }
  }
}

/// How the encoder writes a number that is not an `Int`: its `Double`'s description without a
/// trailing `.0`.
enum PrettyJSONNumber {
  /// The description the long way: the `Double` the spelling rounds to, described.
  static func doubleDescription(_ spelling: ArraySlice<UInt8>) -> String {
    var description = Double(String(decoding: spelling, as: UTF8.self))!.description
    if description.hasSuffix(".0") { description.removeLast(2) }
    return description
  }

  /// The same description without making a `Double`, for the common spellings it can prove:
  /// a decimal without an exponent (`19.90`, `-0.25`) of at most 15 significant digits, at
  /// least 0.0001 or zero, and under 10^15. Any two decimals of at most 15 digits round to
  /// different `Double`s, so the shortest spelling that rounds back to this one, which is what
  /// `description` writes, has the same digits; and in that range `description` writes them
  /// positionally. So the text is the spelling without the fraction's trailing zeros (and
  /// without the point if nothing is left after it). `nil` for anything else.
  static func shortDecimal(_ spelling: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
    var position = spelling.startIndex
    if position < spelling.endIndex, spelling[position] == UInt8(ascii: "-") { position += 1 }
    let integerStart = position
    while position < spelling.endIndex, isDigit(spelling[position]) { position += 1 }
    let integerDigits = position - integerStart
    guard integerDigits > 0, position < spelling.endIndex, spelling[position] == UInt8(ascii: ".")
    else { return nil }
    let point = position
    position += 1
    while position < spelling.endIndex, isDigit(spelling[position]) { position += 1 }
    guard position == spelling.endIndex, position > point + 1 else { return nil }
    // The fraction without its trailing zeros.
    var fractionEnd = position
    while fractionEnd > point + 1, spelling[fractionEnd - 1] == UInt8(ascii: "0") {
      fractionEnd -= 1
    }
    if fractionEnd == point + 1 {
      // A whole number: under 10^15, it is written as its integer part.
      guard integerDigits <= 15 else { return nil }
      return spelling[spelling.startIndex..<point]
    }
    let significant: Int
    if integerDigits == 1, spelling[integerStart] == UInt8(ascii: "0") {
      // `0.000ddd`: at least 0.0001 has at most three zeros after the point.
      var firstNonZero = point + 1
      while spelling[firstNonZero] == UInt8(ascii: "0") { firstNonZero += 1 }
      guard firstNonZero - (point + 1) <= 3 else { return nil }
      significant = fractionEnd - firstNonZero
    } else {
      significant = integerDigits + (fractionEnd - point - 1)
    }
    guard significant <= 15 else { return nil }
    return spelling[spelling.startIndex..<fractionEnd]
  }

  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }
}
