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
  /// `prefix` followed by the text of `body`, in one string allocated once at its final size.
  ///
  /// - Complexity: O(*n* log *m*) for *n* bytes and objects of at most *m* members: one pass to
  ///   measure the text and one to write it; memory is the text and one object's members at a
  ///   time per level of nesting.
  static func text(of body: Data, extents: ContainerExtents, after prefix: String) -> String {
    body.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      var counter = PrettyJSONWalk(bytes: bytes, extents: extents, sink: ByteCounter())
      counter.writeValue(level: 0)
      let prefixCount = prefix.utf8.count
      let total = prefixCount + counter.sink.count
      return String(unsafeUninitializedCapacity: total) { buffer in
        var prefix = prefix
        prefix.withUTF8 { utf8 in
          if let base = utf8.baseAddress, let target = buffer.baseAddress {
            target.initialize(from: base, count: prefixCount)
          }
        }
        let sink = ByteWriter(base: buffer.baseAddress! + prefixCount)
        var writer = PrettyJSONWalk(bytes: bytes, extents: extents, sink: sink)
        writer.writeValue(level: 0)
        return prefixCount + writer.sink.count
      }
    }
  }
}

/// Where the text goes: counted first, then written into room of exactly that size.
private protocol JSONTextSink {
  var count: Int { get }
  mutating func append(_ byte: UInt8)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>)
  mutating func appendSpaces(_ count: Int)
}

private struct ByteCounter: JSONTextSink {
  var count = 0
  mutating func append(_ byte: UInt8) { count += 1 }
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { count += bytes.count }
  mutating func appendSpaces(_ count: Int) { self.count += count }
}

/// Writes into memory the counter measured, so it never checks for room.
private struct ByteWriter: JSONTextSink {
  let base: UnsafeMutablePointer<UInt8>
  var count = 0

  mutating func append(_ byte: UInt8) {
    base[count] = byte
    count += 1
  }

  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    (base + count).update(from: source, count: bytes.count)
    count += bytes.count
  }

  mutating func appendSpaces(_ count: Int) {
    (base + self.count).update(repeating: UInt8(ascii: " "), count: count)
    self.count += count
  }
}

/// One member of an object, found before any is written: members are written sorted.
private struct Member {
  /// Where the name's bytes are: in the body (no escape) or in the object's decoded names.
  var nameStart: Int
  var nameCount: Int
  var nameIsDecoded: Bool
  /// The offset of the opening quote of the name, from which it is written.
  var quote: Int
  var valueStart: Int
  /// The member's place in the object, so that of two equal names the last one wins.
  var order: Int
}

/// A walk over a well-formed body that writes its pretty text into a sink.
private struct PrettyJSONWalk<Sink: JSONTextSink> {
  let bytes: UnsafeBufferPointer<UInt8>
  let extents: ContainerExtents
  var sink: Sink
  var index = 0

  init(bytes: UnsafeBufferPointer<UInt8>, extents: ContainerExtents, sink: Sink) {
    self.bytes = bytes
    self.extents = extents
    self.sink = sink
  }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  /// Writes the value at `index` (after whitespace) at nesting `level`, and steps past it.
  mutating func writeValue(level: Int) {
    skipWhitespace()
    switch bytes[index] {
    case UInt8(ascii: "{"): writeObject(level: level)
    case UInt8(ascii: "["): writeArray(level: level)
    case UInt8(ascii: "\""): writeString()
    case UInt8(ascii: "t"): copy(count: 4)
    case UInt8(ascii: "f"): copy(count: 5)
    case UInt8(ascii: "n"): copy(count: 4)
    default: writeNumber()
    }
  }

  mutating func copy(count: Int) {
    sink.append(UnsafeBufferPointer(rebasing: bytes[index..<index + count]))
    index += count
  }

