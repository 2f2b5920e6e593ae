import Foundation

/// Values shared by the redaction tests of both frameworks.
enum JSONRedactionFixtures {
  struct Response: Encodable {
    struct Item: Encodable {
      var createdAt: Date
      var name: String
    }
    struct Meta: Encodable {
      var requestID: String
      var page: Int
    }
    var id: Int
    var items: [Item]
    var meta: Meta
  }

  static let response = Response(
    id: 42,
    items: [
      .init(createdAt: Date(timeIntervalSince1970: 1_700_000_000), name: "Blob"),
      .init(createdAt: Date(timeIntervalSince1970: 1_700_000_100), name: "Blob Jr."),
    ],
    meta: .init(requestID: "8C1F-4E2A", page: 1)
  )

  static let spelling = ["id", "items[*].createdAt", "meta.requestID"]

  static let topLevelArray = [Response.Item(createdAt: Date(timeIntervalSince1970: 0), name: "a")]

  /// About `megabytes` MB of pretty-printed JSON: many small items.
  static func largeDocument(megabytes: Int) -> [String: [Response.Item]] {
    let item = Response.Item(createdAt: Date(timeIntervalSince1970: 1), name: "0123456789abcdef")
    return ["items": Array(repeating: item, count: megabytes * 1_000_000 / 50)]
  }

  /// One string of `megabytes` MB, with characters the encoder escapes.
  static func largeString(megabytes: Int) -> [String: String] {
    ["id": "1", "text": String(repeating: "a/\"é\n", count: megabytes * 1_000_000 / 8)]
  }

  /// Compact JSON with sorted keys, as text.
  static func compactJSON(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}
