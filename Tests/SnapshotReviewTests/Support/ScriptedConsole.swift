import SnapshotReview

/// Collects what the tool writes and answers its questions from a list; for tests.
final class ScriptedConsole: ReviewConsole {
  private(set) var output = ""
  private(set) var errors = ""
  private var answers: [String]

  init(answers: [String] = []) {
    self.answers = answers
  }

  func write(_ text: String) { output += text }
  func warn(_ text: String) { errors += text }

  func ask(_ question: String) -> String? {
    output += question
    guard !answers.isEmpty else { return nil }
    let answer = answers.removeFirst()
    output += answer + "\n"
    return answer
  }
}
