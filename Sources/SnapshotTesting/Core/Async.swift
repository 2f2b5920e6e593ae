/// A value that is produced later, by calling back.
///
/// `Async` is the callback-based "future" that asynchronous strategies return: the snapshot engine
/// calls ``run`` with a callback and waits (up to the assertion's `timeout`) for it to be called.
///
/// ```swift
/// let later = Async<String> { callback in
///   DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { callback("ready") }
/// }
/// ```
///
/// It is `@unchecked Sendable` so that strategies built from it can be stored in `static let`s;
/// the closure it wraps is expected to be safe to call from any thread.
public struct Async<Value>: @unchecked Sendable {
  /// Starts the work and hands its result to the callback, once.
  public let run: (@escaping (Value) -> Void) -> Void

  /// Creates a value produced by calling `run` with a callback.
  ///
  /// - Parameter run: A function that starts the work and calls `callback` with its result.
  public init(run: @escaping (_ callback: @escaping (Value) -> Void) -> Void) {
    self.run = run
  }

  /// Creates an already available value.
  public init(value: Value) {
    self.init { callback in callback(value) }
  }

  /// Transforms the value once it is produced.
  public func map<NewValue>(_ transform: @escaping (Value) -> NewValue) -> Async<NewValue> {
    Async<NewValue> { callback in
      self.run { value in callback(transform(value)) }
    }
  }
}
