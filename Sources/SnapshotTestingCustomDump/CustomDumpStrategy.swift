import CustomDump
import SnapshotTesting

extension Snapshotting where Format == String {
  /// Snapshots any value as the text that swift-custom-dump's `customDump` prints for it.
  ///
  /// The text lists a value's stored properties, sorted collections and nested values with two
  /// spaces of indentation per level, and is compared line by line like `.lines`:
  ///
  /// ```swift
  /// assertSnapshot(of: user, as: .customDump)
  /// // User(
  /// //   id: 1,
  /// //   name: "Blob"
  /// // )
  /// ```
  ///
  /// References are stored with the `txt` path extension.
  public static var customDump: Snapshotting {
    SimplySnapshotting<String>.lines.pullback { value in
      var output = ""
      CustomDump.customDump(value, to: &output)
      return output
    }
  }
}
