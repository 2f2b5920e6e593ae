import Foundation

/// A JSON document as values that `JSONEncoder` writes back: the body of a JSON message on its
/// way to `.json`, so that its text is the bytes `.json` prints for the same value.
///
/// Numbers without a fraction or exponent that fit in `Int` stay integers; every other number is
/// a `Double`, as a Swift model would have held it.
enum JSONBody: Encodable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSONBody])
  /// The members in the order they came, each name once.
  case object([(name: String, value: JSONBody)])

  /// A member's name as a coding key, so that an object is encoded as a keyed container, the way
  /// a model's properties are (and sorted by the encoder's `.sortedKeys` the same way).
  struct MemberName: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  func encode(to encoder: any Encoder) throws {
    switch self {
    case .object(let members):
      var container = encoder.container(keyedBy: MemberName.self)
      try Self.encode(members, into: &container)
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      try Self.encode(elements, into: &container)
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .int(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .double(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .string(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    }
  }

  // Scalars go straight into their container and nested values into nested containers, as a
  // model's synthesized `encode(to:)` does: the generic `encode(_:forKey:)` would start a new
  // encoder for every value, which made the whole text twice as slow.

  private static func encode(
    _ members: [(name: String, value: JSONBody)],
    into container: inout KeyedEncodingContainer<MemberName>
  ) throws {
    for member in members {
      let key = MemberName(stringValue: member.name)
      switch member.value {
      case .null: try container.encodeNil(forKey: key)
      case .bool(let value): try container.encode(value, forKey: key)
      case .int(let value): try container.encode(value, forKey: key)
      case .double(let value): try container.encode(value, forKey: key)
      case .string(let value): try container.encode(value, forKey: key)
      case .array(let elements):
        var nested = container.nestedUnkeyedContainer(forKey: key)
        try encode(elements, into: &nested)
      case .object(let members):
        var nested = container.nestedContainer(keyedBy: MemberName.self, forKey: key)
        try encode(members, into: &nested)
      }
    }
  }

  private static func encode(
    _ elements: [JSONBody],
    into container: inout any UnkeyedEncodingContainer
  ) throws {
    for element in elements {
      switch element {
      case .null: try container.encodeNil()
      case .bool(let value): try container.encode(value)
      case .int(let value): try container.encode(value)
      case .double(let value): try container.encode(value)
      case .string(let value): try container.encode(value)
      case .array(let elements):
        var nested = container.nestedUnkeyedContainer()
        try encode(elements, into: &nested)
      case .object(let members):
        var nested = container.nestedContainer(keyedBy: MemberName.self)
        try encode(members, into: &nested)
      }
    }
  }

  /// What one reading of a body found: its value (the values themselves, or for ``check(_:)``
  /// the extents a writer needs to walk the bytes), or why it has none that `.json` can print.
  enum Reading<Value> {
    case value(Value)
    /// Well-formed, but holds a number no `Double` holds (`1e400`), as written.
    case numberBeyondDoubleRange(String)
    /// Well-formed, but one object has two names that differ only in Unicode normalisation.
    case namesDifferingOnlyInNormalization(String, String)
    /// Well-formed, but nests deeper than ``depthLimit``.
    case tooDeep
    case invalid
  }

  /// Reads a body once and says what it holds. Every failure is told apart in the same pass,
  /// except a body that reaches the depth limit, which a second pass (of containers only, no
  /// values kept) tells apart from an invalid one.
  ///
  /// - Returns: The reading, and how many passes over the bytes it took (1, or 2 for a body that
  ///   reaches the depth limit), so that a test can hold it to that.
  static func read(_ data: Data) -> (reading: Reading<JSONBody>, passes: Int) {
    let outcome = parseNoting(data, keepingValues: true)
    let (reading, passes) = verdict(outcome, data)
    return (reading.map { _ in outcome.value ?? .null }, passes)
  }

  /// Reads a body as ``read(_:)`` does, with the same verdicts, but keeps no values: only where
  /// each object member's container ends, so that ``PrettyJSONWriter`` can write the text from
  /// the bytes without a tree of values in memory.
  static func check(_ data: Data) -> (reading: Reading<ContainerExtents>, passes: Int) {
    let outcome = parseNoting(data, keepingValues: false)
    let (reading, passes) = verdict(outcome, data)
    return (reading.map { _ in outcome.extents }, passes)
  }

  private static func verdict(_ outcome: ParseOutcome, _ data: Data)
    -> (reading: Reading<Void>, passes: Int)
  {
    if outcome.value != nil {
      if let number = outcome.beyondRange { return (.numberBeyondDoubleRange(number), 1) }
      if let (first, second) = outcome.normalizationTwins {
        return (.namesDifferingOnlyInNormalization(first, second), 1)
      }
      return (.value(()), 1)
    }
    guard outcome.reachedDepthLimit else { return (.invalid, 1) }
    return (isWellFormedBeyondDepthLimit(data) ? .tooDeep : .invalid, 2)
  }

  /// Parses RFC 8259 JSON (any value at the top, surrounded by whitespace), or returns `nil`.
  ///
  /// - Complexity: O(*n*) in the number of bytes. Containers are read without recursion, so no
  ///   depth exhausts the stack; more than ``depthLimit`` levels are refused.
  static func parse(_ data: Data) -> JSONBody? {
    if case .value(let value) = read(data).reading { return value }
    return nil
  }

  /// The first number of a well-formed body that no `Double` holds (`1e400`): valid JSON, which
  /// `.json` cannot print as a number.
  static func numberBeyondDoubleRange(in data: Data) -> String? {
    if case .numberBeyondDoubleRange(let number) = read(data).reading { return number }
    return nil
  }

  /// The first two member names of one object of a well-formed body that differ only in Unicode
  /// normalisation (`"é"` as one scalar and as `e` with a combining accent): distinct names in
  /// JSON, one name to Swift's `String` and so to `JSONEncoder`, which would keep only one.
  static func namesDifferingOnlyInNormalization(in data: Data) -> (String, String)? {
    let outcome = parseNoting(data, keepingValues: false)
    return outcome.value == nil ? nil : outcome.normalizationTwins
  }

  /// The deepest nesting of containers `parse` accepts (a scalar inside the deepest is fine):
  /// the deepest `JSONEncoder` writes (it refuses a 512th level), so a body `parse` accepts
  /// always has the text `.json` prints. The limit is the encoder's, not the reader's, which
  /// keeps its containers on an array and would read any depth.
  static let depthLimit = 511

  /// Whether `data` is well-formed JSON that nests deeper than ``depthLimit``: valid, but more
  /// than `parse` reads, so it is named as too deep rather than invalid.
  ///
  /// - Complexity: O(*n*) in the number of bytes, with a stack of containers in memory, not on
  ///   the call stack, so no depth can exhaust it.
  static func isWellFormedBeyondDepthLimit(_ data: Data) -> Bool {
    var parser = JSONBodyParser(bytes: [UInt8](data))
    guard let depth = parser.wellFormedDepth() else { return false }
    return depth > depthLimit
  }

  private struct ParseOutcome {
    var value: JSONBody?
    var beyondRange: String?
    var normalizationTwins: (String, String)?
    var reachedDepthLimit = false
    var extents = ContainerExtents()
  }

  /// One pass of the parser; without `keepingValues`, the value is only a placeholder (`.null`)
  /// and the outcome holds the extents of the containers that are members' values instead.
  private static func parseNoting(_ data: Data, keepingValues: Bool) -> ParseOutcome {
    var parser = JSONBodyParser(bytes: [UInt8](data))
    parser.keepsValues = keepingValues
    // Offsets are kept in 32 bits; a larger body is walked without them (see the writer).
    let recordsExtents = !keepingValues && data.count < Int(UInt32.max)
    guard let value = parser.value() else {
      return ParseOutcome(reachedDepthLimit: parser.reachedDepthLimit)
    }
    parser.skipWhitespace()
    return ParseOutcome(
      value: parser.isAtEnd ? value : nil,
      beyondRange: parser.beyondRange,
      normalizationTwins: parser.normalizationTwins,
      extents: recordsExtents ? parser.extents : ContainerExtents()
    )
  }
}

extension JSONBody.Reading {
  func map<Other>(_ transform: (Value) -> Other) -> JSONBody.Reading<Other> {
    switch self {
    case .value(let value): return .value(transform(value))
    case .numberBeyondDoubleRange(let number): return .numberBeyondDoubleRange(number)
    case .namesDifferingOnlyInNormalization(let first, let second):
      return .namesDifferingOnlyInNormalization(first, second)
    case .tooDeep: return .tooDeep
    case .invalid: return .invalid
    }
  }
}

extension JSONBody {
  /// The byte a one-letter escape stands for (`n`: a line feed; `"`, `\` and `/`: themselves),
  /// or `nil` for a letter JSON does not escape with (`u` is read apart).
  static func byte(escapedAs letter: UInt8) -> UInt8? {
    switch letter {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
    case UInt8(ascii: "b"): 0x08
    case UInt8(ascii: "f"): 0x0C
    case UInt8(ascii: "n"): 0x0A
    case UInt8(ascii: "r"): 0x0D
    case UInt8(ascii: "t"): 0x09
    default: nil
    }
  }

  /// The value of a hexadecimal digit of either case, or `nil`.
  static func hexDigitValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// The integer a run of digits (with an optional `-`) spells, read without making a string;
  /// `nil` if it does not fit in `Int`, or is `-0`, the negative zero a `Double` writes, which as
  /// an `Int` would lose its sign.
  static func integer(spelledBy digits: ArraySlice<UInt8>) -> Int? {
    var index = digits.startIndex
    let isNegative = digits[index] == UInt8(ascii: "-")
    if isNegative { index += 1 }
    var value = 0
    while index < digits.endIndex {
      let digit = Int(digits[index] - UInt8(ascii: "0"))
      // Accumulated negatively, so that `Int.min` fits.
      let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
      let (next, overflowedAgain) = shifted.subtractingReportingOverflow(digit)
      if overflowed || overflowedAgain { return nil }
      value = next
      index += 1
    }
    if isNegative { return value == 0 ? nil : value }
    return value == Int.min ? nil : -value
  }
}

/// Where each container that is an object member's value ends, by where it starts: what a
/// writer needs to step over a member's value without reading it again, so that writing an
/// object's members in another order than they came stays linear however deep it nests.
struct ContainerExtents {
  /// Offsets of each container's opening bracket, ascending (the order the parser met them).
  private(set) var starts: [UInt32] = []
  /// The offset just past each container's closing bracket, at the same position as its start.
  private(set) var ends: [UInt32] = []

  /// Notes a container starting at `offset` and returns its slot, for ``close(_:at:)``.
  mutating func open(at offset: Int) -> Int {
    starts.append(UInt32(offset))
    ends.append(0)
    return starts.count - 1
  }

  mutating func close(_ slot: Int, at offset: Int) {
    ends[slot] = UInt32(offset)
  }

  /// The offset just past the container that starts at `offset`, if it was noted.
  ///
  /// - Complexity: O(log *n*) in the number of containers noted.
  func end(ofContainerAt offset: Int) -> Int? {
    var low = 0
    var high = starts.count
    while low < high {
      let middle = (low + high) / 2
      if Int(starts[middle]) < offset { low = middle + 1 } else { high = middle }
    }
    guard low < starts.count, Int(starts[low]) == offset else { return nil }
    return Int(ends[low])
  }
}

/// A reader of the body's bytes, which keeps the containers it is in on an array, not the call
/// stack.
private struct JSONBodyParser {
  let bytes: [UInt8]
  var index = 0
  /// The first number too large for a `Double`, as written (read on as if it were 0).
  var beyondRange: String?
  /// The first two names of one object that are equal as `String`s but not as scalars.
  var normalizationTwins: (String, String)?
  /// Whether a value was refused for nesting deeper than ``JSONBody/depthLimit``.
  var reachedDepthLimit = false
  /// Whether arrays and objects keep their values; without, they are `.null` placeholders (an
  /// object still keeps its members' names, to tell apart names equal but for normalisation).
  var keepsValues = true
  /// Where the containers that are members' values end, noted only when values are not kept.
  var extents = ContainerExtents()
  /// Where the plain names of the objects being checked lie (see ``memberName(into:)``).
  var plainNames: [Range<Int>] = []

  init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  var isAtEnd: Bool { index >= bytes.count }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  /// The value at `index` (after whitespace), stepping past it, or `nil` if it is malformed or
  /// nests containers deeper than ``JSONBody/depthLimit``.
  ///
  /// The containers being read are frames on an array, not calls on the stack: `current` is the
  /// innermost, `enclosing` the others, outermost first.
  mutating func value() -> JSONBody? {
    var enclosing: [Frame] = []
    var current = Frame(kind: .top)
    while true {
      // A value: a scalar is read at once, a container's frame is entered.
      skipWhitespace()
      guard index < bytes.count else { return nil }
      var read: JSONBody
      switch bytes[index] {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        // The containers around this one: `enclosing` holds the top's frame in place of the
        // current container's.
        guard enclosing.count < JSONBody.depthLimit else {
          reachedDepthLimit = true
          return nil
        }
        let isObject = bytes[index] == UInt8(ascii: "{")
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == (isObject ? 0x7D : 0x5D) {
          index += 1
          read = isObject ? .object([]) : .array([])
        } else {
          enclosing.append(current)
          current = Frame(kind: isObject ? .object : .array)
          if isObject {
            current.namesArePlain = !keepsValues
            current.plainBase = plainNames.count
            guard memberName(into: &current) else { return nil }
          }
          continue
        }
      case UInt8(ascii: "\""):
        if !keepsValues {
          guard skipString() else { return nil }
          read = .null
        } else {
          guard let string = string() else { return nil }
          read = .string(string)
        }
      case UInt8(ascii: "t"):
        guard let literal = literal("true", .bool(true)) else { return nil }
        read = literal
      case UInt8(ascii: "f"):
        guard let literal = literal("false", .bool(false)) else { return nil }
        read = literal
      case UInt8(ascii: "n"):
        guard let literal = literal("null", .null) else { return nil }
        read = literal
      default:
        guard let number = number() else { return nil }
        read = number
      }
      // The value goes into the containers it ends, innermost first, up to one that goes on.
      while true {
        switch current.kind {
        case .top:
          return read
        case .array:
          if keepsValues { current.elements.append(read) }
        case .object:
          add(read, to: &current)
        }
        skipWhitespace()
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          if current.kind == .object { guard memberName(into: &current) else { return nil } }
          break
        }
        guard bytes[index] == (current.kind == .object ? 0x7D : 0x5D) else { return nil }
        index += 1
        if current.kind == .object {
          plainNames.removeSubrange(current.plainBase...)
          read = .object(current.members)
        } else {
          read = .array(current.elements)
        }
        current = enclosing.removeLast()
      }
    }
  }

  /// A container being read: an array's elements, or an object's members and the name of the
  /// one whose value comes next.
  struct Frame {
    enum Kind { case top, array, object }
    var kind: Kind
    var elements: [JSONBody] = []
    var members: [(name: String, value: JSONBody)] = []
    /// Names seen, only for objects large enough that a linear search would cost.
    var names: [String: Int]? = nil
    /// Whether the names so far are noted by place only (see ``memberName(into:)``).
    var namesArePlain = false
    /// Where this object's plain names start on ``plainNames``.
    var plainBase = 0
    /// The name of the member whose value is read next, when not plain.
    var key = ""
    /// The slot of that value in ``extents``, when it is a container and extents are noted.
    var slot: Int? = nil
  }

  /// Reads a member's name and its colon, up to its value, into the object `frame`.
  ///
  /// A check keeps names only to find two that differ only in normalisation, which two names of
  /// printable ASCII without escapes never do: those are noted by place (on a stack shared by
  /// every level) and made into strings only if a name of another kind follows in the object.
  private mutating func memberName(into frame: inout Frame) -> Bool {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return false }
    frame.key = ""
    if frame.namesArePlain, let plain = plainString() {
      plainNames.append(plain)
    } else {
      if frame.namesArePlain {
        frame.namesArePlain = false
        for plain in plainNames[frame.plainBase...] {
          let name = String(decoding: bytes[plain], as: UTF8.self)
          if position(of: name, in: frame.members, names: &frame.names) == nil {
            frame.names?[name] = frame.members.count
            frame.members.append((name, .null))
          }
        }
      }
      guard let decoded = string() else { return false }
      frame.key = decoded
    }
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
    index += 1
    skipWhitespace()
    frame.slot = nil
    if !keepsValues, index < bytes.count,
      bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[")
    {
      frame.slot = extents.open(at: index)
    }
    return true
  }

  /// Adds the value just read to the object `frame`, under the name ``memberName(into:)`` read.
  /// A repeated name keeps its last value, in its first place, as a dictionary would.
  private mutating func add(_ value: JSONBody, to frame: inout Frame) {
    if let slot = frame.slot { extents.close(slot, at: index) }
    // Plain names were noted by place.
    if frame.namesArePlain { return }
    let member = keepsValues ? value : .null
    let key = frame.key
    if let existing = position(of: key, in: frame.members, names: &frame.names) {
      let first = frame.members[existing].name
      if normalizationTwins == nil, !first.unicodeScalars.elementsEqual(key.unicodeScalars) {
        normalizationTwins = (first, key)
      }
      frame.members[existing].value = member
    } else {
      frame.names?[key] = frame.members.count
      frame.members.append((key, member))
    }
  }

  /// Steps over a string without making it, for a check: ASCII without escapes is read here,
  /// anything else by ``string()``, which decodes it and refuses invalid UTF-8.
  mutating func skipString() -> Bool {
    if plainString() != nil { return true }
    return string() != nil
  }

  /// The contents of the string whose opening quote is at `index`, stepping past it, when they
  /// are printable ASCII without an escape; otherwise `nil`, with `index` left at the quote.
  mutating func plainString() -> Range<Int>? {
    let quote = index
    var position = quote + 1
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        index = position + 1
        return quote + 1..<position
      }
      if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\\") { return nil }
      position += 1
    }
    return nil
  }

  /// The deepest nesting of a well-formed document (and nothing after it but whitespace), or
  /// `nil`. Containers are kept on an array, not the call stack; scalars are read by the same
  /// functions `value()` uses.
  mutating func wellFormedDepth() -> Int? {
    var open: [UInt8] = []  // `{` or `[` for each container entered
    var deepest = 0
    var expectingValue = true
    while true {
      skipWhitespace()
      guard index < bytes.count else { return nil }
      if expectingValue {
        let byte = bytes[index]
        if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
          index += 1
          open.append(byte)
          deepest = max(deepest, open.count)
          skipWhitespace()
          let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
          if index < bytes.count, bytes[index] == close {
            index += 1
            open.removeLast()
            expectingValue = false
          } else if byte == UInt8(ascii: "{") {
            guard objectKey() else { return nil }
          }
          if open.isEmpty { break }
          continue
        }
        let scalar: JSONBody?
        switch byte {
        case UInt8(ascii: "\""): scalar = string().map(JSONBody.string)
        case UInt8(ascii: "t"): scalar = literal("true", .bool(true))
        case UInt8(ascii: "f"): scalar = literal("false", .bool(false))
        case UInt8(ascii: "n"): scalar = literal("null", .null)
        default: scalar = number()
        }
        guard scalar != nil else { return nil }
        expectingValue = false
        if open.isEmpty { break }
        continue
      }
      // After a value inside a container: a comma, or the container's end.
      let container = open[open.count - 1]
      let close = container == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        if container == UInt8(ascii: "{") { guard objectKey() else { return nil } }
        expectingValue = true
      } else if bytes[index] == close {
        index += 1
        open.removeLast()
        if open.isEmpty { break }
      } else {
        return nil
      }
    }
    skipWhitespace()
    return isAtEnd ? deepest : nil
  }

  /// A member's name and its colon, inside an object.
  private mutating func objectKey() -> Bool {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), string() != nil else {
      return false
    }
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
    index += 1
    return true
  }

  mutating func literal(_ word: String, _ value: JSONBody) -> JSONBody? {
    let count = word.utf8.count
    guard index + count <= bytes.count, bytes[index..<index + count].elementsEqual(word.utf8)
    else { return nil }
    index += count
    return value
  }

  /// Where `name` already is among `members`: a linear search while the object is small, a
  /// dictionary once it has more than 16 members, so that the parse stays linear.
  func position(
    of name: String,
    in members: [(name: String, value: JSONBody)],
    names: inout [String: Int]?
  ) -> Int? {
    if names == nil, members.count > 16 {
      var index: [String: Int] = [:]
      for (position, member) in members.enumerated() { index[member.name] = position }
      names = index
    }
    if let names { return names[name] }
    return members.firstIndex { $0.name == name }
  }

  /// A string from its opening quote: escapes decoded, raw control characters and invalid UTF-8
  /// refused.
  mutating func string() -> String? {
    index += 1
    let start = index
    // The common case: no escape, so the bytes are the string; ASCII needs no validation.
    var isASCII = true
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let run = bytes[start..<index]
        index += 1
        return isASCII ? String(decoding: run, as: UTF8.self) : String(checkedUTF8: run)
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { return nil }
      if byte >= 0x80 { isASCII = false }
      index += 1
    }
    var decoded = Array(bytes[start..<index])
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        return String(checkedUTF8: decoded)
      case UInt8(ascii: "\\"):
        guard index < bytes.count else { return nil }
        let escape = bytes[index]
        index += 1
        if escape == UInt8(ascii: "u") {
          guard let scalar = unicodeEscape() else { return nil }
          decoded.append(contentsOf: UTF8.encode(scalar)!)
        } else {
          guard let byte = JSONBody.byte(escapedAs: escape) else { return nil }
          decoded.append(byte)
        }
      case 0..<0x20:
        return nil
      default:
        decoded.append(byte)
      }
    }
    return nil
  }

  /// The scalar of `\uXXXX` (the `\u` read), with a surrogate pair read as one.
  mutating func unicodeEscape() -> Unicode.Scalar? {
    guard let high = hexQuad() else { return nil }
    if (0xD800..<0xDC00).contains(high) {
      guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
        bytes[index + 1] == UInt8(ascii: "u")
      else { return nil }
      index += 2
      guard let low = hexQuad(), (0xDC00..<0xE000).contains(low) else { return nil }
      return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }
    return Unicode.Scalar(high)
  }

  mutating func hexQuad() -> UInt32? {
    guard index + 4 <= bytes.count else { return nil }
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let digit = JSONBody.hexDigitValue(bytes[index]) else { return nil }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as RFC 8259 spells a number.
  mutating func number() -> JSONBody? {
    let start = index
    var isInteger = true
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { return nil }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { return nil }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    var hasExponent = false
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      isInteger = false
      hasExponent = true
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else { return nil }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    // Without an exponent, a number of fewer than 300 digits is within a `Double`'s range: a
    // check has nothing more to learn from it.
    if !keepsValues, !hasExponent, index - start < 300 { return .null }
    if isInteger, let integer = JSONBody.integer(spelledBy: bytes[start..<index]) {
      return .int(integer)
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let double = Double(text) else { return nil }
    if !double.isFinite {
      if beyondRange == nil {
        beyondRange = text.count > 40 ? String(text.prefix(40)) + "…" : text
      }
      return .double(0)
    }
    return .double(double)
  }

  func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }
}

extension String {
  /// The bytes as a string, or `nil` if they are not valid UTF-8 (decoding would have repaired
  /// them, so the repaired text's bytes differ).
  fileprivate init?<C: Collection<UInt8>>(checkedUTF8 bytes: C) {
    let text = String(decoding: bytes, as: UTF8.self)
    guard text.utf8.elementsEqual(bytes) else { return nil }
    self = text
  }
}
