import Foundation
import Testing

@testable import WebSnapshotTesting

/// `DevToolsProtocol` lists every DevTools method the module's code names, and nothing more.
struct DevToolsProtocolTests {
  /// The module's Swift files, by path relative to its folder, without the list itself.
  static func moduleSources() throws -> [String: String] {
    let module = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/WebSnapshotTesting")
    let paths = FileManager.default.enumerator(atPath: module.path)?.allObjects as? [String] ?? []
    var sources: [String: String] = [:]
    for path in paths where path.hasSuffix(".swift") && !path.hasSuffix("DevToolsProtocol.swift") {
      sources[path] = try String(
        contentsOf: module.appendingPathComponent(path),
        encoding: .utf8
      )
    }
    return sources
  }

  /// Every `"Domain.method"` string literal of `sources`, with the files that spell it.
  static func namedMethods(in sources: [String: String]) -> [String: [String]] {
    let literal = /"([A-Z][A-Za-z]+\.[a-z][A-Za-z]+)"/
    var found: [String: [String]] = [:]
    for (path, text) in sources {
      for match in text.matches(of: literal) {
        found[String(match.output.1), default: []].append(path)
      }
    }
    return found
  }

  /// The methods of `sources` that the list lacks, and the listed ones no source names.
  static func differences(
    _ sources: [String: String]
  ) -> (unlisted: [String], unused: [String]) {
    let named = namedMethods(in: sources)
    let listed = DevToolsProtocol.commands.union(DevToolsProtocol.events)
    let unlisted = named.keys.filter { !listed.contains($0) }.sorted().map {
      "\($0) (\(named[$0]!.sorted().joined(separator: ", ")))"
    }
    return (unlisted, listed.subtracting(named.keys).sorted())
  }

  @Test func everyMethodTheModuleNamesIsListedAndEveryListedOneIsNamed() throws {
    let sources = try Self.moduleSources()
    #expect(sources.count > 10, "the module's sources were not found: \(sources.keys)")
    let (unlisted, unused) = Self.differences(sources)
    #expect(unlisted.isEmpty, "not in DevToolsProtocol: \(unlisted)")
    #expect(unused.isEmpty, "listed in DevToolsProtocol but never named: \(unused)")
  }

  @Test func aMethodOutsideTheListIsFound() throws {
    var sources = try Self.moduleSources()
    sources["Page/New.swift"] = #"_ = try await session.send("Page.reload")"#
    #expect(Self.differences(sources).unlisted == ["Page.reload (Page/New.swift)"])
  }

  @Test func commandsAndEventsAreApart() {
    #expect(DevToolsProtocol.commands.isDisjoint(with: DevToolsProtocol.events))
  }
}
