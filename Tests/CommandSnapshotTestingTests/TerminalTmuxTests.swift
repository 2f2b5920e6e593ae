import Foundation
import Testing

@testable import CommandSnapshotTesting

/// `.terminal`'s screen against a real terminal: seeded, generated outputs (progress bars,
/// cursor moves, erases, saving the cursor, wide characters, emoji sequences, combining marks,
/// styles, long lines and scrolling) are drawn by ``TerminalScreen`` and by tmux, which `cat`s
/// them into a pane of the same size; every row's text and every written cell's style must
/// agree, the rows scrolled into tmux's history included.
@Suite(.serialized) struct TerminalTmuxTests {
  static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  static let onCI = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } == true

  @Test(
    .enabled(
      if: tmux != nil || onCI,
      "tmux is not installed (apt-get install tmux): no comparison with a real terminal"
    ),
    arguments: [(80, 24), (20, 6), (11, 4)]
  )
  func generatedOutputsDrawAsTmuxDrawsThem(columns: Int, height: Int) throws {
    let tmux = try #require(Self.tmux, "tmux is needed on CI: apt-get install tmux")
    var generator = OutputGenerator(seed: UInt64(columns * 1000 + height))
    for _ in 0..<12 {
      let output = generator.output(pieces: 60, height: height)
      let ours = Self.screen(output, columns: columns, height: height)
      let theirs = try Self.tmuxCapture(tmux, output, columns: columns, height: height)
      let oursText = Self.trimmed(ours.map(\.text))
      let theirsText = Self.trimmed(theirs.map(\.text))
      #expect(oursText == theirsText, "\(columns)×\(height) output: \(output.debugDescription)")
      guard oursText == theirsText else { return }
      let mismatch = zip(ours, theirs).enumerated().lazy.compactMap { row, pair in
        zip(pair.0.cells, pair.1.cells).enumerated().first { _, cells in
          cells.0.scalar != " " && cells.0.width > 0 && cells.0.style != cells.1.style
        }.map { (row, $0.offset, $0.element.0.style, $0.element.1.style) }
      }.first
      #expect(mismatch == nil, "\(String(describing: mismatch)): \(output.debugDescription)")
    }
  }

  /// The progress bar of the issue: a terminal shows `done`, not `doneloading 100%`.
  @Test func aProgressLineClearedWithEraseShowsItsLastState() {
    let rows = Self.screen("loading 100%\r\u{1B}[Kdone\n", columns: 80, height: 24)
    #expect(rows.map(\.text) == ["done"])
  }

  /// Rows of a screen that takes the output, the scrolled-out ones first.
  static func screen(_ output: String, columns: Int, height: Int) -> [TerminalScreen.Row] {
    var screen = TerminalScreen(columns: columns, height: height)
    feed(Array(output.utf8), to: &screen)
    return screen.allRows
  }

  static func feed(_ bytes: [UInt8], to screen: inout TerminalScreen) {
    EscapeSequenceScanner.scan(
      bytes.span,
      text: { screen.write(String(decoding: bytes[$0], as: UTF8.self).unicodeScalars) },
      sgr: { screen.style.apply($0) },
      control: { screen.control($0, $1) },
      shortEscape: { screen.escape($0) }
    )
  }

  static func trimmed(_ rows: [String]) -> [String] {
    var rows = rows
    while rows.last == "" { rows.removeLast() }
    return rows
  }

  /// The rows tmux shows after `cat` of the output, with their styles (`capture-pane -e`, read
  /// back through a wide screen of our own, one row at a time).
  static func tmuxCapture(
    _ tmux: String,
    _ output: String,
    columns: Int,
    height: Int
  ) throws -> [TerminalScreen.Row] {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("tmux-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("output")
    try Data(output.utf8).write(to: input)
    let configuration = folder.appendingPathComponent("tmux.conf")
    // The whole history, and a full clear that erases rather than scrolls the screen away.
    try Data("set -g history-limit 100000\nset -g scroll-on-clear off\nset -g status off\n".utf8)
      .write(to: configuration)
    let socket = folder.appendingPathComponent("socket").path
    let channel = "drawn-\(UUID().uuidString)"
    defer { _ = try? run(tmux, captured: false, ["-S", socket, "kill-server"]) }
    try startServer(
      tmux,
      [
        "-u", "-S", socket, "-f", configuration.path, "new-session", "-d", "-x", "\(columns)",
        "-y", "\(height)",
        "cat '\(input.path)'; '\(tmux)' wait-for -S \(channel); sleep 60",
      ]
    )
    // Under load the server can take many seconds to start the pane's command; a short wait
    // captured an empty pane once. What tmux drew is only read once the command says so.
    let waited = try run(
      "/bin/sh",
      ["-c", "timeout 180 \"$0\" -S \"$1\" wait-for \"$2\"; echo $?", tmux, socket, channel])
    try #require(
      waited.trimmingCharacters(in: .whitespacesAndNewlines) == "0",
      "tmux did not draw the output within 180 s (wait-for ended with \(waited))")
    let captured = try run(tmux, ["-S", socket, "capture-pane", "-p", "-e", "-S", "-", "-E", "-"])
    // One stream: a style runs on from one captured line to the next.
    let lines = captured.split(separator: "\n", omittingEmptySubsequences: false).count
    var screen = TerminalScreen(columns: 4 * columns, height: lines + 1)
    feed(Array(captured.utf8), to: &screen)
    return screen.allRows
  }

  /// Runs the tmux client that starts the server with `posix_spawn` and `waitpid`: `Process`
  /// waits on a descriptor its child inherits, which the daemonised server would hold open until
  /// it ends.
  static func startServer(_ tmux: String, _ arguments: [String]) throws {
    let argv = ([tmux] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var environment = ProcessInfo.processInfo.environment
    environment["LANG"] = "C.UTF-8"
    environment["TMUX"] = nil
    let envp = environment.map { strdup("\($0)=\($1)") } + [nil]
    defer { envp.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, tmux, &actions, nil, argv, envp)
    try #require(spawned == 0, "could not start \(tmux): error \(spawned)")
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
  }

  @discardableResult
  static func run(
    _ executable: String,
    captured: Bool = true,
    _ arguments: [String]
  ) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["LANG"] = "C.UTF-8"
    environment["TMUX"] = nil
    process.environment = environment
    process.standardError = FileHandle.nullDevice
    guard captured else {
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      return ""
    }
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}

