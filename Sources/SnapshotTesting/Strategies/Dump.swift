import Foundation

extension Snapshotting where Format == String {
  /// Snapshots any value as an indented, deterministic tree of its structure.
  ///
  /// Each line is one node: `▿` marks a node whose children follow, indented by two spaces;
  /// `-` marks a leaf. Dictionaries, sets and the stored properties of structs and classes are
  /// listed in a stable order, so a reference never depends on hashing. A class that appears
  /// inside itself is printed once and then marked `(circular reference detected)`.
  ///
  /// ```swift
  /// assertSnapshot(of: user, as: .dump)
  /// ```
  ///
  /// records `__Snapshots__/…/test.1.txt`:
  ///
  /// ```
  /// ▿ User
  ///   - bio: "Blobbed around the world."
  ///   - id: 1
  ///   - name: "Blobby"
  /// ```
  ///
  /// Conform a type to ``AnySnapshotStringConvertible`` to choose its own line.
  ///
  /// Complexity: O(*n* log *n*) in the number of nodes, times the length of their text.
  @available(
    iOS,
    deprecated: 9999,
    message: "Use '.customDump' from the 'SnapshotTestingCustomDump' module, instead."
  )
  @available(
    macOS,
    deprecated: 9999,
    message: "Use '.customDump' from the 'SnapshotTestingCustomDump' module, instead."
  )
  @available(
    tvOS,
    deprecated: 9999,
    message: "Use '.customDump' from the 'SnapshotTestingCustomDump' module, instead."
  )
  @available(
    watchOS,
    deprecated: 9999,
    message: "Use '.customDump' from the 'SnapshotTestingCustomDump' module, instead."
  )
  public static var dump: Snapshotting {
    SimplySnapshotting<String>.lines.pullback { (value: Value) in
      var dumper = TreeDumper()
      return dumper.render(value, label: nil, depth: 0)
    }
  }
}

/// Writes the `.dump` format.
///
/// The order it gives to the children of dictionaries, sets, structs and classes is the one
/// upstream's format has always had: unlabelled children first, ordered by their own text, then
/// labelled children by their label as Swift escapes it (`"a"`, `"a0"`, `"b"`).
struct TreeDumper {
  /// The class instances on the path from the root to the node being written.
  private var path: [(object: ObjectIdentifier, sortsMembers: Bool)] = []

  /// How a node's children are listed.
  private enum ChildOrder {
    case none, declared, sorted
  }

  /// The deepest nesting written: each level indents every line below it, so the text of a
  /// deep value (a long linked list) grows with the square of its depth. Deeper values fail the
  /// assertion instead.
  static let maximumDepth = 1000

  /// A node whose children are being written: what its own line needs, and its children's text
  /// so far.
  private struct Frame {
    let label: String?
    /// The node's sort key among its siblings: its label as Swift escapes it, when its parent
    /// sorts its children.
    let key: String?
    let depth: Int
    let description: String
    let order: ChildOrder
    /// Whether the node is on ``path``: a class instance whose children are listed.
    let isOnPath: Bool
    var children: Mirror.Children.Iterator
    var written: [(key: String?, text: String)] = []
  }

  /// What ``visit(_:label:key:depth:)`` makes of a node: its whole text, or a frame whose
  /// children come next.
  private enum Visit {
    case text(String)
    case frame(Frame)
  }

  /// The text of `value` and everything under it: depth first, with a stack of its own rather
  /// than the call stack, so that no depth of the value can exhaust it.
  mutating func render(_ value: Any, label: String?, depth: Int) -> String {
    var frames: [Frame] = []
    switch visit(value, label: label, key: nil, depth: depth) {
    case .text(let text): return text
    case .frame(let frame): frames.append(frame)
    }
    while let top = frames.indices.last {
      if let child = frames[top].children.next() {
        let key = frames[top].order == .sorted ? child.label?.debugDescription : nil
        switch visit(child.value, label: child.label, key: key, depth: frames[top].depth + 1) {
        case .text(let text): frames[top].written.append((key, text))
        case .frame(let frame): frames.append(frame)
        }
        continue
      }
      let frame = frames.removeLast()
      if frame.isOnPath { path.removeLast() }
      let text = Self.text(of: frame)
      guard let parent = frames.indices.last else { return text }
      frames[parent].written.append((frame.key, text))
    }
    // Not reached: the root's frame returns its text when it closes.
    return ""
  }

