/// One pass over a JSON text that finds the ranges of the values to redact. A value inside a
/// redacted one is not redacted again, but the walk goes on inside it so that a selector matching
/// only there still counts as matched.
struct JSONRedactionWalk {
  struct Redaction {
    let range: Range<Int>
    let kind: JSONValueKind
  }

  /// An open object or array.
  fileprivate struct Container {
    let isObject: Bool
    let start: Int
    let matching: SelectorMatching
    /// This container is redacted as a whole.
    let isRedacted: Bool
    /// This container is inside a redacted value.
    let isInsideRedaction: Bool
    var count = 0
  }

  let bytes: [UInt8]
  private(set) var redactions: [Redaction] = []
  private(set) var matched: [Bool]
  private var cursor = 0
  private var stack: [Container] = []

  init(bytes: [UInt8], selectors: [RedactionSelector]) {
    self.bytes = bytes
    matched = Array(repeating: false, count: selectors.count)
    rootMatching = SelectorMatching(selectors: selectors)
  }

  private let rootMatching: SelectorMatching

  /// Walks the whole text; throws at the first byte that is not where JSON allows it.
  mutating func run() throws(JSONRedactor.MalformedJSON) {
    var pending: Pending? = Pending(matching: rootMatching, isInsideRedaction: false)
    while true {
      if let expected = pending {
        pending = try startValue(expected)
        if pending != nil { continue }
      }
      // A value is complete: the innermost open container has another member or ends.
      guard var container = stack.popLast() else {
        skipWhitespace()
        guard cursor == bytes.count else { throw malformed() }
        return
      }
      skipWhitespace()
      let byte = try next()
      if byte == UInt8(ascii: ",") {
        pending = try member(of: &container)
        stack.append(container)
      } else if byte == container.closingByte {
        close(container)
      } else {
        throw malformed()
      }
    }
  }

  /// The value the walk expects next, and what applies to it.
  private struct Pending {
    let matching: SelectorMatching
    let isInsideRedaction: Bool
  }

  /// Reads a scalar or an empty container and returns `nil`, or opens a container, reads up to
  /// its first member's value and returns what applies to that value.
  private mutating func startValue(_ expected: Pending) throws(JSONRedactor.MalformedJSON)
    -> Pending?
  {
    skipWhitespace()
    let completed = expected.matching.completed
    for selector in completed { matched[selector] = true }
    let isRedacted = !completed.isEmpty && !expected.isInsideRedaction
    let start = cursor
    let byte = try next()
    guard byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") else {
      let kind = try scalar(startingWith: byte)
      if isRedacted { redactions.append(Redaction(range: start..<cursor, kind: kind)) }
      return nil
    }
    var container = Container(
      isObject: byte == UInt8(ascii: "{"),
      start: start,
      matching: expected.matching,
      isRedacted: isRedacted,
      isInsideRedaction: expected.isInsideRedaction
    )
    skipWhitespace()
    if cursor < bytes.count, bytes[cursor] == container.closingByte {
      cursor += 1
      close(container)
      return nil
    }
    let first = try member(of: &container)
    stack.append(container)
    return first
  }

  /// Reads the key of an object's next member (and its ":"), or counts an array's next element,
  /// and returns what applies to that member's value.
  private mutating func member(of container: inout Container) throws(JSONRedactor.MalformedJSON)
    -> Pending
  {
    let isInsideRedaction = container.isRedacted || container.isInsideRedaction
    var step = SelectorMatching.Step.index(container.count)
    container.count += 1
    if container.isObject {
      skipWhitespace()
      let keyStart = cursor
      guard try next() == UInt8(ascii: "\"") else { throw malformed() }
      try skipString()
      // Decoding the key is only worth it when a selector could still match below.
      if !container.matching.positions.isEmpty {
        step = .key(
          try JSONStringDecoding.decode(bytes[(keyStart + 1)..<(cursor - 1)], at: keyStart)
        )
      }
      skipWhitespace()
      guard try next() == UInt8(ascii: ":") else { throw malformed() }
    }
    let matching =
      container.matching.positions.isEmpty ? container.matching : container.matching.child(step)
    return Pending(matching: matching, isInsideRedaction: isInsideRedaction)
  }

  private mutating func close(_ container: Container) {
    guard container.isRedacted else { return }
    let kind: JSONValueKind = container.isObject ? .object : .array
    redactions.append(Redaction(range: container.start..<cursor, kind: kind))
  }

  /// Reads the rest of a string, number, `true`, `false` or `null`.
  private mutating func scalar(startingWith byte: UInt8) throws(JSONRedactor.MalformedJSON)
    -> JSONValueKind
  {
    if byte == UInt8(ascii: "\"") {
      try skipString()
      return .string
    }
    let kind: JSONValueKind
    switch byte {
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): kind = .number
    case UInt8(ascii: "t"), UInt8(ascii: "f"): kind = .boolean
    case UInt8(ascii: "n"): kind = .null
    default: throw JSONRedactor.MalformedJSON(byteOffset: cursor - 1)
    }
    while cursor < bytes.count, !Self.endsScalar(bytes[cursor]) { cursor += 1 }
    return kind
  }

  private static func endsScalar(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: " "),
      UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
      true
    default: false
    }
  }

  /// Moves past the closing quote of a string whose opening quote was read.
  private mutating func skipString() throws(JSONRedactor.MalformedJSON) {
    while cursor < bytes.count {
      switch bytes[cursor] {
      case UInt8(ascii: "\""):
        cursor += 1
        return
      case UInt8(ascii: "\\"): cursor += 2
      default: cursor += 1
      }
    }
    throw malformed()
  }

  private mutating func skipWhitespace() {
    while cursor < bytes.count, Self.isWhitespace(bytes[cursor]) { cursor += 1 }
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  private mutating func next() throws(JSONRedactor.MalformedJSON) -> UInt8 {
    guard cursor < bytes.count else { throw malformed() }
    defer { cursor += 1 }
    return bytes[cursor]
  }

  private func malformed() -> JSONRedactor.MalformedJSON {
    JSONRedactor.MalformedJSON(byteOffset: min(cursor, bytes.count))
  }
}

extension JSONRedactionWalk.Container {
  fileprivate var closingByte: UInt8 { isObject ? UInt8(ascii: "}") : UInt8(ascii: "]") }
}
