/// A query plan as text: one line per plan node, indented two spaces per level, with the node's
/// details (`Index Cond`, `Filter`, `Sort Key`, …) after it in brackets, so that a query
/// that stops using an index changes one line:
///
/// ```
/// −Index Scan using todos_title_idx on todos [Index Cond: (title = 'Milk'::text)]
/// +Seq Scan on todos [Filter: (title = 'Milk'::text)]
/// ```
enum QueryPlanText {
  /// PostgreSQL's `EXPLAIN` text (one row per line), its arrows dropped and each detail line
  /// joined to its node.
  ///
  /// - Complexity: O(*n*) in the plan's text.
  static func postgreSQL(_ result: SQLResult) -> String {
    var nodes: [(depth: Int, text: String)] = []
    var indents: [Int] = []
    for row in result.textRows {
      for line in (row.first.flatMap { $0 } ?? "").split(separator: "\n") {
        let indent = line.prefix(while: { $0 == " " }).count
        var text = String(line.dropFirst(indent))
        while text.last == " " { text.removeLast() }
        if text.isEmpty { continue }
        if !nodes.isEmpty, !text.hasPrefix("->"), isDetail(text) {
          nodes[nodes.count - 1].text += " [\(text)]"
          continue
        }
        if text.hasPrefix("->") {
          text = String(text.dropFirst(2).drop(while: { $0 == " " }))
        }
        while let last = indents.last, last >= indent { indents.removeLast() }
        nodes.append((indents.count, text))
        indents.append(indent)
      }
    }
    return nodes.map { String(repeating: "  ", count: $0.depth) + $0.text }.joined(separator: "\n")
  }

  /// A detail of a node: `Name: value`, a capitalised name of letters and spaces (`Index Cond`,
  /// `Rows Removed by Filter`). `SubPlan 1` and `InitPlan 1 (returns $0)` are nodes of their own.
  private static func isDetail(_ text: String) -> Bool {
    guard let colon = text.firstIndex(of: ":"), let first = text.first, first.isUppercase else {
      return false
    }
    return text[..<colon].allSatisfy { $0.isLetter || $0 == " " || $0 == "-" }
  }

  /// SQLite's `EXPLAIN QUERY PLAN` rows (`id`, `parent`, `notused`, `detail`) as a tree.
  ///
  /// - Complexity: O(*n*) in the rows.
  static func sqlite(_ result: SQLResult) -> String {
    let idColumn = result.columns.firstIndex(of: "id") ?? 0
    let parentColumn = result.columns.firstIndex(of: "parent") ?? 1
    let detailColumn = result.columns.firstIndex(of: "detail") ?? 3
    var depths: [String: Int] = [:]
    var lines: [String] = []
    for row in result.textRows where row.count > max(idColumn, parentColumn, detailColumn) {
      let depth = row[parentColumn].flatMap { depths[$0] }.map { $0 + 1 } ?? 0
      if let id = row[idColumn] { depths[id] = depth }
      lines.append(String(repeating: "  ", count: depth) + (row[detailColumn] ?? ""))
    }
    return lines.joined(separator: "\n")
  }
}
