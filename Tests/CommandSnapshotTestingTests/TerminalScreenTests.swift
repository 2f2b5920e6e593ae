import Foundation
import Testing

@testable import CommandSnapshotTesting

/// `.terminal` draws the screen a terminal would show: each sequence programs use for progress
/// and redraws, on its own.
@Suite struct TerminalScreenTests {
  func rows(_ output: String, columns: Int = 80, height: Int = 24) -> [String] {
    TerminalTmuxTests.screen(output, columns: columns, height: height).map(\.text)
  }

  func svg(_ output: String) -> String {
    var terminal = TerminalSVG()
    terminal.addOutput(Array(output.utf8))
    return terminal.document()
  }

  @Test func aProgressBarClearedWithEraseInLineShowsOnlyItsLastState() {
    let text = svg("loading 10%\r\u{1B}[Kloading 100%\r\u{1B}[Kdone\n")
    #expect(text.contains(">done</text>"))
    #expect(!text.contains("loading"))
  }

  @Test func cursorMovesRedrawEarlierRows() {
    #expect(rows("one\ntwo\n\u{1B}[2A\u{1B}[Kuno\n") == ["uno", "two"])
    #expect(rows("\u{1B}[2;3HX") == ["", "  X"])
    #expect(rows("\u{1B}[3;5fX") == ["", "", "    X"])
    #expect(rows("abcdef\u{1B}[3D\u{1B}[KX") == ["abcX"])
    #expect(rows("ab\u{1B}[6GZ\u{1B}[2C!") == ["ab   Z  !"])
    #expect(rows("a\nb\nc\u{1B}[2Fx\u{1B}[Ey") == ["x", "y", "c"])
    #expect(rows("a\n\n\u{1B}[2d\u{1B}[3Cz") == ["a", "   z"])
    // Moves stop at the screen's edges.
    #expect(rows("\u{1B}[9Aup\u{1B}[999Cx", columns: 10) == ["up       x"])
  }

  @Test func eraseInLineAndInDisplay() {
    #expect(rows("hello\u{1B}[3D\u{1B}[1K!") == ["  !lo"])
    #expect(rows("one\u{1B}[2Ktwo") == ["   two"])
    #expect(rows("a\nb\nc\u{1B}[2;1H\u{1B}[J") == ["a"])
    #expect(rows("a\nbb\nc\u{1B}[2;1H\u{1B}[1J") == ["", " b", "c"])
    #expect(rows("a\nb\u{1B}[2Jc") == ["", " c"])
    #expect(rows("abcdef\u{1B}[4G\u{1B}[2X") == ["abc  f"])
    #expect(rows("abcdef\u{1B}[2G\u{1B}[2P") == ["adef"])
    #expect(rows("abcdef\u{1B}[2G\u{1B}[2@") == ["a  bcdef"])
  }

  @Test func savedCursorsAreRestored() {
    #expect(rows("ab\u{1B}7cd\u{1B}8X") == ["abXd"])
    #expect(rows("ab\u{1B}[scd\u{1B}[uX") == ["abXd"])
    // The style is saved with the cursor.
    let cells = TerminalTmuxTests.screen(
      "\u{1B}[31m\u{1B}7\u{1B}[0m\u{1B}8r", columns: 80, height: 24)
    #expect(cells[0].cells[0].style.foreground == .indexed(1))
  }

  @Test func aLineWrapsWhenTheCharacterAfterTheLastColumnArrives() {
    #expect(rows("abcde", columns: 5) == ["abcde"])
    #expect(rows("abcde\r\n", columns: 5) == ["abcde"])
    #expect(rows("abcdef", columns: 5) == ["abcde", "f"])
    // A carriage return at the last column stays on the row.
    #expect(rows("abcde\rX", columns: 5) == ["Xbcde"])
  }

  /// The decision: everything printed is kept, and redraws act on the final screen only.
  @Test func outputPastTheBottomScrollsAndEveryRowIsKept() {
    let lines = (1...30).map(String.init).joined(separator: "\n")
    let drawn = rows(lines + "\u{1B}[1;1HX", height: 24)
    #expect(drawn.count == 30)
    #expect(drawn[0] == "1")
    // Row 1 of the final screen is the seventh line.
    #expect(drawn[6] == "X")
    #expect(drawn[29] == "30")
  }

  @Test func stylesAreKeptPerCell() {
    let row = TerminalTmuxTests.screen("\u{1B}[31mred\u{1B}[0m\rR", columns: 80, height: 24)[0]
    #expect(row.text == "Red")
    #expect(row.cells[0].style == .plain)
    #expect(row.cells[1].style.foreground == .indexed(1))
    #expect(row.cells[2].style.foreground == .indexed(1))
  }

  @Test func charactersTakeTheirTerminalWidth() {
    // Wide characters take two cells.
    #expect(TerminalTmuxTests.screen("中x", columns: 80, height: 24)[0].cells.count == 3)
    // A family emoji is one two-cell glyph, not five cells.
    let family = TerminalTmuxTests.screen(
      "👨\u{200D}👩\u{200D}👧|", columns: 80, height: 24)[0]
    #expect(family.cells.count == 3)
    #expect(family.text == "👨\u{200D}👩\u{200D}👧|")
    // Combining marks and variation selectors join the character before them.
    #expect(TerminalTmuxTests.screen("e\u{301}|", columns: 80, height: 24)[0].cells.count == 2)
    #expect(TerminalTmuxTests.screen("❤\u{FE0F}|", columns: 80, height: 24)[0].cells.count == 2)
    // A mark with nothing before it is dropped.
    #expect(rows("\u{301}x") == ["x"])
    // A wide character that does not fit in the last column goes to the next row.
    #expect(rows("abcd中", columns: 5) == ["abcd", "中"])
    // Overwriting half of a wide character blanks its other half.
    #expect(rows("中文\rx") == ["x 文"])
  }

  @Test func aWideCharacterIsDrawnOverTwoCells() {
    let text = svg("中x\n")
    #expect(text.contains(##"<text x="10" y="24" textLength="25.2" fill="#d0d0d0">中x</text>"##))
  }

  /// The exit status goes after the last row drawn on, even when the cursor went back up.
  @Test func theStatusFollowsTheLastRowDrawn() {
    var terminal = TerminalSVG()
    terminal.addAnnotation("$ tool")
    terminal.addOutput(Array("one\ntwo\n\u{1B}[2A".utf8))
    terminal.addAnnotation("[exit 0]")
    let text = terminal.document()
    #expect(text.contains(##"y="78" textLength="67.2" fill="#8a8a8a">[exit 0]</text>"##))
  }
}
