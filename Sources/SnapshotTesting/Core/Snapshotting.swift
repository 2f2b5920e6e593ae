import Foundation

/// A strategy that turns a value of type `Value` into a diffable `Format` and stores it on disk.
///
/// Strategies are plain values of closures. Most new strategies are built from existing ones with
/// ``pullback(_:)``:
///
/// ```swift
/// extension Snapshotting where Value == Invoice, Format == String {
///   static let summary: Snapshotting = Snapshotting<String, String>.lines.pullback(\.summary)
/// }
/// ```
///
/// It is `@unchecked Sendable` so that strategies can be declared as `static let` in the Swift 6
/// language mode; a strategy's closures must not mutate shared state.
public struct Snapshotting<Value, Format>: @unchecked Sendable {
  /// The file extension of references written with this strategy (`"txt"`, `"json"`, `"png"`),
  /// or `nil` for none.
  public var pathExtension: String?

  /// How two formats are compared, and how a format is written to and read from disk.
  public var diffing: Diffing<Format>

  /// Turns a value into its format, possibly asynchronously.
  public var snapshot: (Value) -> Async<Format>

  /// Creates a strategy whose snapshot is produced asynchronously.
  ///
  /// - Parameters:
  ///   - pathExtension: The extension of the reference files.
  ///   - diffing: How formats are compared and stored.
  ///   - asyncSnapshot: Turns a value into its format, calling back when done.
  public init(
    pathExtension: String?,
    diffing: Diffing<Format>,
    asyncSnapshot: @escaping (_ value: Value) -> Async<Format>
  ) {
    self.pathExtension = pathExtension
    self.diffing = diffing
    self.snapshot = asyncSnapshot
  }

  /// Creates a strategy whose snapshot is produced synchronously.
  ///
  /// - Parameters:
  ///   - pathExtension: The extension of the reference files.
  ///   - diffing: How formats are compared and stored.
  ///   - snapshot: Turns a value into its format.
  public init(
    pathExtension: String?,
    diffing: Diffing<Format>,
    snapshot: @escaping (_ value: Value) -> Format
  ) {
    self.init(pathExtension: pathExtension, diffing: diffing) { value in
      Async(value: snapshot(value))
    }
  }

  /// Builds a strategy on a new type by first transforming it into this strategy's `Value`.
  ///
  /// ```swift
  /// let byName = Snapshotting<String, String>.lines.pullback { (user: User) in user.name }
  /// ```
  ///
  /// - Parameter transform: Turns the new value into this strategy's value.
  /// - Returns: A strategy on `NewValue` with the same format, diffing and path extension.
  public func pullback<NewValue>(
    _ transform: @escaping (_ otherValue: NewValue) -> Value
  ) -> Snapshotting<NewValue, Format> {
    asyncPullback { newValue in Async(value: transform(newValue)) }
  }

  /// Builds a strategy on a new type whose transformation into `Value` is asynchronous.
  ///
  /// - Parameter transform: Turns the new value into this strategy's value, calling back when done.
  /// - Returns: A strategy on `NewValue` with the same format, diffing and path extension.
  public func asyncPullback<NewValue>(
    _ transform: @escaping (_ otherValue: NewValue) -> Async<Value>
  ) -> Snapshotting<NewValue, Format> {
    let snapshot = self.snapshot
    return Snapshotting<NewValue, Format>(pathExtension: pathExtension, diffing: diffing) {
      newValue in
      Async { callback in
        transform(newValue).run { value in
          snapshot(value).run(callback)
        }
      }
    }
  }
}

/// A strategy whose value already is its diffable format.
public typealias SimplySnapshotting<Format> = Snapshotting<Format, Format>

extension Snapshotting where Value == Format {
  /// Creates a strategy that snapshots a value as itself.
  ///
  /// - Parameters:
  ///   - pathExtension: The extension of the reference files.
  ///   - diffing: How values are compared and stored.
  public init(pathExtension: String?, diffing: Diffing<Format>) {
    self.init(pathExtension: pathExtension, diffing: diffing) { $0 }
  }
}
