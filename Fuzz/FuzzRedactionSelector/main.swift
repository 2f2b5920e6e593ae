// libFuzzer harness: the JSON redaction selectors of `.json(redacting:)` (`RedactionSelector.parse`)
// and their application to fixed documents (`JSONRedactor.redact`). Run with
// `scripts/fuzz.sh FuzzRedactionSelector SECONDS`.
//
// The input is up to four selectors separated by 0xFF bytes (never in UTF-8); each is decoded as
// UTF-8, bad bytes becoming U+FFFD. Invariants, for any input:
// - parsing never crashes; an error names the selector as written and a character from 1 to one
//   past its last, which is one past the last exactly when it says it found the end;
// - a parsed selector has components and does not end with `**`; written back in canonical form
//   (`.key` bare when it can be, else `["…"]`; `[n]`, `[*]`, `**`), it parses to the same ones;
// - any text, as a key, can be selected quoted, as Sources/SnapshotTesting/Documentation.docc/Redaction.md promises:
//   `["…"]` with `\"` and `\\` parses to exactly that key, scalar for scalar;
// - applied to fixed documents (an object, a top-level array, a scalar), compact and
//   pretty-printed, the parsed selectors replace exactly the values an independent matcher
//   (recursive, below) selects, outermost first, by their placeholders, and leave every other
//   byte as it was; the selectors reported unmatched are exactly those that match no value.

import Foundation
import FuzzingSupport

@testable import SnapshotTesting

private typealias Component = RedactionSelector.Component

/// One run of libFuzzer, on one input.
private func fuzzRedactionSelector(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = UnsafeBufferPointer(start: data, count: size)
  let texts = input.split(separator: 0xFF, maxSplits: 3, omittingEmptySubsequences: false)
    .map { String(decoding: $0, as: UTF8.self) }
  var selectors: [RedactionSelector] = []
  for text in texts {
    if let selector = checkParse(text) { selectors.append(selector) }
    checkQuotedKey(text)
  }
  for document in documents {
    checkRedaction(document, selectors: selectors)
  }
  return 0
}

// MARK: - Parsing

