import Foundation

extension Snapshotting where Value: Encodable, Format == String {
  /// Snapshots an encodable value as ``json-745rx``, with the values the selectors match replaced by a
  /// placeholder that names their JSON type, in a `.json` reference.
  ///
  /// ```swift
  /// assertSnapshot(
  ///   of: response,
  ///   as: .json(redacting: ["id", "items[*].createdAt", "meta.requestID"])
  /// )
  /// ```
  ///
  /// records, where `.json` would record the values themselves:
  ///
  /// ```json
  /// {
  ///   "id" : "[redacted number]",
  ///   "items" : [
  ///     {
  ///       "createdAt" : "[redacted number]",
  ///       "name" : "Blob"
  ///     }
  ///   ],
  ///   "meta" : {
  ///     "requestID" : "[redacted string]"
  ///   }
  /// }
  /// ```
  ///
  /// Every other byte is the same as ``json-745rx``'s. A selector is a key (`id`), a path (`a.b.c`), an
  /// index (`items[0]`), every index (`items[*]`), any depth (`**.token`) or a quoted key
  /// (`headers["x.request-id"]`); see <doc:Redaction>. A selector with a syntax error, or one that matches nothing,
  /// fails the assertion with a message naming it, and nothing is recorded.
  ///
  /// - Parameter selectors: The values to redact.
  /// - Complexity: O(*n* × *p*) for a JSON text of *n* bytes and selectors of *p* components.
  @available(iOS 11.0, macOS 10.13, tvOS 11.0, watchOS 4.0, *)
  public static func json(redacting selectors: [String]) -> Snapshotting {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return .json(encoder, redacting: selectors)
  }

  /// Snapshots an encodable value as the given encoder writes it, with the values the selectors
  /// match replaced by placeholders, in a `.json` reference.
  ///
  /// ```swift
  /// let encoder = JSONEncoder()
  /// encoder.dateEncodingStrategy = .iso8601
  /// assertSnapshot(of: event, as: .json(encoder, redacting: ["**.createdAt"]))
  /// ```
  ///
  /// - Parameters:
  ///   - encoder: The encoder, used as configured.
  ///   - selectors: The values to redact (see ``json(redacting:)-wn7r``).
  public static func json(_ encoder: JSONEncoder, redacting selectors: [String]) -> Snapshotting {
    let redaction = JSONRedaction(selectors)
    var strategy = SimplySnapshotting<String>.lines.pullback { (value: Value) in
      do {
        return redaction.apply(to: String(decoding: try encoder.encode(value), as: UTF8.self))
      } catch {
        return UnavailableSnapshot.report("Could not encode \(type(of: value)) as JSON: \(error)")
      }
    }
    strategy.pathExtension = "json"
    return strategy
  }
}

@available(macOS 10.13, watchOS 4.0, tvOS 11.0, *)
extension Snapshotting where Format == String {
  /// Snapshots a Foundation JSON object as ``json-9cu20``, with the values the selectors match replaced
  /// by a placeholder that names their JSON type, in a `.json` reference.
  ///
  /// ```swift
  /// let object = try JSONSerialization.jsonObject(with: responseBody)
  /// assertSnapshot(of: object, as: .json(redacting: ["[*].id"]))
  /// ```
  ///
  /// Every other byte is the same as ``json-9cu20``'s. A selector with a syntax error, one that matches
  /// nothing, or a value `JSONSerialization` cannot write fails the assertion, which records
  /// nothing.
  ///
  /// - Parameter selectors: The values to redact (see <doc:Redaction>).
  /// - Complexity: O(*n* × *p*) for a JSON text of *n* bytes and selectors of *p* components.
  public static func json(redacting selectors: [String]) -> Snapshotting {
    let redaction = JSONRedaction(selectors)
    var strategy = SimplySnapshotting<String>.lines.pullback { (value: Value) in
      guard JSONSerialization.isValidJSONObject(value) else {
        return UnavailableSnapshot.report("Not a valid JSON object: \(String(describing: value))")
      }
      do {
        let data = try JSONSerialization.data(
          withJSONObject: value,
          options: [.prettyPrinted, .sortedKeys]
        )
        return redaction.apply(to: String(decoding: data, as: UTF8.self))
      } catch {
        return UnavailableSnapshot.report("Could not encode \(type(of: value)) as JSON: \(error)")
      }
    }
    strategy.pathExtension = "json"
    return strategy
  }
}
