/// A reference's file name, `<test>.<counter or name>[.<variant>][.<extension>]`: built by the
/// engine when it locates a reference, and read back by the tools, which must refuse a name the
/// engine could not have written (a failure record may be crafted).
///
/// ```swift
/// ReferenceName(test: "testUser", identifier: "1", variant: "linux", pathExtension: "png")
///   .fileName                                                  // "testUser.1.linux.png"
/// ReferenceName(fileName: "testUser.1.linux.png", pathExtension: "png")?.variant  // "linux"
/// ```
///
/// The test and identifier parts are sanitized (``sanitizePathComponent(_:)``) and so never
/// hold a `.`; the variant may, and is everything between the identifier and the extension.
package struct ReferenceName: Hashable, Sendable {
  /// The test's name, sanitized: `testUser`.
  package var test: String
  /// The snapshot's number within its test (`"1"`), or its sanitized name.
  package var identifier: String
  /// The reference variant's name, if one was in effect.
  package var variant: String?
  /// The strategy's path extension, if it has one.
  package var pathExtension: String?

  package init(test: String, identifier: String, variant: String?, pathExtension: String?) {
    self.test = test
    self.identifier = identifier
    self.variant = variant
    self.pathExtension = pathExtension
  }

  /// The name without the strategy's extension; diff attachments are named after it.
  package var baseName: String {
    let base = "\(test).\(identifier)"
    return variant.map { "\(base).\($0)" } ?? base
  }

  /// The reference's file name.
  package var fileName: String {
    pathExtension.map { "\(baseName).\($0)" } ?? baseName
  }

  /// Reads a file name back, knowing the strategy's extension; `nil` for a name the engine could
  /// not have written (another extension, an empty or unsanitized part).
  ///
  /// - Complexity: O(n) in the length of the name.
  package init?(fileName: String, pathExtension: String?) {
    var rest = Substring(fileName)
    if let pathExtension {
      guard rest.hasSuffix("." + pathExtension) else { return nil }
      rest = rest.dropLast(pathExtension.count + 1)
    }
    guard let firstDot = rest.firstIndex(of: ".") else { return nil }
    let test = String(rest[..<firstDot])
    rest = rest[rest.index(after: firstDot)...]
    let identifier: String
    var variant: String?
    if let secondDot = rest.firstIndex(of: ".") {
      identifier = String(rest[..<secondDot])
      variant = String(rest[rest.index(after: secondDot)...])
    } else {
      identifier = String(rest)
    }
    guard !test.isEmpty, sanitizePathComponent(test) == test,
      !identifier.isEmpty, sanitizePathComponent(identifier) == identifier,
      variant.map({ !$0.isEmpty && !$0.contains("/") }) ?? true
    else { return nil }
    self.init(test: test, identifier: identifier, variant: variant, pathExtension: pathExtension)
  }
}

/// Makes a test or snapshot name safe as one path component, as upstream does: every run of
/// characters that are not letters, digits, marks or `_` becomes `-`, and a `-` at either end is
/// dropped. `"testUser()"` → `"testUser"`, `"dark mode/large"` → `"dark-mode-large"`.
package func sanitizePathComponent(_ name: String) -> String {
  var result = ""
  var inSeparatorRun = false
  for scalar in name.unicodeScalars {
    if isWordScalar(scalar) {
      result.unicodeScalars.append(scalar)
      inSeparatorRun = false
    } else if !inSeparatorRun {
      result.append("-")
      inSeparatorRun = true
    }
  }
  if result.hasPrefix("-") { result.removeFirst() }
  if result.hasSuffix("-") { result.removeLast() }
  return result
}

/// Whether a scalar is a "word" character in the sense of a regular expression's `\w`.
private func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
  let properties = scalar.properties
  if properties.isAlphabetic || properties.isJoinControl { return true }
  switch properties.generalCategory {
  case .decimalNumber, .connectorPunctuation, .nonspacingMark, .spacingMark, .enclosingMark:
    return true
  default:
    return false
  }
}
