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
///
/// Nothing here recurses on the tree's depth: it is built, written and freed with stacks of its
/// own, so a page nested as deep as memory allows neither crashes nor overflows. A tree deeper
/// than ``maximumDepth`` is not written (its text would grow with the square of its depth).
struct AccessibilityTree {
  /// One line of the snapshot and what it holds.
  ///
  /// Not `Equatable`: a synthesized `==` would recurse on the depth of the children.
  indirect enum Item {
    case text(String)
    case node(role: String, name: String, attributes: [String], children: [Item])
  }

  /// The top-level items, held by a box that frees them level by level.
  private let forest: Forest

  var items: [Item] { forest.items }

  /// The most nested lines written: a deeper tree fails the snapshot instead.
  static let maximumDepth = 1_000

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
    forest = Forest(Self.merge(Self.items(of: roots, in: byIdentifier)))
  }

  init(items: [Item]) {
    forest = Forest(items)
  }

  /// The snapshot's text, ending in a newline (empty for an empty tree), or `nil` when the tree
  /// is nested deeper than ``maximumDepth``.
  var yaml: String? {
    var lines: [String] = []
    // The items still to write at each open level, in reverse, the next one last.
    var levels: [[Item]] = [items.reversed()]
    while !levels.isEmpty {
      guard let item = levels[levels.count - 1].popLast() else {
        levels.removeLast()
        continue
      }
      let indent = String(repeating: "  ", count: levels.count - 1)
      switch item {
      case .text(let text):
        lines.append("\(indent)- text: \(Self.yamlValue(text))")
      case .node(let role, let name, let attributes, let children):
        var key = role
        if !name.isEmpty { key += " " + Self.quoted(name) }
        for attribute in attributes { key += " [\(attribute)]" }
        if children.isEmpty {
          lines.append("\(indent)- \(Self.yamlKey(key))")
        } else if children.count == 1, case .text(let text) = children[0] {
          lines.append("\(indent)- \(Self.yamlKey(key)): \(Self.yamlValue(text))")
        } else {
          guard levels.count < Self.maximumDepth else { return nil }
          lines.append("\(indent)- \(Self.yamlKey(key)):")
          levels.append(children.reversed())
        }
      }
    }
    return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
  }

  /// Holds the items and frees them a level at a time: a deep chain of `Item`s released by the
  /// runtime would release each level from inside the one above, one stack frame per level.
  private final class Forest {
    private(set) var items: [Item]

    init(_ items: [Item]) {
      self.items = items
    }

    deinit {
      // Each list is dropped only after its items' children are held here, so dropping it
      // frees one level and no more.
      var lists = [items]
      items = []
      while let list = lists.popLast() {
        for case .node(_, _, _, let children) in list where !children.isEmpty {
          lists.append(children)
        }
      }
    }
  }

  // MARK: Building

  /// A node being built: its children's items so far, and which child comes next.
  private struct Frame {
    let node: JSONMessage
    let childIdentifiers: [String]
    var next = 0
    var children: [Item] = []
  }

  /// The items of `roots` and the nodes under them, each node's children's items built before
  /// the node's own, with a stack of nodes rather than the call stack.
  private static func items(of roots: [JSONMessage], in nodes: [String: JSONMessage]) -> [Item] {
    var result: [Item] = []
    // A malformed tree with a cycle must not walk forever: each node is entered once.
    var visited = Set<String>()
    var frames: [Frame] = []
    var pendingRoots = roots[...]
    while true {
      let entering: JSONMessage
      if let top = frames.indices.last {
        guard frames[top].next < frames[top].childIdentifiers.count else {
          let frame = frames.removeLast()
          let made = items(for: frame.node, children: merge(frame.children))
          if frames.isEmpty {
            result += made
          } else {
            frames[frames.count - 1].children += made
          }
          continue
        }
        let identifier = frames[top].childIdentifiers[frames[top].next]
        frames[top].next += 1
        guard let child = nodes[identifier] else { continue }
        entering = child
      } else {
        guard let root = pendingRoots.popFirst() else { return result }
        entering = root
      }
      if let identifier = entering.string("nodeId") {
        guard visited.insert(identifier).inserted else { continue }
      }
      let childIdentifiers = (entering["childIds"] as? [Any] ?? []).compactMap { $0 as? String }
      frames.append(Frame(node: entering, childIdentifiers: childIdentifiers))
    }
  }

  /// The items a node stands for, given its children's (merged).
  private static func items(for node: JSONMessage, children: [Item]) -> [Item] {
    var children = children
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
    if children.count == 1, case .text(let text) = children[0], text == name { children = [] }
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

  // MARK: Writing

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
