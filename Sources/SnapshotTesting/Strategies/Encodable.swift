import Foundation

extension Snapshotting where Value: Encodable, Format == String {
  /// Snapshots an encodable value as pretty-printed JSON with sorted keys, in a `.json`
  /// reference.
  ///
  /// ```swift
  /// assertSnapshot(of: user, as: .json)
  /// ```
  ///
  /// records:
  ///
  /// ```json
  /// {
  ///   "id" : 1,
  ///   "name" : "Blobby"
  /// }
  /// ```
  @available(iOS 11.0, macOS 10.13, tvOS 11.0, watchOS 4.0, *)
  public static var json: Snapshotting {
    var strategy = SimplySnapshotting<String>.lines.pullback { (value: Value) in
      prettyJSONText(of: value)
    }
    strategy.pathExtension = "json"
    return strategy
  }

  /// Snapshots an encodable value as the given encoder writes it, in a `.json` reference.
  ///
  /// ```swift
  /// let encoder = JSONEncoder()
  /// encoder.dateEncodingStrategy = .iso8601
  /// assertSnapshot(of: event, as: .json(encoder))
  /// ```
  ///
  /// - Parameter encoder: The encoder, used as configured.
  public static func json(_ encoder: JSONEncoder) -> Snapshotting {
    var strategy = SimplySnapshotting<String>.lines.pullback { (value: Value) in
      encodedText(of: value, format: "JSON") { try encoder.encode($0) }
    }
    strategy.pathExtension = "json"
    return strategy
  }

  /// Snapshots an encodable value as an XML property list, in a `.plist` reference.
  ///
  /// ```swift
  /// assertSnapshot(of: user, as: .plist)
  /// ```
  ///
  /// records the XML declaration, the property list doctype, and
  ///
  /// ```xml
  /// <plist version="1.0">
  /// <dict>
  /// 	<key>id</key>
  /// 	<integer>1</integer>
  /// 	<key>name</key>
  /// 	<string>Blobby</string>
  /// </dict>
  /// </plist>
  /// ```
  ///
  /// The text is byte-identical to upstream's (keys sorted, reals with 17 significant digits,
  /// dates in whole UTC seconds), so references recorded with it keep passing.
  public static var plist: Snapshotting {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml
    return .plist(encoder)
  }

  /// Snapshots an encodable value as a property list in the given encoder's output format, in a
  /// `.plist` reference.
  ///
  /// ```swift
  /// let encoder = PropertyListEncoder()
  /// encoder.outputFormat = .xml
  /// encoder.userInfo[.units] = "metric"
  /// assertSnapshot(of: recipe, as: .plist(encoder))
  /// ```
  ///
  /// - Parameter encoder: Its `outputFormat` and `userInfo` are used. The XML format is written
  ///   exactly as upstream writes it (see ``plist``); other formats come from the encoder itself
  ///   and are stored as text with invalid UTF-8 replaced, so prefer `.xml`. In the XML format a
  ///   value nested more than 1,000 levels deep fails the assertion.
  public static func plist(_ encoder: PropertyListEncoder) -> Snapshotting {
    var strategy = SimplySnapshotting<String>.lines.pullback { (value: Value) in
      guard encoder.outputFormat == .xml else {
        return encodedText(of: value, format: "property list") { try encoder.encode($0) }
      }
      let treeEncoder = PropertyListTreeEncoder(userInfo: encoder.userInfo)
      do {
        guard let document = PropertyListXMLWriter.document(for: try treeEncoder.encode(value))
        else {
          return UnavailableSnapshot.report(
            """
            The value is nested more than \(PropertyListXMLWriter.maximumDepth) levels deep, \
            deeper than .plist writes. Snapshot a shallower view of it.
            """
          )
        }
        return document
      } catch {
        return UnavailableSnapshot.report(
          "Could not encode \(type(of: value)) as property list: \(error)"
        )
      }
    }
    strategy.pathExtension = "plist"
    return strategy
  }
}

/// Upstream declares a `PropertyListEncoder` of its own in this module, so code written for it
/// may spell `SnapshotTesting.PropertyListEncoder()`. Here it is Foundation's encoder.
public typealias PropertyListEncoder = Foundation.PropertyListEncoder

/// The text `.json` records for `value`: pretty-printed with sorted keys, or a line that says why
/// encoding failed (reported as the snapshot's failure). The one place that text is made, shared
/// with the modules that print JSON as `.json` does (`.http`'s JSON bodies), so the two cannot
/// drift apart and no module has to run a strategy as a function to get it.
package func prettyJSONText<Value: Encodable>(of value: Value) -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
  return encodedText(of: value, format: "JSON") { try encoder.encode($0) }
}

/// The encoded bytes as text, or a line that says why encoding failed: a snapshot cannot throw,
/// and a reference that names the error fails the test readably instead of crashing it.
func encodedText<Value>(
  of value: Value,
  format: String,
  encode: (Value) throws -> Data
) -> String {
  do {
    return String(decoding: try encode(value), as: UTF8.self)
  } catch {
    return UnavailableSnapshot.report("Could not encode \(type(of: value)) as \(format): \(error)")
  }
}
