import Foundation
import TestSupport
import SnapshotTesting
import Testing

@testable import CommandSnapshotTesting

/// `.terminal`: the colour run of a command, as a deterministic SVG.
@Suite struct TerminalTests {
  func svg(_ output: String) -> String {
    var terminal = TerminalSVG()
    terminal.addOutput(Array(output.utf8))
    return terminal.document()
  }

  @Test func colouredOutput() {
    assertSnapshot(of: fixtureCommand("colors"), as: .terminal)
  }

  @Test func theSameOutputGivesTheSameBytes() {
    let first = snapshotText(fixtureCommand("colors"), as: .terminal)
    let second = snapshotText(fixtureCommand("colors"), as: .terminal)
    #expect(first.failure == nil)
    #expect(first.text == second.text)
  }

  @Test func itRunsAsAColourTerminal() {
    var command = fixtureCommand(
      "env", "NO_COLOR", "TERM", "COLUMNS", "CLICOLOR_FORCE", "FORCE_COLOR")
    command.environment["NO_COLOR"] = "1"
    command.environment["TERM"] = "dumb"
    let text = snapshotText(command, as: .terminal).text
    #expect(text.contains(">NO_COLOR=(unset)</text>"))
    #expect(text.contains(">TERM=xterm-256color</text>"))
    #expect(text.contains(">COLUMNS=80</text>"))
    // Output goes to a pipe, so programs that check `isatty` are asked to colour it anyway.
    #expect(text.contains(">CLICOLOR_FORCE=1</text>"))
    #expect(text.contains(">FORCE_COLOR=1</text>"))
  }

  @Test func theReferenceIsAnSVGFile() {
    let strategy = Snapshotting<Command, String>.terminal
    #expect(strategy.pathExtension == "svg")
    let text = snapshotText(fixtureCommand("greet"), as: strategy).text
    #expect(text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"692\" height=\"74\""))
    #expect(text.hasSuffix("</g>\n</svg>\n"))
  }