/// Outputs made of what programs print when they draw progress and redraw lines, from a seed.
struct OutputGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  /// SplitMix64.
  mutating func next(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
  }

  static let words = [
    "loading", "done", "[####      ] 42%", "ok", "中文", "かな", "😀", "👍🏽",
    "👨\u{200D}👩\u{200D}👧", "e\u{301}", "❤\u{FE0F}", "✓", "x",
    "a long line that certainly wraps on a narrow screen and on a wide one too " + "-----",
  ]

  mutating func output(pieces: Int, height: Int) -> String {
    self.pieces(pieces, height: height).joined()
  }

  mutating func pieces(_ pieces: Int, height: Int) -> [String] {
    var all: [String] = []
    for _ in 0..<pieces { all.append(piece(height: height)) }
    return all + ["\u{1B}[0m"]
  }

  mutating func piece(height: Int) -> String {
    var output = ""
    do {
      let n = next(4) + 1
      switch next(22) {
      case 0...5: output += Self.words[next(Self.words.count)]
      case 6: output += "\n"
      case 7: output += "\r"
      case 8: output += "\r\u{1B}[K"
      case 9: output += "\u{1B}[\(n)\(["A", "B", "C", "D", "E", "F"][next(6)])"
      case 10: output += "\u{1B}[\(next(12) + 1)G"
      case 11: output += "\u{1B}[\(next(height) + 1);\(next(12) + 1)\(next(2) == 0 ? "H" : "f")"
      case 12: output += "\u{1B}[\(next(height) + 1)d"
      case 13: output += "\u{1B}[\(next(3))K"
      case 14: output += "\u{1B}[\(next(3))J"
      case 15: output += ["\u{1B}7", "\u{1B}8", "\u{1B}[s", "\u{1B}[u"][next(4)]
      case 16:
        output += [
          "\u{1B}[31m", "\u{1B}[1m", "\u{1B}[4m", "\u{1B}[7m", "\u{1B}[0m",
          "\u{1B}[38;5;208m", "\u{1B}[48;2;10;20;30m", "\u{1B}[92;3m", "\u{1B}[m",
        ][next(9)]
      case 17: output += "\t"
      case 18: output += "\u{8}"
      case 19: output += "\u{1B}[\(n)X"
      case 20: output += "\u{1B}[\(n)P"
      default: output += "\u{1B}[\(n)@"
      }
    }
    return output
  }
}
