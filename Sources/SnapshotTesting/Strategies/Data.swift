import Foundation

extension Snapshotting where Value == Data, Format == Data {
  /// Snapshots bytes as they are, in a reference file without an extension.
  ///
  /// ```swift
  /// assertSnapshot(of: Data([0xDE, 0xAD, 0xBE, 0xEF]), as: .data)
  /// ```
  ///
  /// A mismatch says `Expected data to match` when the sizes agree, otherwise
  /// `Expected 3 bytes to match 4 bytes` (the new size, then the reference's).
  public static var data: Snapshotting {
    Snapshotting(
      pathExtension: nil,
      diffing: .diff(toData: { $0 }, fromData: { $0 }) { reference, new in
        guard reference != new else { return nil }
        let message =
          reference.count == new.count
          ? "Expected data to match"
          : "Expected \(new.count) bytes to match \(reference.count) bytes"
        return (message, [])
      }
    )
  }
}
