import Foundation
import ImageSnapshotTesting
import PNGCodec
import TestSupport
import Testing

@testable import SnapshotReview

/// A package folder with PNG references as the previous encoder wrote them, one already optimal,
/// and PNG files `optimize` must leave alone. Removed when the closure returns.
struct OptimizeFixture {
  let root: URL
  /// `Tests/AppTests/__Snapshots__/ChartTests`.
  let snapshots: URL

  static let old = "testChart.1.png"
  static let optimal = "testIcon.1.png"
  /// Outside any `__Snapshots__` folder: a test's input, which the default search never touches.
  static let input = "Tests/AppTests/Resources/input.png"
  /// In a dependency's checkout, inside a hidden folder.
  static let dependency = ".build/checkouts/Dep/Tests/__Snapshots__/DepTests/test.1.png"

  static let chart = try? Bitmap(width: 160, height: 120) { x, y in
    if y < 20 { return RGBA(red: UInt8(40 + y * 3), green: 90, blue: 160) }
    let line = abs(y - 60 - (x % 40 - 20)) < 2
    return line ? RGBA(red: 220, green: 60, blue: 40) : RGBA(red: 250, green: 250, blue: 250)
  }
  static let icon = try? Bitmap(width: 16, height: 16) { x, y in
    (x - 8) * (x - 8) + (y - 8) * (y - 8) < 40 ? RGBA(red: 0, green: 122, blue: 255) : .clear
  }

  /// `bitmap` as references were written before: RGBA, zlib level 2, no row filter.
  static func oldEncoding(_ bitmap: Bitmap) throws -> Data {
    try bitmap.rgbaBytes.withUnsafeBufferPointer { pixels in
      try PNGEncoder.fixed(
        rgba: pixels,
        width: bitmap.width,
        height: bitmap.height,
        compression: .levelTwoUnfiltered
      )
    }
  }

  static func with<R>(_ body: (OptimizeFixture) throws -> R) throws -> R {
    let base = FileManager.default.temporaryDirectory
      .appendingPathComponent("OptimizeTests-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: base) }
    let fixture = OptimizeFixture(
      root: base.appendingPathComponent("App"),
      snapshots: base.appendingPathComponent("App/Tests/AppTests/__Snapshots__/ChartTests")
    )
    let chart = try #require(chart)
    let icon = try #require(icon)
    try fixture.write(try oldEncoding(chart), to: fixture.reference(old))
    try fixture.write(try icon.pngData(), to: fixture.reference(optimal))
    try fixture.write(Data("not an image\n".utf8), to: fixture.reference("testChart.2.txt"))
    try fixture.write(try oldEncoding(chart), to: fixture.root.appendingPathComponent(input))
    try fixture.write(try oldEncoding(chart), to: fixture.root.appendingPathComponent(dependency))
    return try body(fixture)
  }

  func reference(_ name: String) -> URL { snapshots.appendingPathComponent(name) }

  /// A reference path as the tool shows it: relative to the package.
  func relative(_ name: String) -> String { "Tests/AppTests/__Snapshots__/ChartTests/\(name)" }

  func write(_ data: Data, to url: URL) throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    try data.write(to: url)
  }

  func optimize(_ paths: [String] = [], check: Bool = false) -> (ToolExitCode, ScriptedConsole) {
    let console = ScriptedConsole()
    let session = ReviewSession(
      artifactsRoot: root,
      hints: CommandHints(packageRoot: root),
      console: console
    )
    let urls = paths.map { root.appendingPathComponent($0) }
    return (session.optimize(paths: urls, check: check), console)
  }

  /// Every file under the package, hidden folders included, to compare before and after.
  func packageFiles() -> [String: Data] {
    var files: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: root.path) else { return files }
    while let relative = walker.nextObject() as? String {
      var isFolder: ObjCBool = false
      let path = root.appendingPathComponent(relative).path
      if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
        files[relative] = FileManager.default.contents(atPath: path)
      }
    }
    return files
  }
}

