import Foundation
import RunRecord

/// The values that changed between two JSON or property-list documents, by path, computed from
/// the documents themselves rather than from their diff:
///
/// ```
/// $.items[2].price: 12.5 → 13
/// $.user.email: added
/// ```
enum StructuredSummary {
  /// The formats it reads.
  enum Format {
    case json
    case propertyList
  }

  /// The most changes listed; the rest are counted.
  static let maximumChanges = 50

  /// The format a path extension names, if it is one this summary reads.
  static func format(forPathExtension pathExtension: String?) -> Format? {
    switch pathExtension?.lowercased() {
    case "json": return .json
    case "plist": return .propertyList
    default: return nil
    }
  }

  /// The changes from `old` to `new`, or `nil` when either is not a valid document of `format`
  /// (the diff is then all there is).
  ///
  /// - Complexity: O(*n*) in the number of values of both documents.
  static func changes(from old: Data, to new: Data, format: Format) -> [String]? {
    guard let before = parse(old, format), let after = parse(new, format) else { return nil }
    return changes(between: before, and: after)
  }

  private static func parse(_ data: Data, _ format: Format) -> Any? {
    switch format {
    case .json:
      return try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    case .propertyList:
      return try? SystemCalls.propertyList(from: data)
    }
  }

  /// One step of a value's path from the root: a member or an index.
  private enum Step {
    case key(String)
    case index(Int)

    var text: String {
      switch self {
      case .key(let key): StructuredSummary.member(key)
      case .index(let index): "[\(index)]"
      }
    }
  }

  /// A pair of values still to compare, at `depth` steps below the root (`nil` on the side
  /// where it is missing).
  private struct Pending {
    var depth: Int
    var step: Step?
    var old: Any?
    var new: Any?
  }

  /// The changes from `old` to `new`, two parsed documents, in path order: members by key,
  /// items by index.
  ///
  /// Walks with a stack of its own, never recursing, so a document as deep as memory allows is
  /// compared; a path is spelled only for a change that is listed.
  ///
  /// - Complexity: O(*n* log *n*) in the number of values of both documents (members are sorted),
  ///   plus O(*d*) for each listed change at depth *d*.
  static func changes(between old: Any, and new: Any) -> [String] {
    var changes: [String] = []
    var omitted = 0
    // The steps from the root to the pair being compared.
    var path: [Step] = []
    // The path as far as it has been spelled (`spelledEnds` holds where each step's text ends),
    // so that a deep path is spelled once, not again for each change under it.
    var spelled = Array("$".utf8)
    var spelledEnds: [Int] = []
    func note(_ change: String) {
      guard changes.count < maximumChanges else {
        omitted += 1
        return
      }
      for step in path[spelledEnds.count...] {
        spelled.append(contentsOf: step.text.utf8)
        spelledEnds.append(spelled.count)
      }
      changes.append(String(decoding: spelled, as: UTF8.self) + change)
    }
    // Last in, first out: children are pushed in reverse so they come out in path order.
    var pending = [Pending(depth: 0, step: nil, old: old, new: new)]
    while let pair = pending.popLast() {
      let kept = max(pair.depth - 1, 0)
      path.removeLast(path.count - kept)
      if spelledEnds.count > kept {
        spelledEnds.removeLast(spelledEnds.count - kept)
        spelled.removeLast(spelled.count - (spelledEnds.last ?? 1))
      }
      if let step = pair.step { path.append(step) }
      guard let old = pair.old else {
        note(": added")
        continue
      }
      guard let new = pair.new else {
        note(": removed")
        continue
      }
      let depth = pair.depth + 1
      switch (old, new) {
      case (let a as [String: Any], let b as [String: Any]):
        for key in Set(a.keys).union(b.keys).sorted(by: >) {
          pending.append(Pending(depth: depth, step: .key(key), old: a[key], new: b[key]))
        }
      case (let a as [Any], let b as [Any]):
        for index in (0..<max(a.count, b.count)).reversed() {
          pending.append(
            Pending(
              depth: depth,
              step: .index(index),
              old: index < a.count ? a[index] : nil,
              new: index < b.count ? b[index] : nil
            )
          )
        }
      default:
        let (before, after) = (render(old), render(new))
        if before != after { note(": \(before) → \(after)") }
      }
    }
    if omitted > 0 { changes.append("… \(omitted) more") }
    return changes
  }

  /// `.name` for a key that reads as an identifier, else `["key"]`.
  private static func member(_ key: String) -> String {
    let identifier =
      key.first.map { $0.isLetter || $0 == "_" } == true
      && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    return identifier ? ".\(key)" : "[\(quoted(key))]"
  }

  /// A leaf as JSON would write it; a container as `{…}` or `[…]`.
  private static func render(_ value: Any) -> String {
    switch value {
    case is [String: Any]: return "{…}"
    case is [Any]: return "[…]"
    case is NSNull: return "null"
    case let text as String: return quoted(text)
    case let date as Date: return ISO8601DateFormatter().string(from: date)
    case let data as Data: return "<\(data.count) bytes>"
    default: break
    }
    if type(of: value) == Bool.self, let flag = value as? Bool { return flag ? "true" : "false" }
    if let number = value as? NSNumber {
      // Foundation's booleans are its two shared `NSNumber`s, which no other number is.
      if number === NSNumber(value: true) { return "true" }
      if number === NSNumber(value: false) { return "false" }
      return number.stringValue
    }
    return "\(value)"
  }

  private static func quoted(_ text: String) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
    return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
  }
}

extension PendingFailure {
  /// The largest document summarised: 16 MiB a side.
  static let maximumSummarizedSize = 16 << 20

  /// The changed values by path, for a mismatch of a JSON or property-list snapshot (an inline
  /// one whose texts are both JSON too); `nil` for other formats or when either side does not
  /// parse.
  package var structuredChanges: [String]? {
    guard record.reason == .mismatch else { return nil }
    if isInline {
      guard let old = record.inline?.expected, let new = record.inline?.actual,
        [old, new].allSatisfy({
          ["{", "["].contains($0.trimmingCharacters(in: .whitespaces).first)
        })
      else { return nil }
      return StructuredSummary.changes(from: Data(old.utf8), to: Data(new.utf8), format: .json)
    }
    guard let format = StructuredSummary.format(forPathExtension: record.pathExtension),
      let referenceURL, let old = Self.boundedContents(of: referenceURL),
      let new = Self.boundedContents(of: failedSnapshotURL)
    else { return nil }
    return StructuredSummary.changes(from: old, to: new, format: format)
  }

  private static func boundedContents(of url: URL) -> Data? {
    guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: maximumSummarizedSize + 1),
      data.count <= maximumSummarizedSize
    else { return nil }
    return data
  }
}
