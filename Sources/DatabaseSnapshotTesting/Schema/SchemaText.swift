/// A schema as text, in canonical order: each table with its columns, constraints, indexes and
/// triggers, then views, then sequences; each kind sorted by name (columns too, so that the same
/// columns added by migrations in another order give the same text).
///
/// ```
/// TABLE todos
///   COLUMN id integer NOT NULL
///   COLUMN title text NOT NULL
///   CONSTRAINT todos_pkey PRIMARY KEY (id)
///   INDEX todos_title_idx btree (title)
///
/// VIEW open_todos
///   SELECT id, title FROM todos WHERE NOT done
/// ```
struct SchemaText {
  /// One table, view or sequence.
  struct Object {
    /// What it is: `TABLE`, `VIEW`, `SEQUENCE`, …
    var kind: String
    var name: String
    /// Text after the name on the heading line.
    var detail = ""
    /// Lines under the heading (without indentation), in the order they are added.
    var members: [Member] = []
  }

  /// A line under an object: a column, constraint, index, trigger, or a line of a definition.
  struct Member {
    /// Members are sorted by this, then by name; a definition's lines keep their order.
    var rank: Int
    var name: String
    var text: String
  }

  static let columnRank = 0
  static let constraintRank = 1
  static let indexRank = 2
  static let triggerRank = 3
  static let definitionRank = 4

  private var objects: [String: Object] = [:]

  /// The object of this kind and name, created if new.
  mutating func object(_ kind: String, _ name: String, detail: String = "") {
    let key = Self.key(kind, name)
    if objects[key] == nil {
      objects[key] = Object(kind: kind, name: name, detail: detail)
    } else if !detail.isEmpty {
      objects[key]?.detail = detail
    }
  }

  /// Adds a member to an object (created if new).
  mutating func add(_ kind: String, _ name: String, member: Member) {
    object(kind, name)
    objects[Self.key(kind, name)]?.members.append(member)
  }

  /// Adds a definition (a view's query), one member per line, trailing spaces removed.
  mutating func addDefinition(_ kind: String, _ name: String, _ definition: String) {
    for line in definition.split(separator: "\n", omittingEmptySubsequences: true) {
      var text = String(line)
      while text.last?.isWhitespace == true { text.removeLast() }
      if text.allSatisfy(\.isWhitespace) { continue }
      add(kind, name, member: Member(rank: Self.definitionRank, name: "", text: text))
    }
  }

  /// The text; `(no tables, views or sequences)` for an empty schema.
  func text() -> String {
    let kindOrder = [
      "TABLE", "PARTITIONED TABLE", "FOREIGN TABLE", "VIEW", "MATERIALIZED VIEW",
      "SEQUENCE",
    ]
    let sorted = objects.values.sorted {
      let left = kindOrder.firstIndex(of: $0.kind) ?? kindOrder.count
      let right = kindOrder.firstIndex(of: $1.kind) ?? kindOrder.count
      return left != right ? left < right : $0.name.utf8.lexicographicallyPrecedes($1.name.utf8)
    }
    guard !sorted.isEmpty else { return "(no tables, views or sequences)" }
    return sorted.map { object in
      var lines = [
        [object.kind, object.name, object.detail].filter { !$0.isEmpty }.joined(separator: " ")
      ]
      // A stable sort: a definition's lines (all of one rank and name) keep their order.
      let members = object.members.enumerated().sorted { left, right in
        if left.element.rank != right.element.rank { return left.element.rank < right.element.rank }
        if left.element.name != right.element.name {
          return left.element.name.utf8.lexicographicallyPrecedes(right.element.name.utf8)
        }
        if left.element.rank != Self.definitionRank && left.element.text != right.element.text {
          return left.element.text.utf8.lexicographicallyPrecedes(right.element.text.utf8)
        }
        return left.offset < right.offset
      }
      lines += members.map { "  " + $0.element.text }
      return lines.joined(separator: "\n")
    }.joined(separator: "\n\n")
  }

  private static func key(_ kind: String, _ name: String) -> String { kind + "\u{0}" + name }
}

extension SQLResult {
  /// The rows as text, `NULL` as nil, bytes as nil (catalog queries return none).
  var textRows: [[String?]] {
    rows.map { row in
      row.map { value in
        if case .text(let text) = value { text } else { nil }
      }
    }
  }
}
