import Foundation

/// Encodes an `Encodable` value into a ``PropertyListNode`` tree, the way upstream's property list
/// encoder shapes a value before it is written:
///
/// - `Date` and `Data` are property list values of their own (`<date>`, `<data>`);
/// - a `nil` becomes the string `$null`, and `encodeIfPresent` of `nil` leaves the key out;
/// - a nested value that encodes nothing becomes an empty dictionary;
/// - a super encoder that is never used leaves an empty dictionary under `super` (or its key).
///
/// The top level must be an array, a dictionary or data: strings, numbers, booleans and dates on
/// their own are fragments that a property list document cannot hold, and throw.
struct PropertyListTreeEncoder {
  var userInfo: [CodingUserInfoKey: Any] = [:]

  func encode<Value: Encodable>(_ value: Value) throws -> PropertyListNode {
    let encoder = PropertyListNodeEncoder(codingPath: [], userInfo: userInfo)
    guard let root = try encoder.node(for: value) else {
      throw fragmentError(value, "did not encode any values.")
    }
    switch root.content {
    case .array, .dictionary, .data:
      return root
    case .string:
      throw fragmentError(value, "encoded as string property list fragment.")
    case .date:
      throw fragmentError(value, "encoded as date property list fragment.")
    case .signedInteger, .unsignedInteger, .real, .boolean:
      throw fragmentError(value, "encoded as number property list fragment.")
    }
  }

  private func fragmentError<Value>(_ value: Value, _ reason: String) -> EncodingError {
    .invalidValue(
      value,
      EncodingError.Context(codingPath: [], debugDescription: "Top-level \(Value.self) \(reason)")
    )
  }
}

/// The `Encoder` handed to `Encodable` code; `result` holds what it encoded, if anything.
class PropertyListNodeEncoder: Encoder {
  let codingPath: [any CodingKey]
  let userInfo: [CodingUserInfoKey: Any]
  fileprivate(set) var result: PropertyListNode?

  init(codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
    self.codingPath = codingPath
    self.userInfo = userInfo
  }

  /// The node for `value`, or `nil` when its `encode(to:)` requested nothing.
  func node<Value: Encodable>(for value: Value) throws -> PropertyListNode? {
    if let date = value as? Date, Value.self == Date.self || Value.self == NSDate.self {
      return PropertyListNode(.date(date))
    }
    if let data = value as? Data, Value.self == Data.self || Value.self == NSData.self {
      return PropertyListNode(.data(data))
    }
    let encoder = PropertyListNodeEncoder(codingPath: codingPath, userInfo: userInfo)
    try value.encode(to: encoder)
    return encoder.result
  }

  /// The node for a value nested under `key`: an empty dictionary when it encoded nothing.
  fileprivate func nestedNode<Value: Encodable>(
    for value: Value,
    at path: [any CodingKey]
  ) throws -> PropertyListNode {
    let encoder = PropertyListNodeEncoder(codingPath: path, userInfo: userInfo)
    return try encoder.node(for: value) ?? .dictionary()
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    // Asking twice returns the same dictionary; asking after something else replaces it.
    let node: PropertyListNode
    if let result, result.isDictionary {
      node = result
    } else {
      node = .dictionary()
      result = node
    }
    return KeyedEncodingContainer(
      PropertyListKeyedContainer<Key>(encoder: self, node: node, codingPath: codingPath)
    )
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let node: PropertyListNode
    if let result, result.isArray {
      node = result
    } else {
      node = .array()
      result = node
    }
    return PropertyListUnkeyedContainer(encoder: self, node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    PropertyListSingleValueContainer(encoder: self)
  }

  fileprivate func store(_ node: PropertyListNode) {
    result = node
  }
}

/// The encoder a `superEncoder()` call returns: when it goes away it writes what it encoded (an
/// empty dictionary if nothing) into its parent's slot, as upstream's does.
private final class PropertyListSuperEncoder: PropertyListNodeEncoder {
  enum Slot {
    case index(Int)
    case key(String)
  }

  private let parent: PropertyListNode
  private let slot: Slot

