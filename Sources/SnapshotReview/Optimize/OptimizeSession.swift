import Foundation
import PNGCodec
import RunRecord

extension ReviewSession {
  /// The `optimize` command: re-encodes PNG references as new references are written, keeping
  /// their pixels, and replaces each one that shrinks; with `check`, only lists them.
  ///
  /// `paths` are PNG files, taken wherever they are, or folders whose `__Snapshots__` folders are
  /// searched; none means the package root's. A file is replaced only by one that decodes to the
  /// same samples at full depth and loses no animation or meaningful chunk (``PNGOptimizer``),
  /// through `AtomicFile`, which writes through symbolic links and keeps permissions. Files that
  /// would lose something, and Git LFS pointers, are skipped with a line that says why.
  ///
  /// Returns ``ToolExitCode/failure`` when a file could not be read, decoded or written,
  /// ``ToolExitCode/pending`` when `check` found files that would shrink, else
  /// ``ToolExitCode/success``.
  ///
  /// - Complexity: O(*n*) in the pixels of the files, each decoded three times and encoded once.
  package func optimize(paths: [URL], check: Bool) -> ToolExitCode {
    let selection = OptimizeSelection.select(paths: paths, root: hints.packageRoot)
    var tally = OptimizeTally()
    for url in selection.missing {
      console.warn("error: \(hints.display(url.path)): no such file or folder\n")
      tally.failed += 1
    }
    guard !selection.files.isEmpty else {
      if selection.missing.isEmpty {
        console.write("No PNG files under __Snapshots__ folders beneath \(describe(paths)).\n")
      }
      return tally.failed > 0 ? .failure : .success
    }
    for url in selection.files {
      optimize(url, check: check, tally: &tally)
    }
    return finish(tally, fileCount: selection.files.count, check: check, paths: paths)
  }

  private func optimize(_ url: URL, check: Bool, tally: inout OptimizeTally) {
    let name = hints.display(url.path)
    let data: Data
    do {
      switch try ReferenceFile.read(url) {
      case .missing:
        console.warn("error: \(name): no such file\n")
        tally.failed += 1
        return
      case .present(let contents):
        data = contents
      }
    } catch {
      if error == .gitLFSPointer(url) {
        console.write("Skipped \(name): a Git LFS pointer, not the image (run `git lfs pull`).\n")
        tally.skipped += 1
      } else {
        console.warn("error: \(name): \(error.cause)\n")
        tally.failed += 1
      }
      return
    }
    let optimization: PNGOptimization
    do {
      switch try PNGOptimizer.optimize(data) {
      case .optimized(let result):
        optimization = result
      case .kept(let reason):
        console.write("Skipped \(name): \(reason.description); it was left as it was.\n")
        tally.skipped += 1
        return
      }
    } catch {
      console.warn("error: \(name): \(describe(error))\n")
      tally.failed += 1
      return
    }
    tally.bytesBefore += optimization.originalSize
    guard optimization.shrinks else {
      tally.bytesAfter += optimization.originalSize
      return
    }
    if !check {
      do {
        try AtomicFile.write(optimization.optimized, to: url)
      } catch {
        console.warn("error: \(name) could not be replaced: \(error.cause)\n")
        tally.failed += 1
        tally.bytesAfter += optimization.originalSize
        return
      }
    }
    tally.bytesAfter += optimization.optimized.count
    tally.shrunk += 1
    let before = groupedDigits(optimization.originalSize)
    let after = groupedDigits(optimization.optimized.count)
    let saving =
      "\(groupedDigits(optimization.savedBytes)) bytes, \(percent(optimization.savedBytes, of: optimization.originalSize))"
    console.write(
      "\(name): \(before) → \(after) bytes (\(check ? "could save" : "saved") \(saving))\n"
    )
  }

  private func finish(
    _ tally: OptimizeTally,
    fileCount: Int,
    check: Bool,
    paths: [URL]
  ) -> ToolExitCode {
    let saved = tally.bytesBefore - tally.bytesAfter
    let totals =
      "\(groupedDigits(saved)) bytes (\(percent(saved, of: tally.bytesBefore)) of \(groupedDigits(tally.bytesBefore)))"
    if tally.shrunk == 0 {
      let examined = fileCount - tally.failed - tally.skipped
      if examined > 0 {
        console.write(
          "\(examined == 1 ? "The PNG file is" : "All \(examined) PNG files are") already as small as optimize makes them.\n"
        )
      }
    } else if check {
      console.write(
        "\(tally.shrunk) of \(count(fileCount, "PNG file")) could shrink by \(totals).\n"
          + "Optimize them with: \(hints.command("optimize", paths.map { hints.display($0.path) }))\n"
      )
    } else {
      console.write(
        "Optimized \(tally.shrunk) of \(count(fileCount, "PNG file")): saved \(totals).\n"
      )
    }
    if tally.failed > 0 {
      console.warn(
        "\(count(tally.failed, "file")) could not be \(check ? "checked" : "optimized").\n"
      )
      return .failure
    }
    return check && tally.shrunk > 0 ? .pending : .success
  }

  /// What the files were searched beneath, for the message that none was found.
  private func describe(_ paths: [URL]) -> String {
    let folders = paths.isEmpty ? [hints.packageRoot.path] : paths.map { hints.display($0.path) }
    return folders.map { "\"\($0)\"" }.joined(separator: ", ")
  }

  private func describe(_ error: PNGCodecError) -> String {
    switch error {
    case .empty: return "the file is empty"
    case .tooLarge(let width, let height):
      return
        "not optimized: \(width)×\(height) pixels is beyond the limits (\(PNGLimits.maximumSide) a side, \(PNGLimits.maximumPixelCount) in all)"
    case .invalid(let reason): return "not a valid PNG: \(reason)"
    case .encodingFailed(let reason): return "could not be encoded: \(reason)"
    case .pixelsChanged:
      return "the new encoding did not give the same pixels; the file was left as it was"
    }
  }
}

/// Counts kept while the files are optimised.
struct OptimizeTally {
  var shrunk = 0
  var skipped = 0
  var failed = 0
  /// The sizes of the files that were decoded, before and after (or as they would be).
  var bytesBefore = 0
  var bytesAfter = 0
}

/// `1234567` as `1,234,567`, the same in every locale.
func groupedDigits(_ number: Int) -> String {
  let digits = String(number.magnitude)
  var grouped = ""
  for (index, digit) in digits.enumerated() {
    if index > 0 && (digits.count - index) % 3 == 0 { grouped += "," }
    grouped.append(digit)
  }
  return (number < 0 ? "-" : "") + grouped
}

/// `part` as a whole percentage of `whole`: `27%`.
func percent(_ part: Int, of whole: Int) -> String {
  guard whole > 0 else { return "0%" }
  return "\(Int((Double(part) * 100 / Double(whole)).rounded()))%"
}
