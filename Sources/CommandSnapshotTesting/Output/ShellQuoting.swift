import Foundation

/// Quotes words the way a POSIX shell reads them back as the same words.
enum ShellQuoting {
  /// `word` unchanged when a shell would read it as it is; otherwise in single quotes, inside
  /// which every character but the single quote stands for itself (a newline too), with a single
  /// quote written `'\''`. The result is what `/bin/sh` needs, not only bash.
  static func quote(_ word: String) -> String {
    if word.isEmpty { return "''" }
    if word.unicodeScalars.allSatisfy(isPlain) { return word }
    return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9": true
    case "-", "_", ".", "/", ":", ",", "+", "=", "@", "%": true
    default: false
    }
  }
}
