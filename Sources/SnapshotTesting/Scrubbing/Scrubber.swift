import Foundation

/// A transformation of a text snapshot that replaces what changes from run to run (an identifier,
/// a timestamp, an address, a path) with something stable, before the text is compared, recorded,
/// diffed, attached or written inline.
///
/// Use the built-ins (``uuids``, ``iso8601Dates``, ``memoryAddresses``, and the two
/// `replacing(_:with:)`, for a literal and a regex) with `.scrubbing(...)`, or write one:
///
/// ```swift
/// extension Scrubber {
///   static let buildNumbers = Scrubber("buildNumbers") { text in
///     text.replacingOccurrences(of: Bundle.main.buildNumber, with: "<build>")
///   }
/// }
/// assertSnapshot(of: about, as: .lines.scrubbing(.buildNumbers))
/// ```
///
/// A scrubber that throws fails the assertion with a message that names it; nothing is written.
public struct Scrubber: Sendable {
  /// The name failure messages use for this scrubber (`"uuids"`, or the one you gave).
  public let name: String

  private let transform: @Sendable (String) throws -> String

  /// Whether this is one of the built-in identity scrubbers (``uuids``, ``iso8601Dates``,
  /// ``memoryAddresses``), which the scrubbing pass can tell kept a JSON text valid without
  /// parsing it (see `ScrubbingPass.identitiesKeptJSONValid`).
  let replacesIdentities: Bool

  /// Creates a scrubber from a name, used in failure messages, and a transformation of the text.
  ///
  /// - Parameters:
  ///   - name: How failure messages refer to the scrubber.
  ///   - transform: Returns the scrubbed text; it may throw to fail the assertion.
  public init(_ name: String, _ transform: @escaping @Sendable (_ text: String) throws -> String) {
    self.init(name, replacesIdentities: false, transform)
  }

  init(
    _ name: String,
    replacesIdentities: Bool,
    _ transform: @escaping @Sendable (_ text: String) throws -> String
  ) {
    self.name = name
    self.replacesIdentities = replacesIdentities
    self.transform = transform
  }

  /// Scrubs `text`.
  public func scrub(_ text: String) throws -> String {
    try transform(text)
  }

  /// Replaces every occurrence of `literal` with `replacement`, comparing bytes, not Unicode
  /// equivalence. An empty `literal` changes nothing.
  ///
  /// ```swift
  /// let temporary = NSTemporaryDirectory()
  /// assertSnapshot(of: report, as: .lines.scrubbing(.replacing(temporary, with: "$TMP/")))
  /// // "/tmp/run-42/out.txt"  →  "$TMP/run-42/out.txt"
  /// ```
  ///
  /// Complexity: O(*n*) in the length of the text for typical literals.
  public static func replacing(_ literal: String, with replacement: String) -> Self {
    Self("replacing(\"\(literal)\")") { text in
      guard !literal.isEmpty else { return text }
      return text.replacingOccurrences(of: literal, with: replacement, options: .literal)
    }
  }

  /// Replaces every match of `regex` with `replacement`, taken literally.
  ///
  /// ```swift
  /// let durations = Scrubber.replacing(#/took \d+ ms/#, with: "took <duration>")
  /// assertSnapshot(of: log, as: .lines.scrubbing(durations))
  /// // "took 132 ms"  →  "took <duration>"
  /// ```
  ///
  /// Swift's `Regex` is slow on large texts on Linux; prefer the built-in scanners or a literal
  /// where they fit.
  public static func replacing<R: RegexComponent>(_ regex: R, with replacement: String) -> Self {
    // `Regex` values are immutable; matching with one from several tasks is safe.
    let regex = UncheckedSendable(Regex<AnyRegexOutput>(regex.regex))
    return Self("replacing(regex)") { text in
      text.replacing(regex.value, with: replacement)
    }
  }
}
