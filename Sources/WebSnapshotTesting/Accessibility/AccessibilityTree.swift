import Foundation

/// The page's accessibility tree, from `Accessibility.getFullAXTree`, as the YAML text of
/// Playwright's ARIA snapshots:
///
/// ```yaml
/// - heading "Invoice" [level=1]
/// - list:
///   - listitem: Paper
/// - button "Pay"
/// - checkbox "Remember me" [checked]
/// - text: Total due
/// ```
///
/// Nodes the browser ignores, unnamed containers (`generic`, `none`), list markers and inline
/// text boxes add no line: their children take their place. Adjacent text runs are joined, with
/// white space collapsed. A node whose only child is text shows it after a colon; a node whose
/// only text repeats its name shows none.
struct AccessibilityTree {
  /// One line of the snapshot and what it holds.
  indirect enum Item: Equatable {
    case text(String)
    case node(role: String, name: String, attributes: [String], children: [Item])
  }

  let items: [Item]

  /// Roles that add no line of their own when they have no name.
  static let transparentRoles: Set<String> = [
    "generic", "none", "presentation", "RootWebArea", "WebArea", "strong", "emphasis", "time",
    "LabelText", "Abbr", "Ruby", "Canvas", "Pre", "code", "mark", "subscript", "superscript",
    "deletion", "insertion", "LayoutTable", "LayoutTableRow", "LayoutTableCell", "Unknown",
  ]

  /// Chromium's role names that differ from ARIA's.
  static let roleNames: [String: String] = [
    "image": "img",
    "DescriptionList": "list",
    "DescriptionListTerm": "term",
    "DescriptionListDetail": "definition",
  ]

  init(nodes: [JSONMessage]) {
    var byIdentifier: [String: JSONMessage] = [:]
    for node in nodes {
      if let identifier = node.string("nodeId") { byIdentifier[identifier] = node }
    }
    let roots = nodes.filter { $0.string("parentId") == nil }
    var visited = Set<String>()
    items = Self.merge(roots.flatMap { Self.items(for: $0, in: byIdentifier, visited: &visited) })
  }

  init(items: [Item]) {
    self.items = items
  }

  /// The snapshot's text, ending in a newline (empty for an empty tree).
  var yaml: String {
    var lines: [String] = []
    Self.render(items, indent: "", into: &lines)
    return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
  }

  // MARK: Building

  private static func items(
    for node: JSONMessage,
    in nodes: [String: JSONMessage],
    visited: inout Set<String>
  ) -> [Item] {
    // A malformed tree with a cycle must not recurse forever.
    if let identifier = node.string("nodeId") {
      guard visited.insert(identifier).inserted else { return [] }
    }
    let childIdentifiers = (node["childIds"] as? [Any] ?? []).compactMap { $0 as? String }
    var children: [Item] = []
    for identifier in childIdentifiers {
      if let child = nodes[identifier] {
        children += items(for: child, in: nodes, visited: &visited)
      }
    }
    children = merge(children)

    let rawRole = node.message("role")?.string("value") ?? "none"
    let rawName = node.message("name")?.string("value") ?? ""
    let name = collapse(rawName)
    if node.bool("ignored") == true { return children }
    switch rawRole {
    // Kept with its outer spaces until the runs are joined: "Total due: " + "€ 120.00".
    case "StaticText": return rawName.isEmpty ? [] : [.text(rawName)]
    case "InlineTextBox", "ListMarker": return []
    case "LineBreak": return [.text(" ")]
    default: break
    }
    if transparentRoles.contains(rawRole) && name.isEmpty { return children }
    if rawRole == "RootWebArea" || rawRole == "WebArea" { return children }

    let role = roleNames[rawRole] ?? rawRole
    if children == [.text(name)] { children = [] }
    return [
      .node(
        role: role,
        name: name,
        attributes: attributes(of: node, role: role),
        children: children
      )
    ]
  }

  /// The states Playwright shows in brackets, in its order.
  private static func attributes(of node: JSONMessage, role: String) -> [String] {
    var values: [String: String] = [:]
    for property in node.messages("properties") {
      guard let name = property.string("name"), let value = property.message("value") else {
        continue
      }
      if let text = value.string("value") {
        values[name] = text
      } else if let number = value["value"] as? NSNumber {
        let isBoolean = value.string("type")?.hasPrefix("boolean") == true
        values[name] = isBoolean ? (number.boolValue ? "true" : "false") : number.stringValue
      }
    }
    var attributes: [String] = []
    func flag(_ name: String, mixedAllowed: Bool) {
      switch values[name] {
      case "true": attributes.append(name)
      case "mixed" where mixedAllowed: attributes.append("\(name)=mixed")
      default: break
      }
    }
    flag("checked", mixedAllowed: true)
    flag("disabled", mixedAllowed: false)
    flag("expanded", mixedAllowed: false)
    // Chromium gives list items a level too; Playwright shows it for headings only.
    if role == "heading", let level = values["level"], Int(level) != nil {
      attributes.append("level=\(level)")
    }
    flag("pressed", mixedAllowed: true)
    flag("selected", mixedAllowed: false)
    return attributes
  }

  /// Joins adjacent text runs and drops empty ones.
  private static func merge(_ items: [Item]) -> [Item] {
    var merged: [Item] = []
    for item in items {
      if case .text(let text) = item, case .text(let previous)? = merged.last {
        merged[merged.count - 1] = .text(previous + text)
      } else {
        merged.append(item)
      }
    }
    return merged.compactMap { item in
      guard case .text(let text) = item else { return item }
      let collapsed = collapse(text)
      return collapsed.isEmpty ? nil : .text(collapsed)
    }
  }

  private static func collapse(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }

  // MARK: Rendering

  private static func render(_ items: [Item], indent: String, into lines: inout [String]) {
    for item in items {
      switch item {
      case .text(let text):
        lines.append("\(indent)- text: \(yamlValue(text))")
      case .node(let role, let name, let attributes, let children):
        var key = role
        if !name.isEmpty { key += " " + quoted(name) }
        for attribute in attributes { key += " [\(attribute)]" }
        if children.isEmpty {
          lines.append("\(indent)- \(yamlKey(key))")
        } else if children.count == 1, case .text(let text) = children[0] {
          lines.append("\(indent)- \(yamlKey(key)): \(yamlValue(text))")
        } else {
          lines.append("\(indent)- \(yamlKey(key)):")
          render(children, indent: indent + "  ", into: &lines)
        }
      }
    }
  }

  /// A name in double quotes, with quotes, backslashes and control characters escaped.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 {
          result += String(format: "\\x%02X", scalar.value)
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }

  /// A key quoted as a whole when YAML would otherwise read it wrongly (a name with `: `).
  private static func yamlKey(_ key: String) -> String {
    guard key.contains(": ") || key.hasSuffix(":") || key.contains(" #") else { return key }
    return "'\(key.replacingOccurrences(of: "'", with: "''"))'"
  }

  /// A text value, quoted when plain YAML would read it as something else.
  static func yamlValue(_ text: String) -> String {
    let special = "-?:,[]{}#&*!|>'\"%@`"
    let needsQuotes =
      text.contains(": ") || text.contains(" #") || text.hasSuffix(":")
      || text.first.map { special.contains($0) } == true
      || ["true", "false", "null", "yes", "no", "~"].contains(text.lowercased())
      || Double(text) != nil
    return needsQuotes ? quoted(text) : text
  }
}
