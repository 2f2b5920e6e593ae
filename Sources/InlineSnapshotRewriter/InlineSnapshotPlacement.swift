/// Where `accept` writes an inline snapshot from another machine's run: at the recorded call, at
/// the same test's assertion that moved, or nowhere.
package enum InlineSnapshotPlacement: Equatable {
  /// The call at the recorded line and column is in the recorded test (or the file does not
  /// declare that test, as when a helper in another file reported its own name).
  case asRecorded
  /// The recorded test's only assertion with the expected text is now at `line` and `column`.
  case moved(line: Int, column: Int)
  /// The recorded position is in another test, and the recorded one has no single assertion
  /// with the expected text; the message names both.
  case refused(String)
}

/// Where `change`, recorded by the test function `function` (its `#function`, such as
/// `testGreeting()` or `greeting(name:)`), belongs in `source`.
///
/// A local edit can put another test's assertion, with the same expected text, at the recorded
/// line and column; writing there would change the wrong test. So the function around the call
/// must be the recorded one; when it is not, the recorded function's assertion is found by its
/// expected text, once, or the change is refused.
package func placement(
  of change: InlineSnapshotChange,
  recordedIn function: String,
  in source: String
) -> InlineSnapshotPlacement {
  let parsed = ParsedSource(source)
  let functions = FunctionDeclarations(parsed)
  let recordedCall = parsed.call(line: change.line, column: change.column)
  let enclosing = recordedCall.flatMap { functions.innermost(containing: $0.position) }
  if let enclosing, enclosing.name == function { return .asRecorded }
  let declared = functions.all.filter { $0.name == function }
  guard !declared.isEmpty else { return .asRecorded }
  let found = change.expected.map { expected in
    declared.flatMap { declaration in
      positions(of: expected, in: declaration, parsed: parsed, change: change)
    }
  } ?? []
  if found.count == 1, let only = found.first {
    return .moved(line: only.line, column: only.column)
  }
  let there = enclosing.map { #"is in "\#($0.name)""# } ?? "holds no assertion"
  let reason =
    found.isEmpty
    ? "has no assertion with the snapshot the run saw" : "has \(found.count) assertions with it"
  return .refused(
    """
    the assertion at line \(change.line), column \(change.column) \(there), not in \
    "\(function)", and "\(function)" \(reason); the file has changed since the run. Re-run the \
    test to record it.
    """
  )
}

/// The `#line` and `#column` of the calls in `declaration`'s body whose snapshot closure holds
/// `expected`.
private func positions(
  of expected: String,
  in declaration: FunctionDeclarations.Declaration,
  parsed: ParsedSource,
  change: InlineSnapshotChange
) -> [(line: Int, column: Int)] {
  let descriptor = change.recording.syntaxDescriptor
  var found: [(line: Int, column: Int)] = []
  for token in parsed.tokens[declaration.body] where token.kind == .punctuation {
    let byte = parsed.bytes[token.start]
    guard byte == UInt8(ascii: "(") || byte == UInt8(ascii: "{") else { continue }
    let location = parsed.location(of: token.start)
    guard let call = parsed.call(line: location.line, column: location.column),
      let slot = try? SnapshotSlot(of: call, descriptor: descriptor, line: location.line),
      let text = slot.closure?.literalText,
      text.replacingCRLF() == expected
    else { continue }
    found.append(location)
  }
  return found
}

/// The `func` declarations of a scanned source: each one's `#function` name and body.
private struct FunctionDeclarations {
  struct Declaration {
    /// As `#function` gives it: `name(label:_:)`.
    var name: String
    /// The token indices of the body, braces excluded.
    var body: Range<Int>
    /// The byte range of the body.
    var bytes: Range<Int>
  }

  let all: [Declaration]

  init(_ parsed: ParsedSource) {
    let tokens = parsed.tokens
    var declarations: [Declaration] = []
    func text(_ index: Int) -> String { parsed.text(tokens[index].start..<tokens[index].end) }
    func isPunctuation(_ index: Int, _ byte: Unicode.Scalar) -> Bool {
      tokens[index].kind == .punctuation && parsed.bytes[tokens[index].start] == UInt8(byte.value)
    }
    for index in tokens.indices where tokens[index].kind == .word && text(index) == "func" {
      guard index + 1 < tokens.count else { continue }
      let name = text(index + 1)
      // The parameters: the first `(` after the name (generic parameters come between).
      guard let open = (index + 2..<tokens.count).prefix(64).first(where: { isPunctuation($0, "(") }),
        let close = tokens[open].partner
      else { continue }
      var labels: [String] = []
      var parameterStart = open + 1
      var cursor = open + 1
      while cursor < close {
        if isPunctuation(cursor, ",") || cursor + 1 == close {
          if tokens[parameterStart].kind == .word { labels.append(text(parameterStart)) }
          parameterStart = cursor + 1
        }
        cursor = (tokens[cursor].partner.map { $0 > cursor ? $0 : cursor } ?? cursor) + 1
      }
      // The body: the first `{` after the parameters, before another declaration starts.
      var bodyOpen = close + 1
      while bodyOpen < tokens.count, !isPunctuation(bodyOpen, "{"), !isPunctuation(bodyOpen, "}"),
        !(tokens[bodyOpen].kind == .word && text(bodyOpen) == "func")
      {
        bodyOpen = (tokens[bodyOpen].partner.map { $0 > bodyOpen ? $0 : bodyOpen } ?? bodyOpen) + 1
      }
      guard bodyOpen < tokens.count, isPunctuation(bodyOpen, "{"),
        let bodyClose = tokens[bodyOpen].partner
      else { continue }
      declarations.append(
        Declaration(
          name: name + "(" + labels.map { $0 + ":" }.joined() + ")",
          body: (bodyOpen + 1)..<bodyClose,
          bytes: tokens[bodyOpen].end..<tokens[bodyClose].start
        )
      )
    }
    all = declarations
  }

  /// The innermost declaration whose body holds the byte at `offset`.
  func innermost(containing offset: Int) -> Declaration? {
    all.filter { $0.bytes.contains(offset) }.min { $0.bytes.count < $1.bytes.count }
  }
}
