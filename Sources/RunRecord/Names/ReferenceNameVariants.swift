/// What a reference's file name says about its variant when the strategy's extension is not known,
/// as for files `prune` finds on disk: the variants the engine can write.
extension ReferenceName {
  /// The names `Variant.operatingSystem` gives, one per platform.
  package static let operatingSystems = [
    "linux", "macos", "ios", "tvos", "watchos", "visionos", "windows", "android",
  ]
  /// The architectures `Variant.operatingSystemAndArchitecture` adds.
  package static let architectures = ["x86_64", "arm64"]

  /// Every name a built-in variant can give: `linux`, `linux-x86_64`, `macos-arm64`, …
  package static let builtInVariants: Set<String> = Set(
    operatingSystems + operatingSystems.flatMap { os in architectures.map { "\(os)-\($0)" } }
  )

  /// The variant part of a reference's file name, or `nil` when it has none.
  ///
  /// `testBars.1.macos.png` → `macos`. A name with four or more parts has a variant in the third;
  /// a name with three parts (`testBars.1.linux`, a strategy without an extension) has one when
  /// the third part is a built-in variant's name or one of `knownVariants`, and otherwise an
  /// extension. An extension with a dot of its own (`tar.gz`) reads as a variant: tools use this
  /// to keep files, never to delete them.
  ///
  /// - Complexity: O(n) in the length of the name.
  package static func variant(in fileName: String, knownVariants: Set<String> = []) -> String? {
    let parts = fileName.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count >= 3 else { return nil }
    let candidate = String(parts[2])
    guard !candidate.isEmpty else { return nil }
    if parts.count >= 4 { return candidate }
    return builtInVariants.contains(candidate) || knownVariants.contains(candidate)
      ? candidate : nil
  }
}
