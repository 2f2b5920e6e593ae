import Foundation
import RunRecord

extension Snapshotting where Value == URL, Format == DirectorySnapshot {
  /// Snapshots the folder at a file URL as one reference: a folder named like a reference file
  /// without its extension, `__Snapshots__/<File>/<test>.1/`, holding every file at its relative
  /// path.
  ///
  /// ```swift
  /// assertSnapshot(of: outputFolder, as: .directory)
  /// ```
  ///
  /// Each file is compared as ``Diffing/directory(comparing:)`` describes (text, else bytes).
  /// Symbolic links are recorded as links and never followed; files keep their executable bit.
  public static var directory: Snapshotting {
    .directory()
  }

  /// Snapshots a folder, comparing files with the given diffings by extension, within limits.
  ///
  /// ```swift
  /// assertSnapshot(of: siteFolder, as: .directory(comparing: ["png": .png()]))
  /// ```
  ///
  /// A folder that does not exist or is a file, a file that cannot be read, a link that leaves
  /// the folder, a pipe or socket inside it, and a folder beyond the limits each fail the
  /// assertion naming the path, and nothing is recorded.
  ///
  /// - Parameters:
  ///   - comparing: Diffings by lowercase path extension (`"png"`).
  ///   - maximumFileCount: The most files and links the folder may hold.
  ///   - maximumByteCount: The most bytes its files may hold together.
  public static func directory(
    comparing: [String: Diffing<Data>] = [:],
    maximumFileCount: Int = 100_000,
    maximumByteCount: Int = 2 << 30
  ) -> Snapshotting {
    let limits = FolderContents.Limits(fileCount: maximumFileCount, byteCount: maximumByteCount)
    return Snapshotting<DirectorySnapshot, DirectorySnapshot>.directory(comparing: comparing)
      .pullback { url in
        do throws(FolderContentsError) {
          guard let listing = try FolderListing.list(url, limits: limits) else {
            UnavailableSnapshot.report(#"The folder "\#(url.path)" to snapshot does not exist."#)
            return DirectorySnapshot(files: [:])
          }
          // Walked now, so that its problems fail the assertion; read only when needed.
          return DirectorySnapshot(listing: listing)
        } catch {
          UnavailableSnapshot.report("Could not snapshot the folder: \(error.description)")
          return DirectorySnapshot(files: [:])
        }
      }
  }
}

extension Snapshotting where Value == [String: Data], Format == DirectorySnapshot {
  /// Snapshots files held in memory, by relative path, as one folder reference.
  ///
  /// ```swift
  /// assertSnapshot(of: ["index.html": page, "css/site.css": style], as: .directory)
  /// ```
  public static var directory: Snapshotting {
    .directory()
  }

  /// Snapshots files held in memory, comparing them with the given diffings by extension.
  public static func directory(comparing: [String: Diffing<Data>] = [:]) -> Snapshotting {
    Snapshotting<DirectorySnapshot, DirectorySnapshot>.directory(comparing: comparing)
      .pullback(DirectorySnapshot.init(files:))
  }
}

extension Snapshotting where Value == DirectorySnapshot, Format == DirectorySnapshot {
  /// Snapshots a ``DirectorySnapshot`` (files, executable bits and links) as one folder
  /// reference.
  public static var directory: Snapshotting {
    .directory()
  }

  /// Snapshots a ``DirectorySnapshot``, comparing files with the given diffings by extension.
  public static func directory(comparing: [String: Diffing<Data>] = [:]) -> Snapshotting {
    Snapshotting(pathExtension: nil, diffing: .directory(comparing: comparing))
  }
}
