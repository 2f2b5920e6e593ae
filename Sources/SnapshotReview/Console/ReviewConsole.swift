import Foundation

/// Where the tool writes and reads: the terminal, or a script in tests.
package protocol ReviewConsole: AnyObject {
  /// Writes to standard output.
  func write(_ text: String)
  /// Writes to standard error.
  func warn(_ text: String)
  /// Asks a question and returns the answer, or `nil` at the end of the input.
  func ask(_ question: String) -> String?
}

/// Standard output, standard error and standard input.
package final class StandardConsole: ReviewConsole {
  package init() {}

  package func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  package func warn(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }

  package func ask(_ question: String) -> String? {
    write(question)
    return readLine(strippingNewline: true)
  }

  /// Whether a person can answer prompts: standard input is a terminal.
  package static var isInteractive: Bool { isatty(STDIN_FILENO) != 0 }
}
