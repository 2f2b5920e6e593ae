import Foundation

/// A type that chooses its own line in a ``Snapshotting/dump`` snapshot.
///
/// ```swift
/// struct Token: AnySnapshotStringConvertible {
///   var secret: String
///   var snapshotDescription: String { "<redacted>" }
/// }
/// ```
///
/// A `Token` then dumps as `- <redacted>`. Set ``renderChildren`` to `true` to list its
/// reflected children below that line as well.
public protocol AnySnapshotStringConvertible {
  /// Whether the dump lists the value's reflected children below its line. `false` unless a
  /// type says otherwise.
  static var renderChildren: Bool { get }

  /// The text of the value's line in a dump.
  var snapshotDescription: String { get }
}

extension AnySnapshotStringConvertible {
  /// `false`: a dump shows the value's line only.
  public static var renderChildren: Bool {
    false
  }
}

extension Character: AnySnapshotStringConvertible {
  /// The character quoted and escaped as in Swift source: `"a"`.
  public var snapshotDescription: String {
    debugDescription
  }
}

extension Data: AnySnapshotStringConvertible {
  /// The byte count, such as `13 bytes`: the bytes themselves are not diffable text.
  public var snapshotDescription: String {
    "\(count) bytes"
  }
}

extension Date: AnySnapshotStringConvertible {
  /// The instant in ISO 8601, UTC, to the second: `2001-01-01T00:00:00Z`.
  public var snapshotDescription: String {
    // A formatter per call: ISO8601DateFormatter is not safe to share across threads.
    ISO8601DateFormatter().string(from: self)
  }
}

extension NSObject: AnySnapshotStringConvertible {
  #if canImport(ObjectiveC)
    /// The object's debug description with memory addresses removed, so that it is the same on
    /// every run: `<NSObject: 0x6000…>` becomes `<NSObject>`.
    @objc open var snapshotDescription: String {
      removingAddresses(from: debugDescription)
    }
  #else
    // Without the Objective-C runtime no subclass can override a member declared in an
    // extension (`open` here only warned that it means `public`), so a subclass customises its
    // text through `debugDescription` instead. Code written against upstream compiles the same.

    /// The object's debug description with memory addresses removed, so that it is the same on
    /// every run: `<NSObject: 0x6000…>` becomes `<NSObject>`.
    public var snapshotDescription: String {
      removingAddresses(from: debugDescription)
    }
  #endif
}

extension String: AnySnapshotStringConvertible {
  /// The string quoted and escaped as in Swift source: `"Hello\n"`.
  public var snapshotDescription: String {
    debugDescription
  }
}

extension Substring: AnySnapshotStringConvertible {
  /// The substring quoted and escaped as in Swift source.
  public var snapshotDescription: String {
    debugDescription
  }
}

extension URL: AnySnapshotStringConvertible {
  /// The URL as written, with its base if it is relative.
  public var snapshotDescription: String {
    description
  }
}

/// Removes hexadecimal addresses (`0x` and lowercase hex digits) from a description, together
/// with a colon and white space just before them: `<Foo: 0x7f00ab12; x = 1>` → `<Foo; x = 1>`.
///
/// Complexity: O(*n*) in the length of `text`.
func removingAddresses(from text: String) -> String {
  let scalars = Array(text.unicodeScalars)
  var result = String.UnicodeScalarView()
  var index = 0
  while index < scalars.count {
    if let end = addressEnd(in: scalars, from: index) {
      index = end
    } else {
      result.append(scalars[index])
      index += 1
    }
  }
  return String(result)
}

/// Where an address that starts at `start` (after an optional colon and white space) ends.
private func addressEnd(in scalars: [Unicode.Scalar], from start: Int) -> Int? {
  var index = start
  if index < scalars.count, scalars[index] == ":" { index += 1 }
  while index < scalars.count, isSpace(scalars[index]) { index += 1 }
  guard index + 2 < scalars.count, scalars[index] == "0", scalars[index + 1] == "x",
    isLowercaseHexDigit(scalars[index + 2])
  else { return nil }
  index += 3
  while index < scalars.count, isLowercaseHexDigit(scalars[index]) { index += 1 }
  return index
}

private func isSpace(_ scalar: Unicode.Scalar) -> Bool {
  switch scalar.properties.generalCategory {
  case .spaceSeparator, .lineSeparator, .paragraphSeparator:
    return true
  default:
    return ["\t", "\n", "\u{0C}", "\r"].contains(scalar)
  }
}

private func isLowercaseHexDigit(_ scalar: Unicode.Scalar) -> Bool {
  ("0"..."9").contains(scalar) || ("a"..."f").contains(scalar)
}
