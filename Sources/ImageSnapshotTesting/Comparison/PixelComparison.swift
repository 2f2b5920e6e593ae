import RunRecord

/// What one pass over two equally sized pixel buffers found.
struct PixelComparisonTally: Equatable {
  var differingPixelCount = 0
  var failingPixelCount = 0
  /// Pixels that failed the colour comparison but were forgiven as anti-aliasing.
  var antialiasedPixelCount = 0
  /// The largest ΔE\*94 of the differing pixels, forgiven ones left out.
  var maximumDeltaE = 0.0

  /// Adds the counts of `other`, a tally of other pixels, and keeps the larger maximum.
  mutating func add(_ other: PixelComparisonTally) {
    differingPixelCount += other.differingPixelCount
    failingPixelCount += other.failingPixelCount
    antialiasedPixelCount += other.antialiasedPixelCount
    maximumDeltaE = max(maximumDeltaE, other.maximumDeltaE)
  }
}

/// The pixel comparison's entry points: on arrays of RGBA8 bytes, with no pointer in sight.
enum PixelComparison {
  /// Whether two byte buffers are identical: the whole cost of comparing equal images, the
  /// common case. In vector code as fast as `memcmp` on images (`Span.hasSameBytes(as:)`).
  static func bytesAreEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    lhs.span.hasSameBytes(as: rhs.span)
  }

  /// Compares two RGBA8 buffers of the same size pixel by pixel.
  ///
  /// Only pixels whose bytes differ are converted to CIELAB. A differing pixel fails when its
  /// ΔE\*94 exceeds `tolerance`, or always when `tolerance` is `nil` (byte-exact comparison).
  /// ``ComparisonPass`` describes how; large images are split across the cores as `threading`
  /// allows, with the same result.
  ///
  /// - Parameter antialiasing: When given, failing pixels it finds anti-aliased are forgiven:
  ///   counted apart, and left out of the largest ΔE\*94. Its pointers must stay valid until
  ///   this returns.
  /// - Complexity: O(*n*) in the number of pixels, divided among the cores for large images.
  static func compare(
    reference: [UInt8],
    new: [UInt8],
    tolerance: Double?,
    threading: PixelComparisonThreading = .automatic,
    antialiasing: Antialiasing? = nil
  ) -> PixelComparisonTally {
    compare(
      reference,
      new,
      tolerance: tolerance,
      threading: threading,
      antialiasing: antialiasing,
      map: nil
    )
  }

  /// ``compare(reference:new:tolerance:threading:antialiasing:)``, recording in `map`, in the
  /// same pass, each pixel's verdict and ΔE\*94.
  ///
  /// - Parameter map: A fresh map of at least as many pixels as the buffers.
  static func compare(
    reference: [UInt8],
    new: [UInt8],
    tolerance: Double?,
    threading: PixelComparisonThreading = .automatic,
    antialiasing: Antialiasing? = nil,
    recordingInto map: borrowing PixelDifferenceMap
  ) -> PixelComparisonTally {
    // The pass writes through the map's pointers: a smaller map would be written past its end.
    precondition(map.pixelCount >= min(reference.count, new.count) / 4, "The map is too small")
    return compare(
      reference,
      new,
      tolerance: tolerance,
      threading: threading,
      antialiasing: antialiasing,
      map: map.recorder
    )
  }

  private static func compare(
    _ reference: [UInt8],
    _ new: [UInt8],
    tolerance: Double?,
    threading: PixelComparisonThreading,
    antialiasing: Antialiasing?,
    map: PixelDifferenceMap.Recorder?
  ) -> PixelComparisonTally {
    if let antialiasing {
      precondition(
        antialiasing.width * antialiasing.height == min(reference.count, new.count) / 4,
        "The anti-aliasing test is for images of another size"
      )
    }
    let pixelCount = min(reference.count, new.count) / 4
    return ComparisonPass.compare(
      reference,
      new,
      pixelCount: pixelCount,
      tolerance: tolerance,
      rangeCount: threading.rangeCount(pixelCount: pixelCount),
      map: map,
      antialiasing: antialiasing
    )
  }
}
