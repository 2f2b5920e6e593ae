/// SQLite's schema, read from `sqlite_schema` and the table-valued pragmas (`pragma_table_xinfo`,
/// `pragma_foreign_key_list`, `pragma_index_list`, `pragma_index_xinfo`) of the main database,
/// SQLite's own objects (`sqlite_…`) left out. Columns, keys and indexes come from the pragmas,
/// so they read the same however the table was written or altered; `CHECK` constraints, views
/// and triggers are in SQLite only as the statement that made them, which is shown with its
/// whitespace collapsed.
enum SQLiteSchema {
  private static let userObjects = "m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"

  static let objectsQuery = """
    SELECT m.type, m.name, m.tbl_name, m.sql FROM sqlite_schema m WHERE \(userObjects)
    """
  static let columnsQuery = """
    SELECT m.name, p.name, p.type, p."notnull", p.dflt_value, p.pk, p.hidden
    FROM sqlite_schema m JOIN pragma_table_xinfo(m.name) p
    WHERE m.type = 'table' AND \(userObjects)
    """
  static let foreignKeysQuery = """
    SELECT m.name, f.id, f.seq, f."table", f."from", f."to", f.on_update, f.on_delete
    FROM sqlite_schema m JOIN pragma_foreign_key_list(m.name) f
    WHERE m.type = 'table' AND \(userObjects)
    """
  static let indexesQuery = """
    SELECT m.name, l.name, l."unique", l.origin, ii.seqno, ii.name, ii."desc", ii.coll
    FROM sqlite_schema m JOIN pragma_index_list(m.name) l JOIN pragma_index_xinfo(l.name) ii
    WHERE m.type = 'table' AND ii.key = 1 AND \(userObjects)
    """

  /// The schema text of the four queries' results.
  static func text(
    objects: SQLResult,
    columns: SQLResult,
    foreignKeys: SQLResult,
    indexes: SQLResult
  ) -> String {
    var schema = SchemaText()
    var indexStatements: [String: String] = [:]
    for row in objects.textRows where row.count == 4 {
      let type = row[0] ?? "", name = row[1] ?? "", table = row[2] ?? "", sql = row[3] ?? ""
      switch type {
      case "table":
        schema.object("TABLE", name)
        for check in SQLTokens(sql).checkConstraints {
          let text = check.name.isEmpty ? check.text : "CONSTRAINT \(check.name) \(check.text)"
          schema.add(
            "TABLE",
            name,
            member: .init(rank: SchemaText.constraintRank, name: check.name, text: text)
          )
        }
      case "view":
        schema.object("VIEW", name)
        schema.addDefinition("VIEW", name, collapsed(sql))
      case "trigger":
        schema.add(
          "TABLE",
          table,
          member: .init(rank: SchemaText.triggerRank, name: name, text: "TRIGGER " + collapsed(sql))
        )
      case "index":
        indexStatements[name] = sql
      default:
        break
      }
    }

    var primaryKeys: [String: [(position: Int, column: String)]] = [:]
    for row in columns.textRows where row.count == 7 {
      let table = row[0] ?? "", column = row[1] ?? ""
      var text = "COLUMN \(column)"
      if let type = row[2], !type.isEmpty { text += " \(type)" }
      if row[3] == "1" { text += " NOT NULL" }
      if let defaultValue = row[4] { text += " DEFAULT \(defaultValue)" }
      switch row[6] {
      case "2": text += " GENERATED VIRTUAL"
      case "3": text += " GENERATED STORED"
      default: break
      }
      schema.add(
        "TABLE",
        table,
        member: .init(rank: SchemaText.columnRank, name: column, text: text)
      )
      if let position = Int(row[5] ?? ""), position > 0 {
        primaryKeys[table, default: []].append((position, column))
      }
    }
    for (table, key) in primaryKeys {
      let names = key.sorted { $0.position < $1.position }.map(\.column)
      schema.add(
        "TABLE",
        table,
        member: .init(
          rank: SchemaText.constraintRank,
          name: "",
          text: "PRIMARY KEY (\(names.joined(separator: ", ")))"
        )
      )
    }

    // A foreign key is several rows (one per column), grouped by table and id.
    var foreignKeyRows: [String: [[String?]]] = [:]
    for row in foreignKeys.textRows where row.count == 8 {
      foreignKeyRows["\(row[0] ?? "")\u{0}\(row[1] ?? "")", default: []].append(row)
    }
    for rows in foreignKeyRows.values {
      let ordered = rows.sorted { (Int($0[2] ?? "") ?? 0) < (Int($1[2] ?? "") ?? 0) }
      guard let first = ordered.first else { continue }
      let from = ordered.map { $0[4] ?? "" }.joined(separator: ", ")
      let to = ordered.compactMap { $0[5] }.joined(separator: ", ")
      var text = "FOREIGN KEY (\(from)) REFERENCES \(first[3] ?? "")"
      if !to.isEmpty { text += "(\(to))" }
      if let update = first[6], update != "NO ACTION" { text += " ON UPDATE \(update)" }
      if let delete = first[7], delete != "NO ACTION" { text += " ON DELETE \(delete)" }
      schema.add(
        "TABLE",
        first[0] ?? "",
        member: .init(rank: SchemaText.constraintRank, name: "", text: text)
      )
    }

    // An index is several rows (one per key column), grouped by table and name.
    var indexRows: [String: [[String?]]] = [:]
    for row in indexes.textRows where row.count == 8 {
      indexRows["\(row[0] ?? "")\u{0}\(row[1] ?? "")", default: []].append(row)
    }
    for rows in indexRows.values {
      let ordered = rows.sorted { (Int($0[4] ?? "") ?? 0) < (Int($1[4] ?? "") ?? 0) }
      guard let first = ordered.first else { continue }
      let table = first[0] ?? "", name = first[1] ?? ""
      let keys = ordered.map { row in
        var key = row[5] ?? "<expression>"
        if let collation = row[7], collation != "BINARY" { key += " COLLATE \(collation)" }
        if row[6] == "1" { key += " DESC" }
        return key
      }.joined(separator: ", ")
      switch first[3] {
      case "pk":
        continue  // the PRIMARY KEY line says it
      case "u":
        schema.add(
          "TABLE",
          table,
          member: .init(rank: SchemaText.constraintRank, name: "", text: "UNIQUE (\(keys))")
        )
      default:
        var text = (first[2] == "1" ? "UNIQUE INDEX " : "INDEX ") + "\(name) (\(keys))"
        if let statement = indexStatements[name], let condition = whereClause(of: statement) {
          text += " " + condition
        }
        schema.add(
          "TABLE",
          table,
          member: .init(rank: SchemaText.indexRank, name: name, text: text)
        )
      }
    }
    return schema.text()
  }

  /// A statement with its runs of whitespace made one space.
  private static func collapsed(_ sql: String) -> String {
    sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// `WHERE …` of a partial index's statement.
  private static func whereClause(of statement: String) -> String? {
    let tokens = SQLTokens(statement)
    guard
      let token = tokens.tokens.last(where: { $0.kind == .word("WHERE") && $0.depth == 0 })
    else { return nil }
    return collapsed(tokens.text(token.range.lowerBound..<tokens.scalars.count))
  }
}
