/// The fixed colours of the rendered terminal, so that the same output always gives the same SVG.
enum TerminalPalette {
  static let background = "#1c1c1c"
  static let foreground = "#d0d0d0"
  /// The prompt line and the exit status, which are not the program's output.
  static let annotation = "#8a8a8a"

  /// The 16 basic colours: black, red, green, yellow, blue, magenta, cyan, white, then their
  /// bright forms.
  static let basic = [
    "#000000", "#c62828", "#2e7d32", "#f9a825", "#1565c0", "#8e24aa", "#00838f", "#d0d0d0",
    "#5f5f5f", "#ef5350", "#66bb6a", "#ffee58", "#42a5f5", "#ab47bc", "#26c6da", "#ffffff",
  ]

  /// `#rrggbb` for a colour: the basic 16, the 6×6×6 cube (16…231), the grey ramp (232…255), or
  /// the 24-bit colour itself.
  static func hex(_ color: TerminalColor) -> String {
    switch color {
    case .indexed(let index) where index < 16:
      return basic[max(0, index)]
    case .indexed(let index) where index < 232:
      let cube = index - 16
      let levels = [0, 95, 135, 175, 215, 255]
      return hex(levels[cube / 36], levels[(cube / 6) % 6], levels[cube % 6])
    case .indexed(let index):
      let grey = 8 + 10 * (min(index, 255) - 232)
      return hex(grey, grey, grey)
    case .rgb(let red, let green, let blue):
      return hex(Int(red), Int(green), Int(blue))
    }
  }

  private static func hex(_ red: Int, _ green: Int, _ blue: Int) -> String {
    "#"
      + [red, green, blue].map { channel in
        let digits = String(channel, radix: 16)
        return channel < 16 ? "0" + digits : digits
      }.joined()
  }
}
