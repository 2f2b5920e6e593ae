import Foundation
import RunRecord

extension ReviewSession {
  /// The `report` command: writes the HTML page of the pending failures matching `filters` to
  /// `output` (atomically), and says where it is.
  package func report(to output: URL, filters: [String]) -> ToolExitCode {
    let pending = loadPending()
    let filter = FailureFilter(filters, packageRoot: hints.packageRoot)
    let selected = pending.failures.filter(filter.matches)
    if !filters.isEmpty && selected.isEmpty && !pending.failures.isEmpty {
      console.warn(
        "No pending failure matches \(filters.map { "\"\($0)\"" }.joined(separator: ", ")).\n"
      )
      return .noMatch
    }
    var report = HTMLReport(failures: selected, hints: hints, artifactsRoot: artifactsRoot)
    report.additionalArtifactsRoots = additionalArtifactsRoots
    report.suggestsAcceptAll = suggestsAll(for: selected, filters: filters)
    let html = report.render()
    do {
      try AtomicFile.write(Data(html.utf8), to: output)
    } catch {
      console.warn("error: could not write the report to \"\(output.path)\" (\(error.cause)).\n")
      return .failure
    }
    console.write(
      "Wrote the report of \(count(selected.count, "pending failure")) to \(output.path)\n"
    )
    return .success
  }
}
