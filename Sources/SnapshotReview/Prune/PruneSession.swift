import Foundation

extension ReviewSession {
  /// The `prune` command: lists the references no test used in the run logged in
  /// `usageFolders` (one folder per shard of a CI job, or per platform: a reference is used when
  /// any of them used it), and deletes them when `delete` is set.
  ///
  /// When the run was split (`--parallel` workers, shards, filters), `testList` gives the
  /// package's tests, to prove every one ran (see ``CompleteUsageLog``).
  ///
  /// Returns ``ToolExitCode/refused`` for a partial, missing, crashed or foreign log,
  /// ``ToolExitCode/pending`` when unused files were listed but not deleted,
  /// ``ToolExitCode/failure`` when one could not be deleted, else ``ToolExitCode/success``.
  package func prune(
    usageFolders: [URL],
    testList: TestListSource? = nil,
    delete: Bool
  ) -> ToolExitCode {
    let plan: PrunePlan
    do {
      plan = try PrunePlan.plan(
        log: try CompleteUsageLog.load(
          folders: usageFolders,
          packageRoot: hints.packageRoot,
          testList: testList ?? .swiftTestList(packageRoot: hints.packageRoot),
          note: { console.warn($0) }
        ),
        root: hints.packageRoot
      )
    } catch {
      console.warn(error.description + "\n")
      return .refused
    }
    listOtherVariants(plan)
    guard !plan.isEmpty else {
      if plan.otherVariants.isEmpty {
        console.write(
          "All \(count(plan.referenceCount, "reference file")) under __Snapshots__ folders are used.\n"
        )
      } else {
        let others = plan.referenceCount - plan.otherVariants.count
        console.write(
          "All \(count(others, "other reference file")) under __Snapshots__ folders are used.\n"
        )
      }
      return .success
    }
    list(plan)
    var usageOptions = usageFolders.flatMap { ["--usage", $0.path] }
    if case .file(let list) = testList { usageOptions += ["--test-list", list.path] }
    guard delete else {
      console.write(
        "\nDelete them with: \(hints.command("prune", usageOptions + ["--delete"]))\n"
      )
      return .pending
    }
    let problems = plan.delete()
    for (url, problem) in problems {
      console.warn("error: could not delete \"\(url.path)\": \(problem)\n")
    }
    let deleted = plan.unreferenced.count + plan.strayTemporaryFiles.count - problems.count
    console.write("Deleted \(count(deleted, "file")).\n")
    return problems.isEmpty ? .success : .failure
  }

  /// Prints the unused files a plan keeps because the run could not have produced their variant.
  private func listOtherVariants(_ plan: PrunePlan) {
    guard !plan.otherVariants.isEmpty else { return }
    let used =
      plan.runVariants.isEmpty
      ? "this run used no variant"
      : "this run used " + plan.runVariants.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
    console.write(
      "\(count(plan.otherVariants.count, "reference file")) of other variants kept (\(used)):\n"
    )
    for (url, variant) in plan.otherVariants {
      console.write("  \(hints.display(url.path)) (kept: another variant, \"\(variant)\")\n")
    }
    if !plan.isEmpty { console.write("\n") }
  }

  /// Prints the files a plan would delete.
  private func list(_ plan: PrunePlan) {
    if !plan.unreferenced.isEmpty {
      let unreferenced = count(plan.unreferenced.count, "unreferenced snapshot file")
      console.write("\(unreferenced) (of \(plan.referenceCount) under __Snapshots__ folders):\n")
      for url in plan.unreferenced { console.write("  \(hints.display(url.path))\n") }
    }
    if !plan.strayTemporaryFiles.isEmpty {
      let temporaries = count(plan.strayTemporaryFiles.count, "temporary file")
      console.write("\(temporaries) left by interrupted recordings:\n")
      for url in plan.strayTemporaryFiles { console.write("  \(hints.display(url.path))\n") }
    }
  }
}
