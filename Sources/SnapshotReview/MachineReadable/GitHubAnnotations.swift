/// GitHub Actions workflow commands (`::error file=…,line=…,title=…::…`) that show each pending
/// failure on the pull request's diff, at its assertion.
///
/// Escaping follows GitHub's runner (`actions/toolkit`'s `escapeData` and `escapeProperty`): in
/// the message, `%`, CR and LF become `%25`, `%0D` and `%0A`, so a multi-line message stays one
/// command; in a property, `:` and `,` also become `%3A` and `%2C`, since they end a property.
package enum GitHubAnnotations {
  /// One `::error` line per failure, each ending with a newline.
  package static func lines(for failures: [PendingFailure], hints: CommandHints) -> String {
    failures.map { command(for: $0, hints: hints) + "\n" }.joined()
  }

  /// The workflow command for one failure. The file is relative to the package root when it lies
  /// beneath it, as GitHub matches files by their path in the repository.
  package static func command(for failure: PendingFailure, hints: CommandHints) -> String {
    let record = failure.record
    let title = "\(record.testName): \(record.headline)"
    var message = record.headline
    message += "\nreference: \(hints.display(failure.referenceURL?.path ?? record.referencePath))"
    message += "\nnew snapshot: \(hints.display(failure.failedSnapshotURL.path))"
    if let difference = record.difference, !difference.isEmpty {
      message += "\n\n" + difference
    }
    message += "\n\naccept: \(hints.acceptCommand(for: failure))"
    let properties = [
      "file=" + escapeProperty(hints.display(failure.testFilePath)),
      "line=\(record.line)",
      "title=" + escapeProperty(title),
    ]
    return "::error \(properties.joined(separator: ","))::\(escapeData(message))"
  }

  /// A command's message: `%`, CR and LF escaped.
  package static func escapeData(_ text: String) -> String {
    var escaped = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "%": escaped += "%25"
      case "\r": escaped += "%0D"
      case "\n": escaped += "%0A"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// A command's property value: as ``escapeData(_:)``, and `:` and `,` too.
  package static func escapeProperty(_ text: String) -> String {
    var escaped = ""
    for scalar in escapeData(text).unicodeScalars {
      switch scalar {
      case ":": escaped += "%3A"
      case ",": escaped += "%2C"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }
}
