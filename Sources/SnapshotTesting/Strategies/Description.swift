import Foundation

extension Snapshotting where Format == String {
  /// Snapshots a value as `String(describing:)` renders it, in a `.txt` reference.
  ///
  /// ```swift
  /// assertSnapshot(of: user, as: .description)
  /// ```
  ///
  /// records `User(id: 1, name: "Blobby", bio: "Blobbed around the world.")`.
  public static var description: Snapshotting {
    SimplySnapshotting<String>.lines.pullback { (value: Value) in String(describing: value) }
  }
}
