import Foundation

/// A JSON value, decoded without Foundation's number bridging so that `true`, `1` and `1.5` stay
/// apart.
indirect enum JSONValue: Decodable, Equatable {
  case null
  case bool(Bool)
  case integer(Int)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  static func parse(_ text: String) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
  }

  subscript(key: String) -> JSONValue? {
    if case .object(let object) = self { return object[key] }
    return nil
  }

  var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  var array: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The value as JSON text, for messages.
  var text: String {
    switch self {
    case .null: return "null"
    case .bool(let value): return "\(value)"
    case .integer(let value): return "\(value)"
    case .number(let value): return "\(value)"
    case .string(let value): return "\"\(value)\""
    case .array(let values): return "[" + values.map(\.text).joined(separator: ", ") + "]"
    case .object: return "{…}"
    }
  }

  /// The JSON Schema type names this value has (an integer is also a number).
  var typeNames: Set<String> {
    switch self {
    case .null: return ["null"]
    case .bool: return ["boolean"]
    case .integer: return ["integer", "number"]
    case .number: return ["number"]
    case .string: return ["string"]
    case .array: return ["array"]
    case .object: return ["object"]
    }
  }
}

/// Checks a value against the part of JSON Schema that `review.schema.json` uses: `type`,
/// `required`, `properties`, `additionalProperties: false`, `items`, `enum`, `const` and local
/// `$ref`s. Returns one line per violation, naming its path.
func schemaViolations(
  of value: JSONValue,
  against schema: JSONValue,
  root: JSONValue? = nil,
  path: String = "$"
) -> [String] {
  let root = root ?? schema
  if let reference = schema["$ref"]?.string {
    var target: JSONValue? = root
    for part in reference.dropFirst(2).split(separator: "/") { target = target?[String(part)] }
    guard let target else { return ["\(path): unresolved $ref \(reference)"] }
    return schemaViolations(of: value, against: target, root: root, path: path)
  }
  var violations: [String] = []
  if let type = schema["type"] {
    let allowed = Set(type.array?.compactMap(\.string) ?? [type.string].compactMap { $0 })
    if allowed.isDisjoint(with: value.typeNames) {
      violations.append("\(path): expected \(allowed.sorted()), found \(value.typeNames.sorted())")
      return violations
    }
  }
  if let constant = schema["const"], constant != value {
    violations.append("\(path): expected \(constant.text)")
  }
  if let options = schema["enum"]?.array, !options.contains(value) {
    let names = options.map(\.text).joined(separator: ", ")
    violations.append("\(path): \(value.text) is not one of [\(names)]")
  }
  if case .object(let object) = value {
    for key in schema["required"]?.array?.compactMap(\.string) ?? [] where object[key] == nil {
      violations.append("\(path): missing required \"\(key)\"")
    }
    let properties = schema["properties"]
    for (key, member) in object.sorted(by: { $0.key < $1.key }) {
      if let property = properties?[key] {
        violations += schemaViolations(
          of: member,
          against: property,
          root: root,
          path: "\(path).\(key)"
        )
      } else if schema["additionalProperties"] == .bool(false) {
        violations.append("\(path): unexpected \"\(key)\"")
      }
    }
  }
  if case .array(let items) = value, let itemSchema = schema["items"] {
    for (index, item) in items.enumerated() {
      violations += schemaViolations(
        of: item,
        against: itemSchema,
        root: root,
        path: "\(path)[\(index)]"
      )
    }
  }
  return violations
}

/// `Documentation/review.schema.json`, read from the repository.
func reviewSchema() throws -> JSONValue {
  let url = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // MachineReadable
    .deletingLastPathComponent()  // SnapshotReviewTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()
    .appendingPathComponent("Documentation/review.schema.json")
  return try JSONValue.parse(String(contentsOf: url, encoding: .utf8))
}