private func checkParse(_ text: String) -> RedactionSelector? {
  let selector: RedactionSelector
  do {
    selector = try RedactionSelector.parse(text)
  } catch {
    let characters = text.count
    require(
      error.selector.unicodeScalars.elementsEqual(text.unicodeScalars),
      "the error names \(error.selector.debugDescription), not \(text.debugDescription)"
    )
    require(
      (1...(characters + 1)).contains(error.position),
      "error at character \(error.position) of \(characters): \(error.description.debugDescription)"
    )
    require(
      (error.position == characters + 1)
        == error.description.contains("found the end of the selector"),
      "error at character \(error.position) of \(characters): \(error.description.debugDescription)"
    )
    // `…, found "x".`: the character at the position holds that scalar.
    if let found = error.description.range(of: #", found ""#, options: .backwards),
      error.description.hasSuffix("\".")
    {
      let scalar = error.description[found.upperBound...].dropLast(2)
      require(
        scalar.unicodeScalars.count == 1
          && Array(text)[error.position - 1].unicodeScalars.contains(scalar.unicodeScalars.first!),
        "error at character \(error.position) of \(text.debugDescription), which does not hold "
          + "what it found: \(error.description.debugDescription)"
      )
    }
    return nil
  }
  require(
    selector.source.unicodeScalars.elementsEqual(text.unicodeScalars),
    "the selector keeps \(selector.source.debugDescription), not \(text.debugDescription)"
  )
  require(!selector.components.isEmpty, "no components in \(text.debugDescription)")
  require(selector.components.last != .anyDepth, "\(text.debugDescription) ends with **")
  let written = canonical(selector.components)
  do {
    let again = try RedactionSelector.parse(written)
    require(
      sameComponents(again.components, selector.components),
      "\(text.debugDescription) is \(selector.components), written \(written.debugDescription), "
        + "which is \(again.components)"
    )
  } catch {
    fail(
      "\(text.debugDescription) is \(selector.components), written \(written.debugDescription), "
        + "which does not parse: \(error)"
    )
  }
  return selector
}

private func checkQuotedKey(_ key: String) {
  let written = "[" + quoted(key) + "]"
  do {
    let selector = try RedactionSelector.parse(written)
    require(
      sameComponents(selector.components, [.key(key)]),
      "the key \(key.debugDescription), written \(written.debugDescription), is "
        + "\(selector.components)"
    )
  } catch {
    fail("the key \(key.debugDescription), written \(written.debugDescription), fails: \(error)")
  }
}

/// The selector's text in canonical form.
private func canonical(_ components: [Component]) -> String {
  var text = ""
  for (offset, component) in components.enumerated() {
    switch component {
    case .key(let key) where canBeBare(key): text += (offset == 0 ? "" : ".") + key
    case .key(let key): text += "[" + quoted(key) + "]"
    case .index(let index): text += "[\(index)]"
    case .anyIndex: text += "[*]"
    case .anyDepth: text += offset == 0 ? "**" : ".**"
    }
  }
  return text
}

/// Whether the grammar's `key` (one or more characters other than `.[]*"` and whitespace) can
/// spell the key.
private func canBeBare(_ key: String) -> Bool {
  !key.isEmpty
    && key.unicodeScalars.allSatisfy {
      !".[]*\"".unicodeScalars.contains($0) && !$0.properties.isWhitespace
    }
}

/// `"key"`, with `\"` and `\\` for its quotes and backslashes.
private func quoted(_ key: String) -> String {
  var text = String.UnicodeScalarView()
  text.append("\"")
  for scalar in key.unicodeScalars {
    if scalar == "\"" || scalar == "\\" { text.append("\\") }
    text.append(scalar)
  }
  text.append("\"")
  return String(text)
}

/// Equal components, with keys compared scalar for scalar (`==` on `String` would take canonically
/// equivalent keys for the same).
private func sameComponents(_ a: [Component], _ b: [Component]) -> Bool {
  a.count == b.count
    && zip(a, b).allSatisfy { pair in
      switch pair {
      case (.key(let x), .key(let y)): x.unicodeScalars.elementsEqual(y.unicodeScalars)
      default: pair.0 == pair.1
      }
    }
}

// MARK: - Redaction

/// A JSON value of a fixed document. (A class: LeakSanitizer cannot follow the tagged pointers of
/// an indirect enum, and would report the documents as leaked at exit.)
private final class Node: Sendable {
  /// `string`, `number`, `boolean`, `null`, `object` or `array`, as placeholders name them.
  let kind: String
  /// The JSON text of a string, number, boolean or null.
  let json: String
  /// An object's members: the key as written (escapes included) and as decoded.
  let members: [(raw: String, key: String, value: Node)]
  let elements: [Node]
  /// The number of values in this one, itself included.
  let size: Int

  private init(
    kind: String,
    json: String = "",
    members: [(raw: String, key: String, value: Node)] = [],
    elements: [Node] = []
  ) {
    self.kind = kind
    self.json = json
    self.members = members
    self.elements = elements
    size = 1 + members.reduce(0) { $0 + $1.value.size } + elements.reduce(0) { $0 + $1.size }
  }

  static func string(_ text: String) -> Node { Node(kind: "string", json: "\"\(text)\"") }
  static func number(_ text: String) -> Node { Node(kind: "number", json: text) }
  static let null = Node(kind: "null", json: "null")
  static let yes = Node(kind: "boolean", json: "true")
  static let no = Node(kind: "boolean", json: "false")
  static func object(_ members: [(raw: String, key: String, value: Node)]) -> Node {
    Node(kind: "object", members: members)
  }
  static func array(_ elements: [Node]) -> Node { Node(kind: "array", elements: elements) }
}

private enum Step {
  case key(String)
  case index(Int)
}

private enum Style: CaseIterable {
  case compact, pretty
}

/// A fixed document, its texts, and the path of each of its values in preorder.
private final class Document: Sendable {
  let root: Node
  let paths: [[Step]]
  let texts: [Style: String]

  init(_ root: Node) {
    self.root = root
    var paths: [[Step]] = []
    func visit(_ node: Node, _ path: [Step]) {
      paths.append(path)
      for member in node.members { visit(member.value, path + [.key(member.key)]) }
      for (index, element) in node.elements.enumerated() { visit(element, path + [.index(index)]) }
    }
    visit(root, [])
    self.paths = paths
    let nothing = [Bool](repeating: false, count: paths.count)
    texts = Dictionary(uniqueKeysWithValues: Style.allCases.map { ($0, write(root, $0, nothing)) })
  }
}

/// Small documents with the keys and shapes selectors reach: nested paths, arrays in arrays,
/// escaped keys, keys that look like selector syntax, empty containers, a top-level array.
private let documents: [Document] = [
  .object([
    ("id", "id", .number("42")),
    (
      "items", "items",
      .array([
        .object([
          ("createdAt", "createdAt", .number("721692800")),
          ("name", "name", .string("Blob")),
          ("tags", "tags", .array([.string("a"), .string("b")])),
        ]),
        .object([
          ("createdAt", "createdAt", .number("-1.5e3")),
          ("name", "name", .null),
          ("tags", "tags", .array([])),
        ]),
      ])
    ),
    (
      "meta", "meta",
      .object([
        ("requestID", "requestID", .string("8C1F-4E2A")),
        ("page", "page", .number("1")),
        ("a.b", "a.b", .yes),
        ("", "", .no),
        (
          "nested", "nested",
          .object([
            ("id", "id", .string("x")),
            ("meta", "meta", .object([("id", "id", .number("7"))])),
          ])
        ),
      ])
    ),
    (
      "headers", "headers",
      .object([
        ("x.request-id", "x.request-id", .string("r")),
        (#"cl\u00e9\/slash"#, "clé/slash", .number("1")),
        (#"q \"x\" \\ y"#, #"q "x" \ y"#, .number("2")),
        (#"\ud83c\udf89"#, "🎉", .number("3")),
        ("*", "*", .number("4")),
        ("**", "**", .number("5")),
        ("[0]", "[0]", .number("6")),
        ("a b", "a b", .number("7")),
      ])
    ),
    ("text", "text", .string(#"he said \"hi\" \\ \/ \u00e9 ]}"#)),
    ("empty", "empty", .object([])),
    (
      "list", "list",
      .array([
        .array([.number("1"), .array([.number("2"), .number("3")])]), .array([]),
        .object([("id", "id", .number("0"))]),
      ])
    ),
    ("0", "0", .string("zero")),
  ]),
  .array([
    .object([("id", "id", .number("1")), ("name", "name", .string("a"))]),
    .array([.object([("id", "id", .number("2"))])]),
    .string("s"),
    .number("3"),
    .object([]),
  ]),
  .string("top"),
].map(Document.init)

private func checkRedaction(_ document: Document, selectors: [RedactionSelector]) {
  // matched[s][v]: selector s selects the value v (in preorder).
  let matched = selectors.map { selector in
    document.paths.map { matches(selector.components, $0) }
  }
  let redacted = document.paths.indices.map { value in matched.contains { $0[value] } }
  let unmatched = selectors.indices.filter { !matched[$0].contains(true) }.map { selectors[$0] }
  let sources = selectors.map(\.source.debugDescription).joined(separator: ", ")
  for style in Style.allCases {
    let original = document.texts[style]!
    let result: JSONRedactor.Result
    do {
      result = try JSONRedactor.redact(original, selectors: selectors)
    } catch {
      fail("valid JSON refused at byte \(error.byteOffset):\n\(original)")
    }
    let expected = redacted.contains(true) ? write(document.root, style, redacted) : original
    require(
      result.text == expected,
      "\(sources) redacted\n\(original)\nas\n\(result.text)\nnot\n\(expected)"
    )
    require(
      result.unmatched.map(\.source) == unmatched.map(\.source),
      "in\n\(original)\nof \(sources), unmatched \(result.unmatched.map(\.source)), not "
        + "\(unmatched.map(\.source))"
    )
  }
}

/// The document's JSON text, where each value that `redacted` (indexed in preorder) marks, and
/// no value inside it, is written as its placeholder.
private func write(_ root: Node, _ style: Style, _ redacted: [Bool]) -> String {
  var text = ""
  var next = 0
  func write(_ node: Node, depth: Int) {
    if redacted[next] {
      text += "\"[redacted \(node.kind)]\""
      next += node.size
      return
    }
    next += 1  // The values inside, written below, move it past the rest of this one.
    let newline = style == .pretty ? "\n" + String(repeating: "  ", count: depth + 1) : ""
    let close = style == .pretty ? "\n" + String(repeating: "  ", count: depth) : ""
    switch node.kind {
    case "object":
      text += "{"
      for (offset, member) in node.members.enumerated() {
        text += (offset == 0 ? "" : ",") + newline + "\"\(member.raw)\""
        text += style == .pretty ? " : " : ":"
        write(member.value, depth: depth + 1)
      }
      text += (node.members.isEmpty ? "" : close) + "}"
    case "array":
      text += "["
      for (offset, element) in node.elements.enumerated() {
        text += (offset == 0 ? "" : ",") + newline
        write(element, depth: depth + 1)
      }
      text += (node.elements.isEmpty ? "" : close) + "]"
    default:
      text += node.json
    }
  }
  write(root, depth: 0)
  return text
}

/// Whether the components select the path, `**` standing for any number of steps: a table of
/// which suffixes of the components match which suffixes of the path, filled from the ends.
private func matches(_ components: [Component], _ path: [Step]) -> Bool {
  let width = path.count + 1
  // table[c * width + p]: components[c...] matches path[p...].
  var table = [Bool](repeating: false, count: (components.count + 1) * width)
  table[components.count * width + path.count] = true
  for c in stride(from: components.count - 1, through: 0, by: -1) {
    for p in stride(from: path.count, through: 0, by: -1) {
      let step = p < path.count ? path[p] : nil
      let next = p < path.count ? table[(c + 1) * width + p + 1] : false
      table[c * width + p] =
        switch (components[c], step) {
        case (.anyDepth, _):
          table[(c + 1) * width + p] || (step != nil && table[c * width + p + 1])
        case (.key(let expected), .key(let key)?): expected == key && next
        case (.index(let expected), .index(let index)?): expected == index && next
        case (.anyIndex, .index?): next
        default: false
        }
    }
  }
  return table[0]
}

/// Stops with a message libFuzzer reports as a crash, saving the input.
private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fail(message()) }
}

private func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("invariant violated: \(message)\n".utf8))
  abort()
}

// Last: globals of main.swift are initialised in order, as the top-level code runs.
exit(fuzzing_support_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzRedactionSelector))
