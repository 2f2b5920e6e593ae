import Foundation

@available(macOS 10.13, watchOS 4.0, tvOS 11.0, *)
extension Snapshotting where Format == String {
  /// Snapshots a Foundation JSON object (dictionaries, arrays, strings, numbers, `NSNull`) as
  /// pretty-printed JSON with sorted keys, in a `.json` reference.
  ///
  /// ```swift
  /// let object = try JSONSerialization.jsonObject(with: responseBody)
  /// assertSnapshot(of: object, as: .json)
  /// ```
  ///
  /// A value that `JSONSerialization` cannot write fails the assertion, which records nothing.
  public static var json: Snapshotting {
    var strategy = SimplySnapshotting<String>.lines.pullback { (value: Value) in
      guard JSONSerialization.isValidJSONObject(value) else {
        return UnavailableSnapshot.report("Not a valid JSON object: \(String(describing: value))")
      }
      return encodedText(of: value, format: "JSON") {
        try JSONSerialization.data(withJSONObject: $0, options: [.prettyPrinted, .sortedKeys])
      }
    }
    strategy.pathExtension = "json"
    return strategy
  }
}
