import Testing

@testable import RunRecord

/// `shellQuoted`, the package's one shell quoting: the review tool's hints, the diff tool's
/// command and a command snapshot's first line (which references hold) all depend on its bytes.
@Suite struct ShellQuotingTests {
  @Test(arguments: [
    ("", "''"),
    ("plain-1.0_a/b:c,d+e=f@g%h", "plain-1.0_a/b:c,d+e=f@g%h"),
    ("two words", "'two words'"),
    ("it's", #"'it'\''s'"#),
    ("$HOME", "'$HOME'"),
    ("line\nbreak", "'line\nbreak'"),
    ("café", "'café'"),
    ("cafe\u{301}", "'cafe\u{301}'"),
    ("*", "'*'"),
    ("~", "'~'"),
  ])
  func quotesExactlyWhatAShellWouldReadOtherwise(_ word: String, _ quoted: String) {
    #expect(shellQuoted(word) == quoted)
  }
}
