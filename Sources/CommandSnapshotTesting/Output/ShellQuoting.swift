import Foundation

/// Quotes words the way a POSIX shell reads them back as the same words.
enum ShellQuoting {
  /// `word` unchanged when a shell would read it as it is; otherwise in single quotes, with a
  /// single quote written `'\''`. A word with a control character (a newline, a tab) is written
  /// in `$'…'` quotes with escapes, so that the command line stays on one line.
  static func quote(_ word: String) -> String {
    if word.isEmpty { return "''" }
    if word.unicodeScalars.allSatisfy(isPlain) { return word }
    if word.unicodeScalars.contains(where: isControl) {
      var quoted = "$'"
      for scalar in word.unicodeScalars {
        switch scalar {
        case "\n": quoted += "\\n"
        case "\t": quoted += "\\t"
        case "\r": quoted += "\\r"
        case "\\": quoted += "\\\\"
        case "'": quoted += "\\'"
        case _ where isControl(scalar):
          let hex = String(scalar.value, radix: 16)
          quoted += "\\x" + (hex.count == 1 ? "0" + hex : hex)
        default: quoted.unicodeScalars.append(scalar)
        }
      }
      return quoted + "'"
    }
    return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9": true
    case "-", "_", ".", "/", ":", ",", "+", "=", "@", "%": true
    default: false
    }
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || scalar.value == 0x7F
  }
}
