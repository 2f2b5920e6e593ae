// What the documentation's code examples use without declaring it: the user's own types and
// values. An example that declares one of these names shadows it. Only
// `scripts/check-doc-examples.sh` builds this (SNAPSHOT_TESTING_DOC_EXAMPLES). It depends on no
// product, so that an example sees only the products its article installs; the image values are
// in `DocExampleImageFixtures`.

import Foundation

public struct User: Codable, Sendable {
  public var id: Int
  public var name: String
  public var bio: String
  public init(id: Int, name: String, bio: String = "") {
    self.id = id
    self.name = name
    self.bio = bio
  }
}

public var user: User { User(id: 1, name: "Blob", bio: "Blobbed around the world.") }

public struct Response: Codable, Sendable {
  public var id: UUID
  public var createdAt: Date
}

public var response: Response { Response(id: UUID(), createdAt: Date()) }

/// Text a test snapshots: a log, a report, a page.
public var log: String { "GET /users took 12 ms" }
public var report: String { "3 orders, 1 refund" }
public var summary: String { "Résumé" }
public var about: String { "Version 1.0 (build 42)" }
public var animation: String { "frame 1" }
public var csvExport: String { "id,name\n1,Blob" }

extension String {
  /// A report's first line.
  public var summary: String { String(split(separator: "\n").first ?? "") }
}

public enum AppInfo {
  public static let buildNumber = "42"
}

public func greeting(for name: String) -> String { "Hello, \(name)!" }

/// Renders asynchronously, calling back with its log.
public struct Renderer: Sendable {
  public init() {}
  public func render(_ completion: @escaping (String) -> Void) { completion("rendered") }
}

public enum Direction: CaseIterable, CustomStringConvertible, Sendable {
  case up, right, down, left
  public var rotatedLeft: Direction {
    switch self {
    case .up: .left
    case .left: .down
    case .down: .right
    case .right: .up
    }
  }
  public var description: String {
    switch self {
    case .up: "up"
    case .right: "right"
    case .down: "down"
    case .left: "left"
    }
  }
}
