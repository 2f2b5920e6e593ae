import ArgumentParser
import Foundation
import SnapshotReview

struct OptimizeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "optimize",
    abstract: "Recompress PNG references losslessly, as small as new references are written.",
    discussion: """
      Looks at every .png file inside __Snapshots__ folders beneath the current folder, or \
      beneath the folders given; a file given by name is taken wherever it is. Each is decoded, \
      encoded again the way new references are written (the smallest colour type, the best of \
      eight row filter choices, libdeflate at its strongest levels), and both files are decoded \
      at full depth (16 bits a sample) and compared sample for sample. It is replaced, \
      atomically and keeping its permissions, only when the new file is smaller and loses \
      nothing. Skipped, with a line saying why: 16-bit \
      files whose samples 8 bits cannot hold, animated PNGs (APNG), files with chunks that \
      change how the image is shown (gAMA, cHRM, iCCP, sRGB, sBIT, pHYs, eXIf and any chunk \
      not known to be harmless; text and time chunks are dropped), and Git LFS pointers.

      With --check nothing is changed: the files that would shrink are listed, for CI.

      Exits 0 when done (with --check: when no file would shrink), 1 when --check found files \
      that would shrink, 5 when a file could not be read, decoded or written (the others are \
      still optimized).
      """
  )

  @Flag(name: .long, help: "Change nothing; exit 1 if any file could be smaller.")
  var check = false

  @Argument(
    help: ArgumentHelp(
      "PNG files, or folders whose __Snapshots__ folders are searched (default: the current folder).",
      valueName: "path"
    )
  )
  var paths: [String] = []

  func run() throws {
    let folder = URL(
      fileURLWithPath: FileManager.default.currentDirectoryPath,
      isDirectory: true
    )
    let session = ReviewSession(
      artifactsRoot: folder,
      hints: CommandHints(packageRoot: folder),
      console: StandardConsole()
    )
    let urls = paths.map { URL(fileURLWithPath: $0).standardizedFileURL }
    throw session.optimize(paths: urls, check: check).exitCode
  }
}
