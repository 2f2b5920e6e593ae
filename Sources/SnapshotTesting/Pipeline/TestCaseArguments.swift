import Foundation
import RunRecord
import Testing

/// The arguments of the running Swift Testing test case, when the test is parameterized
/// (`@Test(arguments: [1, 2, 3]) func price(_ n: Int)`).
///
/// Swift Testing has no public API for a case's arguments, so they are read by reflecting
/// `Test.Case.current`. Should that ever fail, the case is still told apart by its description,
/// and names by arguments fall back to a hash of it: reference names stay unique and stable.
struct TestCaseArguments: Equatable, Sendable {
  /// One argument: its parameter's name inside the function (`n`) and its value as Swift Testing
  /// shows it (`2`, `"a b"`).
  struct Argument: Equatable, Sendable {
    var label: String
    var value: String
  }

  var arguments: [Argument]
  /// What tells this case apart from the test's others, also when reflection found nothing.
  var key: String

  /// The running test case's arguments, or `nil` outside a parameterized Swift Testing test.
  static var current: TestCaseArguments? {
    guard let testCase = Test.Case.current, testCase.isParameterized else { return nil }
    let arguments = reflectedArguments(of: testCase)
    let key =
      arguments.isEmpty
      ? String(describing: testCase)
      : arguments.map { "\($0.label)=\($0.value)" }.joined(separator: ", ")
    return TestCaseArguments(arguments: arguments, key: key)
  }

  /// `n → 2, label → "a b"`, as Swift Testing's own output writes a case.
  var description: String {
    arguments.isEmpty ? key : arguments.map { "\($0.label) → \($0.value)" }.joined(separator: ", ")
  }

  /// The part of a reference's file name that names this case: `n_2-label_h1f3a9c02`. Each
  /// argument is `<label>_<value>` when its value is at most 24 ASCII letters and digits, else
  /// `<label>_h<8 hex digits>` (an FNV-1a hash of the value), so any value gives a file-safe,
  /// stable part and two cases never share one.
  var fileNamePart: String {
    guard !arguments.isEmpty else { return "h" + hash(key) }
    return arguments.map { argument in
      // A string's quotes are not part of what names it.
      var plain = Substring(argument.value)
      if plain.count >= 2, plain.hasPrefix("\""), plain.hasSuffix("\"") {
        plain = plain.dropFirst().dropLast()
      }
      let isSafe =
        !plain.isEmpty && plain.utf8.count <= 24
        && plain.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) }
      let label = sanitizePathComponent(argument.label)
      return "\(label.isEmpty ? "arg" : label)_\(isSafe ? String(plain) : "h" + hash(argument.value))"
    }.joined(separator: "-")
  }

  private func hash(_ text: String) -> String {
    var hash: UInt32 = 0x811c_9dc5
    for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }

  /// Walks `Test.Case`'s stored properties to its arguments' values and parameter names.
  private static func reflectedArguments(of testCase: Test.Case) -> [Argument] {
    func child(_ value: Any, _ label: String) -> Any? {
      Mirror(reflecting: value).children.first { $0.label == label }?.value
    }
    guard let kind = child(testCase, "_kind"),
      let parameterized = Mirror(reflecting: kind).children.first?.value,
      let list = child(parameterized, "arguments")
    else { return [] }
    return Mirror(reflecting: list).children.compactMap { element in
      guard let value = child(element.value, "value"),
        let parameter = child(element.value, "parameter")
      else { return nil }
      let secondName = child(parameter, "secondName").flatMap { $0 as? String? } ?? nil
      let firstName = child(parameter, "firstName") as? String
      let label = secondName ?? firstName ?? "argument"
      return Argument(label: label, value: String(describingForTest: value))
    }
  }
}