@Suite struct OptimizeTests {
  @Test func shrinksOldReferencesAndKeepsTheirPixels() throws {
    try OptimizeFixture.with { fixture in
      let before = fixture.packageFiles()
      let oldData = try #require(contents(of: fixture.reference(OptimizeFixture.old)))
      let (status, console) = fixture.optimize()
      #expect(status == .success)
      #expect(console.errors.isEmpty)

      let newData = try #require(contents(of: fixture.reference(OptimizeFixture.old)))
      #expect(newData.count < oldData.count)
      #expect(try Bitmap(pngData: newData) == Bitmap(pngData: oldData))
      #expect(newData == (try OptimizeFixture.chart?.pngData()))
      let saved = oldData.count - newData.count
      let total = oldData.count + before[fixture.relative(OptimizeFixture.optimal)]!.count
      #expect(
        console.output == """
          \(fixture.relative(OptimizeFixture.old)): \(groupedDigits(oldData.count)) → \
          \(groupedDigits(newData.count)) bytes (saved \(groupedDigits(saved)) bytes, \
          \(percent(saved, of: oldData.count)))
          Optimized 1 of 2 PNG files: saved \(groupedDigits(saved)) bytes \
          (\(percent(saved, of: total)) of \(groupedDigits(total))).

          """
      )
      // Nothing else changed: not the optimal reference, the text reference, the PNG outside
      // __Snapshots__ or the dependency's reference in a hidden folder.
      var expected = before
      expected[fixture.relative(OptimizeFixture.old)] = newData
      #expect(fixture.packageFiles() == expected)
    }
  }

  @Test func aSecondRunSavesNothing() throws {
    try OptimizeFixture.with { fixture in
      _ = fixture.optimize()
      let optimized = fixture.packageFiles()
      let (status, console) = fixture.optimize()
      #expect(status == .success)
      #expect(console.output == "All 2 PNG files are already as small as optimize makes them.\n")
      #expect(fixture.packageFiles() == optimized)
      let (checked, checkConsole) = fixture.optimize(check: true)
      #expect(checked == .success)
      #expect(checkConsole.output == console.output)
    }
  }

  @Test func checkChangesNothingAndListsWhatWouldShrink() throws {
    try OptimizeFixture.with { fixture in
      let before = fixture.packageFiles()
      let (status, console) = fixture.optimize(check: true)
      #expect(status == .pending)
      #expect(fixture.packageFiles() == before)
      #expect(console.output.hasPrefix("\(fixture.relative(OptimizeFixture.old)): "))
      #expect(console.output.contains(" bytes (could save "))
      #expect(console.output.contains("\n1 of 2 PNG files could shrink by "))
      #expect(console.output.hasSuffix("Optimize them with: swift run snapshot-testing optimize\n"))
    }
  }

  @Test func anUndecodableFileIsNamedAndTheOthersAreStillOptimized() throws {
    try OptimizeFixture.with { fixture in
      let chart = try #require(OptimizeFixture.chart)
      let truncated = try OptimizeFixture.oldEncoding(chart).prefix(100)
      try fixture.write(truncated, to: fixture.reference("testBroken.1.png"))
      try fixture.write(Data(), to: fixture.reference("testEmpty.1.png"))
      let (status, console) = fixture.optimize()
      #expect(status == .failure)
      #expect(
        console.errors == """
          error: \(fixture.relative("testBroken.1.png")): not a valid PNG: the data ends early \
          (truncated file)
          error: \(fixture.relative("testEmpty.1.png")): the file is empty
          2 files could not be optimized.

          """
      )
      #expect(contents(of: fixture.reference("testBroken.1.png")) == truncated)
      #expect(console.output.contains("Optimized 1 of 4 PNG files"))
      let optimized = try #require(contents(of: fixture.reference(OptimizeFixture.old)))
      #expect(try Bitmap(pngData: optimized) == chart)
    }
  }

  @Test func gitLFSPointersAreSkippedWithANote() throws {
    try OptimizeFixture.with { fixture in
      let pointer = Data(
        "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 12345\n".utf8
      )
      try fixture.write(pointer, to: fixture.reference("testStored.1.png"))
      let (status, console) = fixture.optimize(check: true)
      #expect(status == .pending)
      #expect(console.errors.isEmpty)
      #expect(
        console.output.contains(
          "Skipped \(fixture.relative("testStored.1.png")): a Git LFS pointer, not the image (run `git lfs pull`).\n"
        )
      )
      #expect(contents(of: fixture.reference("testStored.1.png")) == pointer)
      let (afterOptimizing, _) = fixture.optimize()
      #expect(afterOptimizing == .success)
    }
  }

  /// Before, `optimize` rewrote these, losing low bytes, frames and the gamma chunk.
  @Test func filesThatWouldLoseSomethingAreSkippedWithTheReason() throws {
    try OptimizeFixture.with { fixture in
      // A 16-bit gray image whose low bytes 8 bits cannot hold; an APNG; an image with gamma.
      let wide = HandBuiltPNG.make(
        width: 2,
        height: 1,
        bitDepth: 16,
        colorType: 0,
        rows: [[0x12, 0x34, 0x56, 0x78]]
      )
      let oldChart = try OptimizeFixture.oldEncoding(try #require(OptimizeFixture.chart))
      let animated = HandBuiltPNG.inserting(
        [("acTL", HandBuiltPNG.bigEndian(UInt32(1)) + HandBuiltPNG.bigEndian(UInt32(0)))],
        afterHeaderOf: oldChart
      )
      let gamma = HandBuiltPNG.inserting(
        [("gAMA", HandBuiltPNG.bigEndian(UInt32(45_455)))],
        afterHeaderOf: oldChart
      )
      try fixture.write(wide, to: fixture.reference("testDepth.1.png"))
      try fixture.write(animated, to: fixture.reference("testMotion.1.png"))
      try fixture.write(gamma, to: fixture.reference("testGamma.1.png"))
      let before = fixture.packageFiles()

      let (status, console) = fixture.optimize()
      #expect(status == .success)
      #expect(console.errors.isEmpty)
      let lines = console.output.split(separator: "\n").map(String.init)
      #expect(
        lines.contains(
          "Skipped \(fixture.relative("testDepth.1.png")): 16-bit samples that 8 bits cannot "
            + "hold (the new file would lose their low bytes); it was left as it was."
        )
      )
      #expect(
        lines.contains(
          "Skipped \(fixture.relative("testMotion.1.png")): an animated PNG (APNG): its frames "
            + "would be lost; it was left as it was."
        )
      )
      #expect(
        lines.contains(
          "Skipped \(fixture.relative("testGamma.1.png")): a chunk the new file would drop: "
            + "gAMA (gamma); it was left as it was."
        )
      )
      // Only the old reference changed.
      let after = fixture.packageFiles()
      for name in ["testDepth.1.png", "testMotion.1.png", "testGamma.1.png"] {
        #expect(after[fixture.relative(name)] == before[fixture.relative(name)], "\(name)")
      }
      let old = fixture.relative(OptimizeFixture.old)
      #expect(after[old] != before[old])
      #expect(console.output.contains("\nOptimized 1 of 5 PNG files: saved "))
    }
  }

  @Test func filesNamedAreTakenWhereverTheyAreAndFoldersAreSearched() throws {
    try OptimizeFixture.with { fixture in
      let before = fixture.packageFiles()
      let (status, console) = fixture.optimize([OptimizeFixture.input], check: true)
      #expect(status == .pending)
      #expect(console.output.hasPrefix("\(OptimizeFixture.input): "))
      #expect(
        console.output.hasSuffix(
          "Optimize them with: swift run snapshot-testing optimize \(OptimizeFixture.input)\n"
        )
      )
      // A folder is searched for __Snapshots__ folders, so the input beside them is not taken.
      let (folderStatus, folderConsole) = fixture.optimize(["Tests"])
      #expect(folderStatus == .success)
      #expect(folderConsole.output.contains("Optimized 1 of 2 PNG files"))
      #expect(fixture.packageFiles()[OptimizeFixture.input] == before[OptimizeFixture.input])
    }
  }

  @Test func aMissingPathOrAReadOnlyFileFails() throws {
    try OptimizeFixture.with { fixture in
      let (missing, missingConsole) = fixture.optimize(["Tests/Nowhere"])
      #expect(missing == .failure)
      #expect(missingConsole.errors == "error: Tests/Nowhere: no such file or folder\n")

      let url = fixture.reference(OptimizeFixture.old)
      let before = contents(of: url)
      try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
      let (readOnly, readOnlyConsole) = fixture.optimize()
      #expect(readOnly == .failure)
      #expect(
        readOnlyConsole.errors.hasPrefix(
          "error: \(fixture.relative(OptimizeFixture.old)) could not be replaced: "
        )
      )
      #expect(contents(of: url) == before)
    }
  }

  @Test func replacingKeepsPermissionsAndSymbolicLinks() throws {
    try OptimizeFixture.with { fixture in
      let url = fixture.reference(OptimizeFixture.old)
      try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: url.path)
      let link = fixture.root.appendingPathComponent("chart-link.png")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
      let (status, _) = fixture.optimize(["chart-link.png"])
      #expect(status == .success)
      let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
      #expect(attributes[.posixPermissions] as? Int == 0o640)
      #expect(
        try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == url.path
      )
      #expect(contents(of: url) == (try OptimizeFixture.chart?.pngData()))
    }
  }

  @Test func noPNGFilesIsNotAnError() throws {
    try OptimizeFixture.with { fixture in
      let (status, console) = fixture.optimize(["Tests/AppTests/Resources"])
      #expect(status == .success)
      #expect(
        console.output
          == "No PNG files under __Snapshots__ folders beneath \"Tests/AppTests/Resources\".\n"
      )
    }
  }

  @Test func numbersAreGroupedTheSameEverywhere() {
    #expect(groupedDigits(0) == "0")
    #expect(groupedDigits(999) == "999")
    #expect(groupedDigits(1000) == "1,000")
    #expect(groupedDigits(1_234_567) == "1,234,567")
    #expect(groupedDigits(-4321) == "-4,321")
    #expect(percent(1, of: 3) == "33%")
    #expect(percent(5, of: 0) == "0%")
  }
}
