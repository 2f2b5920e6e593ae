import RunRecord

extension SnapshotTestingConfiguration {
  /// A second name for the same assertion's reference, so that platforms whose snapshots
  /// legitimately differ keep references of their own.
  ///
  /// The variant goes into the reference's file name before the extension:
  /// `<test>.<counter or name>.<variant>.<ext>`. With no variant (the default) the file names
  /// are unchanged.
  ///
  /// ```swift
  /// @Suite(.snapshots(variant: .operatingSystem))
  /// struct ChartTests { ... }                                   // testBars.1.linux.png
  ///
  /// withSnapshotTesting(variant: .operatingSystemAndArchitecture) {
  ///   assertSnapshot(of: chart, as: .image)                     // testBars.1.linux-x86_64.png
  /// }
  ///
  /// withSnapshotTesting(variant: .custom("fr_FR")) {
  ///   assertSnapshot(of: summary, as: .lines)                   // testBars.1.fr_FR.txt
  /// }
  /// ```
  ///
  /// The `SNAPSHOT_TESTING_VARIANT` environment variable names a custom variant for a whole run;
  /// a scope or trait takes precedence over it.
  public struct Variant: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
      case operatingSystem
      case operatingSystemAndArchitecture
      case custom(String)
    }

    let kind: Kind

    /// The operating system the tests run on: `linux`, `macos`, `ios`, `tvos`, `watchos`,
    /// `visionos`, `windows` or `android`.
    public static let operatingSystem = Self(kind: .operatingSystem)

    /// The operating system and the processor architecture, joined by `-`: `linux-x86_64`,
    /// `macos-arm64`.
    public static let operatingSystemAndArchitecture = Self(kind: .operatingSystemAndArchitecture)

    /// A variant of your choosing, such as a locale (`"fr_FR"`) or a theme (`"dark"`).
    ///
    /// The name becomes part of a file name as it is: it must not be empty, and must not contain
    /// `/`, `\`, `..`, whitespace or control characters, or begin or end with `.`. An assertion
    /// with an invalid name fails and writes nothing.
    public static func custom(_ name: String) -> Self { Self(kind: .custom(name)) }

    /// The name that goes into the reference's file name.
    public var name: String {
      switch kind {
      case .operatingSystem: return Self.operatingSystemName
      case .operatingSystemAndArchitecture:
        return "\(Self.operatingSystemName)-\(Self.architectureName)"
      case .custom(let name): return name
      }
    }

    /// The variant's name, as in the file name.
    public var description: String { name }

    /// The operating system this code was compiled for.
    static var operatingSystemName: String {
      #if os(macOS)
        return "macos"
      #elseif os(visionOS)
        return "visionos"
      #elseif os(iOS)
        return "ios"
      #elseif os(tvOS)
        return "tvos"
      #elseif os(watchOS)
        return "watchos"
      #elseif os(Windows)
        return "windows"
      #elseif os(Android)
        return "android"
      #elseif os(Linux)
        return "linux"
      #else
        return "unknown"
      #endif
    }

    /// The processor architecture this code was compiled for.
    static var architectureName: String {
      #if arch(x86_64)
        return "x86_64"
      #elseif arch(arm64)
        return "arm64"
      #elseif arch(i386)
        return "i386"
      #elseif arch(arm)
        return "arm"
      #else
        return "unknown"
      #endif
    }
  }
}

/// A variant whose name cannot be part of a file name.
package struct VariantNameError: Error, CustomStringConvertible, Equatable {
  /// The variant's name, as given.
  package var name: String
  /// Where it was set: a scope or trait, or the environment variable.
  package var source: VariantSource
  /// What is wrong with it.
  var problem: String

  package var description: String {
    let subject: String
    switch source {
    case .scope: subject = "The reference variant \"\(name)\""
    case .environment:
      subject = "SNAPSHOT_TESTING_VARIANT is set to \"\(name)\", which"
    }
    return """
      \(subject) cannot name a reference file: it \(problem). A variant becomes part of the file \
      name (<test>.<id>.<variant>.<ext>), so it must be non-empty and contain no "/", "\\", "..", \
      whitespace or control characters, and not begin or end with ".". Nothing was written.
      """
  }
}

/// Where the variant in effect was set.
package enum VariantSource: Equatable, Sendable {
  /// `withSnapshotTesting(variant:)` or the `.snapshots(variant:)` trait.
  case scope
  /// `SNAPSHOT_TESTING_VARIANT`.
  case environment
}

/// The variant an assertion uses, checked to be usable in a file name.
package struct ResolvedVariant: Equatable, Sendable {
  package var name: String
  package var source: VariantSource
}

/// Resolves the variant, highest precedence first: the innermost scope or trait that set one,
/// then `SNAPSHOT_TESTING_VARIANT`, then none. Throws when the name in effect cannot be part of a
/// file name. A pure function of its inputs.
package func resolveVariant(
  scoped: SnapshotTestingConfiguration.Variant?,
  environment: RunEnvironment
) throws(VariantNameError) -> ResolvedVariant? {
  let resolved: ResolvedVariant
  if let scoped {
    resolved = ResolvedVariant(name: scoped.name, source: .scope)
  } else if let name = environment[.variant] {
    resolved = ResolvedVariant(name: name, source: .environment)
  } else {
    return nil
  }
  if let problem = variantNameProblem(resolved.name) {
    throw VariantNameError(name: resolved.name, source: resolved.source, problem: problem)
  }
  return resolved
}

/// What makes `name` unusable as a file name's variant part, or `nil` if it is usable.
func variantNameProblem(_ name: String) -> String? {
  if name.isEmpty { return "is empty" }
  if name.contains("/") || name.contains("\\") { return "contains a path separator" }
  if name.contains("..") { return "contains \"..\"" }
  for scalar in name.unicodeScalars {
    if scalar.properties.isWhitespace { return "contains whitespace" }
    if scalar.properties.generalCategory == .control { return "contains a control character" }
  }
  if name.hasPrefix(".") || name.hasSuffix(".") { return "begins or ends with \".\"" }
  return nil
}
