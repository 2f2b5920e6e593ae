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

  /// Applies one SGR sequence's parameters, each with its `:` sub-parameters; unknown ones and
  /// malformed colours are ignored.
  mutating func apply(_ parameters: [[Int?]]) {
    var index = 0
    while index < parameters.count {
      let group = parameters[index]
      let parameter = (group.first ?? nil) ?? 0
      index += 1
      switch parameter {
      case 0: self = .plain
      case 1: bold = true
      case 3: italic = true
      // `4:0` is "no underline"; `4:1` to `4:5` are underline styles, all drawn as one.
      case 4: underline = group.count < 2 || (group[1] ?? 0) != 0
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
        let color: TerminalColor?
        if group.count > 1 {
          color = Self.extendedColor(subParameters: group.dropFirst())
        } else {
          // The `;` form: the colour takes the next parameters (at most four, so a long run
          // of 38s stays linear).
          let next = parameters[index..<min(index + 4, parameters.count)].map { $0.first ?? nil }
          let used: Int
          (color, used) = Self.extendedColor(next[...])
          index += used
        }
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
    let start = rest.startIndex
    guard let kind = rest.first else { return (nil, 0) }
    switch kind {
    case 5:
      guard rest.count >= 2 else { return (nil, rest.count) }
      return (indexed(rest[start + 1]), 2)
    case 2:
      guard rest.count >= 4 else { return (nil, rest.count) }
      return (rgb(rest[(start + 1)...(start + 3)]), 4)
    default:
      return (nil, 1)
    }
  }

  /// The `:` form, whose parameters are all its own: `5:n`, `2:r:g:b`, or `2:space:r:g:b` with a
  /// colour space (usually empty, `38:2::255:0:0`).
  private static func extendedColor(subParameters: ArraySlice<Int?>) -> TerminalColor? {
    let start = subParameters.startIndex
    switch subParameters.first ?? nil {
    case 5 where subParameters.count >= 2:
      return indexed(subParameters[start + 1])
    case 2 where subParameters.count >= 5:
      return rgb(subParameters[(start + 2)...(start + 4)])
    case 2 where subParameters.count == 4:
      return rgb(subParameters[(start + 1)...(start + 3)])
    default:
      return nil
    }
  }

  private static func indexed(_ value: Int?) -> TerminalColor? {
    guard let index = value, (0...255).contains(index) else { return nil }
    return .indexed(index)
  }

  private static func rgb(_ channels: ArraySlice<Int?>) -> TerminalColor? {
    let values = channels.map { $0 ?? 0 }
    guard values.count == 3, values.allSatisfy({ (0...255).contains($0) }) else { return nil }
    return .rgb(UInt8(values[0]), UInt8(values[1]), UInt8(values[2]))
  }
}