  /// `[`, a line break, the elements one a line one level in, a line break, `]` at `level`; an
  /// empty array has both line breaks, as the encoder writes it.
  mutating func writeArray(level: Int) {
    index += 1
    sink.append(UInt8(ascii: "["))
    sink.append(0x0A)
    skipWhitespace()
    if bytes[index] != UInt8(ascii: "]") {
      var first = true
      while true {
        if !first {
          sink.append(UInt8(ascii: ","))
          sink.append(0x0A)
        }
        first = false
        sink.appendSpaces(2 * (level + 1))
        writeValue(level: level + 1)
        skipWhitespace()
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
        } else {
          break
        }
      }
    }
    index += 1  // `]`
    sink.append(0x0A)
    sink.appendSpaces(2 * level)
    sink.append(UInt8(ascii: "]"))
  }

  mutating func writeObject(level: Int) {
    index += 1
    var members: [Member] = []
    var decodedNames: [UInt8] = []
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
          order: members.count
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
    let end = index
    sortByName(&members, decodedNames: decodedNames)
    sink.append(UInt8(ascii: "{"))
    sink.append(0x0A)
    var first = true
    for (position, member) in members.enumerated() {
      // Of a run of equal names, only the last (the last written in the body) is kept.
      if position + 1 < members.count,
        compareNames(member, members[position + 1], decodedNames: decodedNames) == 0
      {
        continue
      }
      if !first {
        sink.append(UInt8(ascii: ","))
        sink.append(0x0A)
      }
      first = false
      sink.appendSpaces(2 * (level + 1))
      index = member.quote
      writeString()
      sink.append(UInt8(ascii: " "))
      sink.append(UInt8(ascii: ":"))
      sink.append(UInt8(ascii: " "))
      index = member.valueStart
      writeValue(level: level + 1)
    }
    sink.append(0x0A)
    sink.appendSpaces(2 * level)
    sink.append(UInt8(ascii: "}"))
    index = end
  }

  /// Sorted by the names' UTF-8 bytes, as `.sortedKeys` sorts, then by place.
  func sortByName(_ members: inout [Member], decodedNames: [UInt8]) {
    members.sort { first, second in
      let order = compareNames(first, second, decodedNames: decodedNames)
      return order != 0 ? order < 0 : first.order < second.order
    }
  }

  func compareNames(_ first: Member, _ second: Member, decodedNames: [UInt8]) -> Int {
    decodedNames.withUnsafeBufferPointer { decoded in
      let left = first.nameIsDecoded ? decoded : bytes
      let right = second.nameIsDecoded ? decoded : bytes
      let common = min(first.nameCount, second.nameCount)
      if common > 0 {
        let order = memcmp(
          left.baseAddress! + first.nameStart,
          right.baseAddress! + second.nameStart,
          common
        )
        if order != 0 { return Int(order) }
      }
      return first.nameCount - second.nameCount
    }
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
    sink.append(UInt8(ascii: "\""))
    var mark = index
    while true {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        flush(from: mark)
        index += 1
        sink.append(UInt8(ascii: "\""))
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

  mutating func flush(from mark: Int) {
    if index > mark { sink.append(UnsafeBufferPointer(rebasing: bytes[mark..<index])) }
  }

  /// One decoded scalar as the encoder writes it inside a string.
  mutating func writeEscaped(scalar: Unicode.Scalar) {
    let hexDigits: StaticString = "0123456789abcdef"
    switch scalar.value {
    case 0x22, 0x5C, 0x2F:
      sink.append(UInt8(ascii: "\\"))
      sink.append(UInt8(scalar.value))
    case 0x08: appendEscape("b")
    case 0x0C: appendEscape("f")
    case 0x0A: appendEscape("n")
    case 0x0D: appendEscape("r")
    case 0x09: appendEscape("t")
    case 0..<0x20:
      for byte in "\\u00".utf8 { sink.append(byte) }
      sink.append(hexDigits.utf8Start[Int(scalar.value / 16)])
      sink.append(hexDigits.utf8Start[Int(scalar.value % 16)])
    default:
      for byte in UTF8.encode(scalar)! { sink.append(byte) }
    }
  }

  mutating func appendEscape(_ letter: Unicode.Scalar) {
    sink.append(UInt8(ascii: "\\"))
    sink.append(UInt8(letter.value))
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
      sink.append(UnsafeBufferPointer(rebasing: digits))
      return
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: digits), as: UTF8.self)
    var description = Double(text)!.description
    if description.hasSuffix(".0") { description.removeLast(2) }
    description.withUTF8 { sink.append($0) }
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
