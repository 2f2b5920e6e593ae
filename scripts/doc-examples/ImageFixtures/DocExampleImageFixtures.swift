// The images the documentation's examples use without declaring them, for the examples whose
// article installs the image or web product. Only `scripts/check-doc-examples.sh` builds this.

import ImageSnapshotTesting

/// A chart the user's code renders into pixels.
public struct Chart: Sendable {
  public init() {}
  public func renderBitmap() -> Bitmap { bitmap }
}

public func renderChart() -> Bitmap { bitmap }

public var bitmap: Bitmap {
  // A 2×1 image cannot fail to be made.
  try! Bitmap(width: 2, height: 1, filledWith: .white)
}

/// A rendered chart, as the image strategies snapshot it.
public var chart: Bitmap { renderChart() }