  init(
    parent: PropertyListNode,
    slot: Slot,
    codingPath: [any CodingKey],
    userInfo: [CodingUserInfoKey: Any]
  ) {
    self.parent = parent
    self.slot = slot
    super.init(codingPath: codingPath, userInfo: userInfo)
  }

  deinit {
    let value = result ?? .dictionary()
    switch slot {
    case .index(let index): parent.insert(value, at: index)
    case .key(let key): parent.set(value, forKey: key)
    }
  }
}

/// A coding key for array positions and for `super`.
private struct PropertyListCodingKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
  }

  init(intValue: Int) {
    self.stringValue = "Index \(intValue)"
    self.intValue = intValue
  }

  static let `super` = PropertyListCodingKey(stringValue: "super")
}

private func scalar(_ value: Bool) -> PropertyListNode { PropertyListNode(.boolean(value)) }
private func scalar(_ value: String) -> PropertyListNode { PropertyListNode(.string(value)) }
private func scalar(_ value: Double) -> PropertyListNode { PropertyListNode(.real(value)) }
private func scalar(_ value: Float) -> PropertyListNode { PropertyListNode(.real(Double(value))) }
private func scalar<Integer: SignedInteger>(_ value: Integer) -> PropertyListNode {
  PropertyListNode(.signedInteger(Int64(value)))
}
private func scalar<Integer: UnsignedInteger>(_ value: Integer) -> PropertyListNode {
  PropertyListNode(.unsignedInteger(UInt64(value)))
}

private struct PropertyListKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: PropertyListNodeEncoder
  let node: PropertyListNode
  let codingPath: [any CodingKey]

  func encodeNil(forKey key: Key) throws { node.set(.null(), forKey: key.stringValue) }
  func encode(_ value: Bool, forKey key: Key) throws {
    node.set(scalar(value), forKey: key.stringValue)
  }
  func encode(_ value: String, forKey key: Key) throws {
    node.set(scalar(value), forKey: key.stringValue)
  }
  func encode(_ value: Double, forKey key: Key) throws {
    node.set(scalar(value), forKey: key.stringValue)
  }
  func encode(_ value: Float, forKey key: Key) throws {
    node.set(scalar(value), forKey: key.stringValue)
  }
  func encode(_ value: Int, forKey key: Key) throws {
    node.set(scalar(value), forKey: key.stringValue)
  }
  func encode(_ value: Int8, forKey key: Key) throws {
    node.set(scalar(value), forKey: key.stringValue)
  }
  func encode(_ value: Int16, forKey key: Key) throws {
    node.set(scalar(value), forKey: key.stringValue)
  }
  func encode(_ value: Int32, forKey key: Key) throws {
    node.set(scalar(value), forKey: key.stringValue)
  }
  func encode(_ value: Int64, forKey key: Key) throws {
    node.set(scalar(value), forKey: key.stringValue)
  }
  func encode(_ value: UInt, forKey key: Key) throws {
    node.set(scalar(value), forKey: key.stringValue)
  }
  func encode(_ value: UInt8, forKey key: Key) throws {
    node.set(scalar(value), forKey: key.stringValue)
  }
  func encode(_ value: UInt16, forKey key: Key) throws {
    node.set(scalar(value), forKey: key.stringValue)
  }
  func encode(_ value: UInt32, forKey key: Key) throws {
    node.set(scalar(value), forKey: key.stringValue)
  }
  func encode(_ value: UInt64, forKey key: Key) throws {
    node.set(scalar(value), forKey: key.stringValue)
  }

  func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
    node.set(try encoder.nestedNode(for: value, at: codingPath + [key]), forKey: key.stringValue)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type,
    forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = PropertyListNode.dictionary()
    node.set(nested, forKey: key.stringValue)
    return KeyedEncodingContainer(
      PropertyListKeyedContainer<NestedKey>(
        encoder: encoder,
        node: nested,
        codingPath: codingPath + [key]
      )
    )
  }

  func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = PropertyListNode.array()
    node.set(nested, forKey: key.stringValue)
    return PropertyListUnkeyedContainer(
      encoder: encoder,
      node: nested,
      codingPath: codingPath + [key]
    )
  }

  func superEncoder() -> any Encoder {
    superEncoder(named: PropertyListCodingKey.super)
  }

  func superEncoder(forKey key: Key) -> any Encoder {
    superEncoder(named: key)
  }

  private func superEncoder(named key: any CodingKey) -> any Encoder {
    PropertyListSuperEncoder(
      parent: node,
      slot: .key(key.stringValue),
      codingPath: codingPath + [key],
      userInfo: encoder.userInfo
    )
  }
}

