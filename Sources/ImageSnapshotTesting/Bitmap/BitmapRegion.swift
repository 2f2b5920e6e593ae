extension Bitmap {
  /// A rectangle of pixels: columns `x..<x + width`, rows `y..<y + height`, from the top-left
  /// corner.
  ///
  /// Image strategies take regions as masks, which the comparison leaves out:
  ///
  /// ```swift
  /// let clock = Bitmap.Region(x: 0, y: 0, width: 120, height: 20)
  /// assertSnapshot(of: screen, as: .image(masks: [clock]))
  /// ```
  public struct Region: Hashable, Sendable, CustomStringConvertible {
    /// The first column.
    public var x: Int
    /// The first row.
    public var y: Int
    /// The number of columns.
    public var width: Int
    /// The number of rows.
    public var height: Int

    /// A region of `width` × `height` pixels whose top-left pixel is (`x`, `y`). Any values are
    /// accepted here; an image strategy refuses a negative size and a region wholly outside the
    /// image, naming it, and clips one partly outside.
    public init(x: Int, y: Int, width: Int, height: Int) {
      self.x = x
      self.y = y
      self.width = width
      self.height = height
    }

    /// `(x: 0, y: 0, width: 120, height: 20)`, as written in a test.
    public var description: String {
      "(x: \(x), y: \(y), width: \(width), height: \(height))"
    }

    /// The part of the region inside an image of `width` × `height`, or `nil` when none is.
    /// Computed without overflow for any `Int` fields.
    func clipped(toWidth imageWidth: Int, height imageHeight: Int) -> (
      columns: Range<Int>, rows: Range<Int>
    )? {
      guard width > 0, height > 0 else { return nil }
      func span(_ start: Int, _ length: Int, within limit: Int) -> Range<Int>? {
        let (end, overflow) = start.addingReportingOverflow(length)
        let lower = max(start, 0)
        let upper = overflow ? limit : min(end, limit)
        return lower < upper ? lower..<upper : nil
      }
      guard let columns = span(x, width, within: imageWidth),
        let rows = span(y, height, within: imageHeight)
      else { return nil }
      return (columns, rows)
    }
  }
}

/// Which pixels a list of masks covers in an image of a given size.
struct MaskCoverage {
  let width: Int
  let height: Int
  /// One byte a pixel, 1 where a mask covers it; empty when no mask covers anything.
  private let covered: [UInt8]
  /// The masks' parts inside the image.
  private let spans: [(columns: Range<Int>, rows: Range<Int>)]
  /// The number of pixels covered, overlaps counted once.
  let pixelCount: Int

  /// The coverage of `masks` (each already checked to touch the image) on a `width` × `height`
  /// image.
  init(_ masks: [Bitmap.Region], width: Int, height: Int) {
    self.width = width
    self.height = height
    let spans = masks.compactMap { $0.clipped(toWidth: width, height: height) }
    self.spans = spans
    guard !spans.isEmpty else {
      covered = []
      pixelCount = 0
      return
    }
    var covered = [UInt8](repeating: 0, count: width * height)
    for span in spans {
      for row in span.rows {
        let start = row * width
        covered.replaceSubrange(
          start + span.columns.lowerBound..<start + span.columns.upperBound,
          with: repeatElement(1, count: span.columns.count)
        )
      }
    }
    self.covered = covered
    pixelCount = covered.reduce(0) { $0 + Int($1) }
  }

  /// Whether no pixel is covered.
  var isEmpty: Bool { pixelCount == 0 }

  /// Whether pixel `index` is covered.
  func covers(_ index: Int) -> Bool {
    !covered.isEmpty && covered[index] != 0
  }

  /// `new`'s bytes with every covered pixel replaced by `reference`'s, so that a comparison
  /// of the two sees the covered pixels as equal.
  func masking(_ new: [UInt8], with reference: [UInt8]) -> [UInt8] {
    guard !spans.isEmpty else { return new }
    var result = new
    for span in spans {
      for row in span.rows {
        let start = (row * width + span.columns.lowerBound) * 4
        let end = (row * width + span.columns.upperBound) * 4
        result.replaceSubrange(start..<end, with: reference[start..<end])
      }
    }
    return result
  }
}
