import Foundation

extension Diffing where Value == String {
  /// Compares text line by line and describes a mismatch as a unified diff.
  public static let lines = Diffing.diff(
    toData: { Data($0.utf8) },
    fromData: { String(decoding: $0, as: UTF8.self) }
  ) { old, new in
    // PLACEHOLDER until the line diff lands.
    old == new ? nil : ("−\(old)\n+\(new)", [])
  }
}

extension Snapshotting where Value == String, Format == String {
  /// Snapshots a string as a `.txt` reference, compared line by line.
  public static let lines = Snapshotting(pathExtension: "txt", diffing: .lines)
}
