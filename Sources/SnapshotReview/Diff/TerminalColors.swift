import Foundation

/// ANSI colours for `review`'s diffs: removed lines red, added green, and the words that changed
/// in a paired line reversed. Only when standard output is a terminal and `NO_COLOR` is unset
/// (or empty), as no-color.org asks.
package enum TerminalColors {
  /// Whether to colour: `isTerminal` and no non-empty `NO_COLOR`.
  package static func enabled(isTerminal: Bool, environment: [String: String]) -> Bool {
    isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
  }

  /// For the process: standard output and the environment.
  package static var enabledForStandardOutput: Bool {
    enabled(
      isTerminal: isatty(STDOUT_FILENO) != 0,
      environment: ProcessInfo.processInfo.environment
    )
  }

  static let red = "\u{1B}[31m"
  static let green = "\u{1B}[32m"
  static let cyan = "\u{1B}[36m"
  static let reverse = "\u{1B}[7m"
  static let noReverse = "\u{1B}[27m"
  static let reset = "\u{1B}[0m"

  /// `patch` coloured line by line, with the changed words of paired lines reversed.
  static func colour(_ patch: String) -> String {
    let paired = PairedPatch(PatchLine.parse(patch))
    return paired.lines.enumerated().map { index, line in
      switch line {
      case .hunk(let text): return cyan + text + reset
      case .context(let text): return text
      case .removed(let text), .added(let text):
        let colour = { if case .removed = line { return red } else { return green } }()
        guard let words = paired.words[index] else { return colour + text + reset }
        let body = words.map { $0.changed ? reverse + $0.text + noReverse : $0.text }.joined()
        return colour + String(text.prefix(1)) + body + reset
      }
    }.joined(separator: "\n") + (patch.hasSuffix("\n") ? "\n" : "")
  }
}