  /// Reads one node: its line's parts and how its children are listed.
  private mutating func visit(_ value: Any, label: String?, key: String?, depth: Int) -> Visit {
    guard depth <= Self.maximumDepth else {
      UnavailableSnapshot.report(
        """
        The value is nested more than \(Self.maximumDepth) levels deep (a long linked list, say), \
        deeper than .dump writes. Snapshot a shallower view of it, such as an array of its nodes.
        """
      )
      return .text("")
    }
    let mirror = Mirror(reflecting: value)
    let object: ObjectIdentifier? =
      type(of: value) is AnyClass ? ObjectIdentifier(value as AnyObject) : nil
    // Only optionals, structs, classes and enums print their type's name; naming a type is
    // costly, so leaves such as numbers and strings never do it.
    var typeName: String { String(describing: mirror.subjectType) }
    let count = mirror.children.count

    let description: String
    var order: ChildOrder = .declared
    // A plain struct or class: the only kind whose instances are tracked for cycles.
    var sortsMembers = false

    switch mirror.displayStyle {
    case .collection?:
      description = Self.counted(count, "element")
    case .dictionary?:
      description = Self.counted(count, "key/value pair")
      order = .sorted
    case .set?:
      description = Self.counted(count, "member")
      order = .sorted
    case .optional?:
      description = count == 0 ? "\(typeName).none" : typeName
    case .tuple?:
      description = "(\(Self.counted(count, "element")))"
    default:
      if let convertible = value as? AnySnapshotStringConvertible {
        description = convertible.snapshotDescription
        order = type(of: convertible).renderChildren ? .declared : .none
      } else if let convertible = value as? CustomStringConvertible {
        description = convertible.description
      } else {
        switch mirror.displayStyle {
        case .struct?, .class?:
          description = typeName
          order = .sorted
          sortsMembers = true
        case .enum?:
          description = count == 0 ? "\(typeName).\(String(describing: value))" : typeName
        default:
          description = String(describing: value)
        }
      }
    }

    if order != .none, count > 0, let object, isCircular(object, sortsMembers: sortsMembers) {
      let indentation = String(repeating: "  ", count: depth)
      return .text("\(indentation)▿ \(label ?? "value") (circular reference detected)\n")
    }
    let isOnPath = order != .none && object != nil
    if isOnPath, let object { path.append((object, sortsMembers)) }
    var frame = Frame(
      label: label,
      key: key,
      depth: depth,
      description: description,
      order: order,
      isOnPath: isOnPath,
      children: (order == .none ? Mirror.Children([]) : mirror.children).makeIterator()
    )
    guard order != .none else { return .text(Self.text(of: frame)) }
    frame.written.reserveCapacity(count)
    return .frame(frame)
  }

  /// A node's text: its line, then its children's text, sorted when its order says so.
  private static func text(of frame: Frame) -> String {
    var children = frame.written
    if frame.order == .sorted { children.sort(by: precedes) }
    var text = String(repeating: "  ", count: frame.depth) + (children.isEmpty ? "- " : "▿ ")
    if let label = frame.label { text += "\(label): " }
    text += frame.description + "\n"
    for child in children { text += child.text }
    return text
  }

  /// Whether writing `object`'s children again would repeat forever.
  ///
  /// A plain struct-or-class instance is cut as soon as it reappears below itself. Other
  /// instances (custom descriptions, custom mirrors) are cut only when nothing on the way back
  /// to their first appearance would cut the cycle instead; so the text stays the same as
  /// upstream's wherever upstream's is finite.
  private func isCircular(_ object: ObjectIdentifier, sortsMembers: Bool) -> Bool {
    guard let first = path.lastIndex(where: { $0.object == object }) else { return false }
    if sortsMembers { return true }
    return !path[(first + 1)...].contains { $0.sortsMembers }
  }

  /// Unlabelled children first, by their text; then labelled ones by their escaped label, then
  /// by their text.
  private static func precedes(
    _ lhs: (key: String?, text: String),
    _ rhs: (key: String?, text: String)
  ) -> Bool {
    switch (lhs.key, rhs.key) {
    case (nil, nil):
      return lhs.text < rhs.text
    case (nil, _?):
      return true
    case (_?, nil):
      return false
    case let (leftKey?, rightKey?):
      return leftKey == rightKey ? lhs.text < rhs.text : leftKey < rightKey
    }
  }

  private static func counted(_ count: Int, _ noun: String) -> String {
    count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
  }
}
