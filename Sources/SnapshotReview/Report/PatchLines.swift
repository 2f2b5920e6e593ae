/// A line of a unified diff as this package prints it, classified for colouring.
enum PatchLine: Equatable {
  case hunk(String)
  case removed(String)
  case added(String)
  case context(String)

  /// Splits `patch` into lines: `@@ −a,b +c,d @@` headers, removed lines (`−`, U+2212, or an
  /// ASCII `-` from other tools), added lines (`+`) and context.
  ///
  /// - Complexity: O(n) in the length of `patch`.
  static func parse(_ patch: String) -> [PatchLine] {
    var lines = patch.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines.map { line in
      if line.hasPrefix("@@") { return .hunk(line) }
      switch line.first {
      case "\u{2212}", "-": return .removed(line)
      case "+": return .added(line)
      default: return .context(line)
      }
    }
  }
}
