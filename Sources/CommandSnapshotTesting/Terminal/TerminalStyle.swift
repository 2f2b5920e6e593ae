/// A colour as SGR names it: one of the 256 indexed colours or a 24-bit one.
enum TerminalColor: Equatable, Sendable {
  case indexed(Int)
  case rgb(UInt8, UInt8, UInt8)
}

/// The attributes SGR sets on the cells written after it.
struct TerminalStyle: Equatable, Sendable {
  var foreground: TerminalColor?
  var background: TerminalColor?
  var bold = false
  var italic = false
  var underline = false
  var inverse = false

  static let plain = TerminalStyle()

  /// Applies one SGR sequence's parameters; unknown ones and malformed colours are ignored.
  mutating func apply(_ parameters: [Int?]) {
    var index = 0
    while index < parameters.count {
      let parameter = parameters[index] ?? 0
      index += 1
      switch parameter {
      case 0: self = .plain
      case 1: bold = true
      case 3: italic = true
      case 4: underline = true
      case 7: inverse = true
      case 22: bold = false
      case 23: italic = false
      case 24: underline = false
      case 27: inverse = false
      case 30...37: foreground = .indexed(parameter - 30)
      case 39: foreground = nil
      case 40...47: background = .indexed(parameter - 40)
      case 49: background = nil
      case 90...97: foreground = .indexed(parameter - 90 + 8)
      case 100...107: background = .indexed(parameter - 100 + 8)
      case 38, 48:
        let (color, used) = Self.extendedColor(parameters[index...])
        index += used
        if let color {
          if parameter == 38 { foreground = color } else { background = color }
        }
      default: break
      }
    }
  }

  /// `5;n` (256 colours) or `2;r;g;b` (24-bit), and how many parameters it took. A colour out of
  /// range, or one cut short, is `nil`.
  private static func extendedColor(_ rest: ArraySlice<Int?>) -> (TerminalColor?, Int) {
    // Read in place: copying the rest at each 38 or 48 would make a long run of them quadratic.
    let start = rest.startIndex
    guard let kind = rest.first else { return (nil, 0) }
    switch kind {
    case 5:
      guard rest.count >= 2, let index = rest[start + 1], (0...255).contains(index) else {
        return (nil, min(rest.count, 2))
      }
      return (.indexed(index), 2)
    case 2:
      guard rest.count >= 4 else { return (nil, rest.count) }
      let channels = rest[(start + 1)...(start + 3)].map { $0 ?? 0 }
      guard channels.allSatisfy({ (0...255).contains($0) }) else { return (nil, 4) }
      return (.rgb(UInt8(channels[0]), UInt8(channels[1]), UInt8(channels[2])), 4)
    default:
      return (nil, 1)
    }
  }
}
