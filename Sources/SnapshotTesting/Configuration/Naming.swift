extension SnapshotTestingConfiguration {
  /// How references of a parameterized Swift Testing test are named.
  ///
  /// By default a reference's name holds the test's name and the snapshot's number or name, as
  /// upstream's does, so every case of `@Test(arguments: [1, 2, 3]) func price(_ n: Int)` would
  /// share `price-_.1.txt`; an assertion that would share a reference with another case fails
  /// instead. With ``arguments`` each case gets its own references:
  ///
  /// ```swift
  /// @Test(.snapshots(naming: .arguments), arguments: [1, 2, 3])
  /// func price(_ n: Int) {
  ///   assertSnapshot(of: quote(n), as: .lines)   // price-_-n_1.1.txt, price-_-n_2.1.txt, …
  /// }
  /// ```
  public struct Naming: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
      case standard
      case arguments
    }

    let kind: Kind

    /// `<test>.<n or name>.<ext>`, upstream's layout.
    public static let standard = Self(kind: .standard)

    /// `<test>-<arguments>.<n or name>.<ext>` for a parameterized test's cases: each argument
    /// as `<parameter>_<value>` when the value is at most 24 ASCII letters and digits (a
    /// string's quotes left out), else `<parameter>_h<8 hex digits>`, a hash of the value, so the
    /// name is file-safe and stable; arguments joined by `-`. Tests without arguments and XCTest
    /// keep the standard names.
    public static let arguments = Self(kind: .arguments)
  }
}