private struct PropertyListUnkeyedContainer: UnkeyedEncodingContainer {
  let encoder: PropertyListNodeEncoder
  let node: PropertyListNode
  let codingPath: [any CodingKey]

  var count: Int { node.elements.count }

  private var nextKey: PropertyListCodingKey { PropertyListCodingKey(intValue: count) }

  func encodeNil() throws { node.append(.null()) }
  func encode(_ value: Bool) throws { node.append(scalar(value)) }
  func encode(_ value: String) throws { node.append(scalar(value)) }
  func encode(_ value: Double) throws { node.append(scalar(value)) }
  func encode(_ value: Float) throws { node.append(scalar(value)) }
  func encode(_ value: Int) throws { node.append(scalar(value)) }
  func encode(_ value: Int8) throws { node.append(scalar(value)) }
  func encode(_ value: Int16) throws { node.append(scalar(value)) }
  func encode(_ value: Int32) throws { node.append(scalar(value)) }
  func encode(_ value: Int64) throws { node.append(scalar(value)) }
  func encode(_ value: UInt) throws { node.append(scalar(value)) }
  func encode(_ value: UInt8) throws { node.append(scalar(value)) }
  func encode(_ value: UInt16) throws { node.append(scalar(value)) }
  func encode(_ value: UInt32) throws { node.append(scalar(value)) }
  func encode(_ value: UInt64) throws { node.append(scalar(value)) }

  func encode<Value: Encodable>(_ value: Value) throws {
    node.append(try encoder.nestedNode(for: value, at: codingPath + [nextKey]))
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let path = codingPath + [nextKey]
    let nested = PropertyListNode.dictionary()
    node.append(nested)
    return KeyedEncodingContainer(
      PropertyListKeyedContainer<NestedKey>(encoder: encoder, node: nested, codingPath: path)
    )
  }

  func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let path = codingPath + [nextKey]
    let nested = PropertyListNode.array()
    node.append(nested)
    return PropertyListUnkeyedContainer(encoder: encoder, node: nested, codingPath: path)
  }

  func superEncoder() -> any Encoder {
    PropertyListSuperEncoder(
      parent: node,
      slot: .index(count),
      codingPath: codingPath + [nextKey],
      userInfo: encoder.userInfo
    )
  }
}

private struct PropertyListSingleValueContainer: SingleValueEncodingContainer {
  let encoder: PropertyListNodeEncoder

  var codingPath: [any CodingKey] { encoder.codingPath }

  func encodeNil() throws { encoder.store(.null()) }
  func encode(_ value: Bool) throws { encoder.store(scalar(value)) }
  func encode(_ value: String) throws { encoder.store(scalar(value)) }
  func encode(_ value: Double) throws { encoder.store(scalar(value)) }
  func encode(_ value: Float) throws { encoder.store(scalar(value)) }
  func encode(_ value: Int) throws { encoder.store(scalar(value)) }
  func encode(_ value: Int8) throws { encoder.store(scalar(value)) }
  func encode(_ value: Int16) throws { encoder.store(scalar(value)) }
  func encode(_ value: Int32) throws { encoder.store(scalar(value)) }
  func encode(_ value: Int64) throws { encoder.store(scalar(value)) }
  func encode(_ value: UInt) throws { encoder.store(scalar(value)) }
  func encode(_ value: UInt8) throws { encoder.store(scalar(value)) }
  func encode(_ value: UInt16) throws { encoder.store(scalar(value)) }
  func encode(_ value: UInt32) throws { encoder.store(scalar(value)) }
  func encode(_ value: UInt64) throws { encoder.store(scalar(value)) }

  func encode<Value: Encodable>(_ value: Value) throws {
    encoder.store(try encoder.nestedNode(for: value, at: encoder.codingPath))
  }
}
