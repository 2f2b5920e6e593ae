import Foundation

/// A JSON object of the DevTools protocol, read with `JSONSerialization`.
///
/// Sendable because it only ever holds what `JSONSerialization` made (strings, numbers, arrays,
/// dictionaries, `NSNull`), which nothing mutates after parsing.
struct JSONMessage: @unchecked Sendable {
  var object: [String: Any]

  init(_ object: [String: Any] = [:]) {
    self.object = object
  }

  subscript(key: String) -> Any? { object[key] }

  func string(_ key: String) -> String? { object[key] as? String }

  func int(_ key: String) -> Int? { (object[key] as? NSNumber)?.intValue }

  func double(_ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }

  func bool(_ key: String) -> Bool? { (object[key] as? NSNumber)?.boolValue }

  func message(_ key: String) -> JSONMessage? {
    (object[key] as? [String: Any]).map(JSONMessage.init)
  }

  func messages(_ key: String) -> [JSONMessage] {
    ((object[key] as? [Any]) ?? []).compactMap { ($0 as? [String: Any]).map(JSONMessage.init) }
  }

  /// The value `Runtime.evaluate` returned by value, as an object.
  var evaluatedObject: JSONMessage? {
    message("result")?.message("value")
  }
}