  @Test func basicColoursBoldItalicUnderline() {
    let text = svg("\u{1B}[1;31mA\u{1B}[0m\u{1B}[3;4;94mB\u{1B}[m")
    #expect(
      text.contains(
        ##"<text x="10" y="24" textLength="8.4" fill="#c62828" font-weight="bold">A</text>"##
      )
    )
    #expect(
      text.contains(
        ##"<text x="18.4" y="24" textLength="8.4" fill="#42a5f5" font-style="italic" "##
          + ##"text-decoration="underline">B</text>"##
      )
    )
  }

  @Test func colours256And24BitAndBackgrounds() {
    let text = svg("\u{1B}[38;5;208mo\u{1B}[38;5;244mg\u{1B}[48;2;255;105;180;38;5;21mp\u{1B}[0m")
    #expect(text.contains(##"fill="#ff8700">o</text>"##))
    #expect(text.contains(##"fill="#808080">g</text>"##))
    #expect(text.contains(##"<rect x="26.8" y="10" width="8.4" height="18" fill="#ff69b4"/>"##))
    #expect(text.contains(##"fill="#0000ff">p</text>"##))
  }

  /// ITU T.416's `:` form: its sub-parameters belong to the colour alone, with or without the
  /// colour-space field, and what follows is read on its own.
  @Test func coloursInTheColonForm() {
    let text = svg(
      "\u{1B}[38:2::255:105:180mr\u{1B}[38:2:0:128:255;1mg\u{1B}[0;48:5:208mb\u{1B}[0m"
    )
    #expect(text.contains(##"fill="#ff69b4">r</text>"##))
    #expect(text.contains(##"fill="#0080ff" font-weight="bold">g</text>"##))
    #expect(text.contains(##"<rect x="26.8" y="10" width="8.4" height="18" fill="#ff8700"/>"##))
    // A colour cut short, or out of range, is ignored, and takes nothing after it with it.
    let broken = svg("\u{1B}[38:2:1:2;1mx\u{1B}[0;38:5:300;3my")
    #expect(broken.contains(##"fill="#d0d0d0" font-weight="bold">x</text>"##))
    #expect(broken.contains(##"fill="#d0d0d0" font-style="italic">y</text>"##))
  }

  /// `4:0` ends the underline; `4:3` (a curly one) is drawn as an underline.
  @Test func underlineStylesInTheColonForm() {
    let text = svg("\u{1B}[4:3mu\u{1B}[4:0mn")
    #expect(text.contains(##"text-decoration="underline">u</text>"##))
    #expect(text.contains(##"fill="#d0d0d0">n</text>"##))
  }

  @Test func inverseSwapsTheColours() {
    let text = svg("\u{1B}[7mI\u{1B}[27m \u{1B}[7;32mJ")
    #expect(text.contains(##"<rect x="10" y="10" width="8.4" height="18" fill="#d0d0d0"/>"##))
    #expect(text.contains(##"fill="#1c1c1c">I</text>"##))
    #expect(text.contains(##"<rect x="26.8" y="10" width="8.4" height="18" fill="#2e7d32"/>"##))
  }

  @Test func textIsXMLEscaped() {
    let text = svg("<script>&\"x\"</script>")
    #expect(text.contains(">&lt;script&gt;&amp;\"x\"&lt;/script&gt;</text>"))
  }

  @Test func malformedAndNonSGRSequencesAreNeverEmitted() {
    let (text, failure) = snapshotText(fixtureCommand("escapes"), as: .terminal)
    #expect(failure == nil)
    #expect(!text.contains("\u{1B}"))
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    // `ESC[2K` erases the row as a terminal does; the other sequences draw nothing.
    #expect(text.contains(">   twothreefourfive</text>"))
    #expect(text.contains(">sixeveneightnine</text>"))
    // An escape cut in half at the end, and C0 controls, are dropped too.
    let raw = svg("a\u{1B}[3\u{7}b\u{1B}")
    #expect(!raw.contains("\u{1B}") && !raw.contains("\u{7}"))
    // A malformed colour sequence is ignored whole, as a terminal ignores it.
    #expect(svg("a\u{1B}[38;2;300;-1;0mb\n").contains(">ab</text>"))
  }

  @Test func aMalformedSequenceIsDroppedWholeFromTheImage() {
    let text = svg("a\u{1B}[38;2;300;-1;0mb\n")
    #expect(text.contains(">ab</text>"))
    #expect(!text.contains("0m"))
  }

  @Test func longLinesWrapAt80Columns() {
    let text = svg(String(repeating: "a", count: 85) + "\n")
    #expect(text.contains(##"y="24" textLength="672""##))
    #expect(text.contains(##"<text x="10" y="42" textLength="42" fill="#d0d0d0">aaaaa</text>"##))
  }

  @Test func carriageReturnOverwritesAndTabsAlign() {
    let text = svg("50%\r100%\n\tx\n")
    #expect(text.contains(">100%</text>"))
    #expect(!text.contains("50%"))
    // The tab's cells are spaces of the same style, so they are part of the run.
    #expect(
      text.contains(##"<text x="10" y="42" textLength="75.6" fill="#d0d0d0">        x</text>"##)
    )
  }

  @Test func aCharacterSplitByAnEscapeSurvives() {
    // "é" is C3 A9; an SGR sequence between its two bytes must not break it.
    var terminal = TerminalSVG()
    terminal.addOutput([0x41, 0xC3] + Array("\u{1B}[1m".utf8) + [0xA9, 0x0A])
    let text = terminal.document()
    #expect(text.contains("é</text>"), "\(text)")
    #expect(!text.contains("\u{FFFD}"))
  }

  @Test func invalidUTF8IsAReplacementCharacter() {
    var terminal = TerminalSVG()
    terminal.addOutput([0x41, 0xFF, 0x42, 0x0A])
    #expect(terminal.document().contains(">A\u{FFFD}B</text>"))
  }
}
