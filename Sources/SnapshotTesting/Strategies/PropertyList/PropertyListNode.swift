import Foundation

/// One value of a property list while `Encodable` code builds it.
///
/// A node is a class because a container handed to `Encodable` code keeps filling its node after
/// the node has been placed in its parent. Dictionary keys compare by their UTF-16 code units, as
/// upstream's (Core Foundation) dictionaries do: `"é"` and `"e\u{301}"` are two keys.
final class PropertyListNode {
  enum Content {
    case string(String)
    case signedInteger(Int64)
    case unsignedInteger(UInt64)
    case real(Double)
    case boolean(Bool)
    case date(Date)
    case data(Data)
    case array
    case dictionary
  }

  /// A dictionary key that is equal to another only when their UTF-16 code units are.
  struct Key: Hashable {
    let string: String
    let utf16: [UInt16]

    init(_ string: String) {
      self.string = string
      self.utf16 = Array(string.utf16)
    }

    static func == (lhs: Key, rhs: Key) -> Bool { lhs.utf16 == rhs.utf16 }
    func hash(into hasher: inout Hasher) { hasher.combine(utf16) }
  }

  let content: Content
  /// The elements, in order, when `content` is `.array`.
  private(set) var elements: [PropertyListNode] = []
  /// The entries when `content` is `.dictionary`; setting a key again replaces its value.
  private(set) var entries: [Key: PropertyListNode] = [:]

  init(_ content: Content) {
    self.content = content
  }

  /// Frees the nodes below a level at a time: released by the runtime, each node would free its
  /// children from inside its own `deinit`, one stack frame per level, and a deeply nested value
  /// would overflow the stack.
  deinit {
    var pending = elements
    pending.append(contentsOf: entries.values)
    elements = []
    entries = [:]
    while var node = pending.popLast() {
      // A node held elsewhere too is not freed here; its children stay with it.
      guard isKnownUniquelyReferenced(&node) else { continue }
      pending.append(contentsOf: node.elements)
      pending.append(contentsOf: node.entries.values)
      node.elements = []
      node.entries = [:]
    }
  }

  static func array() -> PropertyListNode { PropertyListNode(.array) }
  static func dictionary() -> PropertyListNode { PropertyListNode(.dictionary) }

  /// Upstream's encoder writes a `nil` as this string: property lists have no null.
  static func null() -> PropertyListNode { PropertyListNode(.string("$null")) }

  var isArray: Bool {
    if case .array = content { return true }
    return false
  }

  var isDictionary: Bool {
    if case .dictionary = content { return true }
    return false
  }

  func append(_ element: PropertyListNode) {
    elements.append(element)
  }

  /// Inserts at `index`, or appends when `index` is past the end.
  func insert(_ element: PropertyListNode, at index: Int) {
    elements.insert(element, at: min(max(index, 0), elements.count))
  }

  func set(_ value: PropertyListNode, forKey key: String) {
    entries[Key(key)] = value
  }

  /// The entries ordered by their keys' UTF-16 code units, the order upstream writes them in.
  var sortedEntries: [(key: String, value: PropertyListNode)] {
    entries
      .sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }
      .map { (key: $0.key.string, value: $0.value) }
  }
}
