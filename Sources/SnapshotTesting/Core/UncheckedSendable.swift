/// Carries a value across a concurrency boundary that the compiler cannot prove safe.
///
/// Used where a strategy's value or callback must hop to a queue: strategies are run once, by one
/// assertion, so the value is never touched from two threads at the same time.
struct UncheckedSendable<Wrapped>: @unchecked Sendable {
  var value: Wrapped
  init(_ value: Wrapped) { self.value = value }
}
