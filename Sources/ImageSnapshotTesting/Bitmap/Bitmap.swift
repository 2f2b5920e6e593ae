import PNGCodec

/// A raster image in memory: 8-bit RGBA pixels with straight alpha in sRGB, stored row by row
/// from the top-left corner.
///
/// `Bitmap` is the format of the image snapshot strategies. Make one from whatever your code
/// renders, then snapshot it:
///
/// ```swift
/// var bitmap = try Bitmap(width: 2, height: 1, filledWith: .white)
/// bitmap[x: 1, y: 0] = RGBA(red: 255, green: 0, blue: 0)
/// assertSnapshot(of: bitmap, as: .image)
/// ```
public struct Bitmap: Equatable, Sendable, CustomStringConvertible {
  /// The widest or tallest image accepted: 65,536 pixels.
  public static let maximumSide = PNGLimits.maximumSide
  /// The most pixels accepted in one image: 2²⁶ (67,108,864 pixels, 256 MiB of RGBA, an
  /// 8192×8192 image). A PNG header announcing more is refused before memory is allocated.
  public static let maximumPixelCount = PNGLimits.maximumPixelCount

  /// The number of columns.
  public let width: Int
  /// The number of rows.
  public let height: Int
  /// The pixels' bytes, `width × height × 4` of them: red, green, blue, alpha for each pixel,
  /// rows from top to bottom, pixels left to right.
  public private(set) var rgbaBytes: [UInt8]

  /// Set only on the placeholder that a snapshot strategy's `fromData` returns for a reference it
  /// cannot decode (`fromData` cannot throw). The image diffing reports it instead of comparing.
  let decodingFailure: BitmapError?

  /// Creates a bitmap from raw RGBA bytes.
  ///
  /// - Parameters:
  ///   - width: The number of columns, at least 1.
  ///   - height: The number of rows, at least 1.
  ///   - rgbaBytes: Exactly `width × height × 4` bytes, in ``rgbaBytes``' layout.
  /// - Throws: ``BitmapError`` when a size is not positive or too large, or the byte count is
  ///   wrong.
  public init(width: Int, height: Int, rgbaBytes: [UInt8]) throws {
    try Self.validate(width: width, height: height)
    guard rgbaBytes.count == width * height * 4 else {
      throw BitmapError.byteCountMismatch(width: width, height: height, byteCount: rgbaBytes.count)
    }
    self.init(validWidth: width, height: height, rgbaBytes: rgbaBytes)
  }

  /// Creates a bitmap whose every pixel is `color`.
  ///
  /// - Throws: ``BitmapError`` when a size is not positive or too large.
  public init(width: Int, height: Int, filledWith color: RGBA = .clear) throws {
    try Self.validate(width: width, height: height)
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    var index = 0
    while index < bytes.count {
      bytes[index] = color.red
      bytes[index + 1] = color.green
      bytes[index + 2] = color.blue
      bytes[index + 3] = color.alpha
      index += 4
    }
    self.init(validWidth: width, height: height, rgbaBytes: bytes)
  }

  /// Creates a bitmap by asking for the colour of each pixel, row by row.
  ///
  /// ```swift
  /// let gradient = try Bitmap(width: 256, height: 1) { x, _ in
  ///   RGBA(red: UInt8(x), green: 0, blue: 0)
  /// }
  /// ```
  ///
  /// - Throws: ``BitmapError`` when a size is not positive or too large.
  public init(width: Int, height: Int, pixel: (_ x: Int, _ y: Int) -> RGBA) throws {
    try self.init(width: width, height: height, filledWith: .clear)
    for y in 0..<height {
      for x in 0..<width {
        self[x: x, y: y] = pixel(x, y)
      }
    }
  }

  /// A bitmap from bytes already known to hold `width × height` pixels (the web module's
  /// stand-in for a snapshot it could not take uses it too).
  package init(
    validWidth width: Int,
    height: Int,
    rgbaBytes: [UInt8],
    decodingFailure: BitmapError? = nil
  ) {
    self.width = width
    self.height = height
    self.rgbaBytes = rgbaBytes
    self.decodingFailure = decodingFailure
  }

  /// A 1×1 transparent stand-in for a reference that could not be decoded, carrying the reason.
  static func undecodable(_ failure: BitmapError) -> Bitmap {
    Bitmap(validWidth: 1, height: 1, rgbaBytes: [0, 0, 0, 0], decodingFailure: failure)
  }

  static func validate(width: Int, height: Int) throws {
    guard width > 0, height > 0 else {
      throw BitmapError.invalidSize(width: width, height: height)
    }
    guard width <= maximumSide, height <= maximumSide, width * height <= maximumPixelCount else {
      throw BitmapError.tooLarge(width: width, height: height)
    }
  }

  /// The number of pixels, `width × height`.
  public var pixelCount: Int { width * height }

  /// The pixel at column `x` and row `y`, counted from the top-left corner.
  ///
  /// Like an array's subscript, it stops the program for a position outside the image; use
  /// ``pixel(x:y:)`` to test a position that may be outside.
  public subscript(x x: Int, y y: Int) -> RGBA {
    get {
      let offset = byteOffset(x: x, y: y)
      return RGBA(
        red: rgbaBytes[offset],
        green: rgbaBytes[offset + 1],
        blue: rgbaBytes[offset + 2],
        alpha: rgbaBytes[offset + 3]
      )
    }
    set {
      let offset = byteOffset(x: x, y: y)
      rgbaBytes[offset] = newValue.red
      rgbaBytes[offset + 1] = newValue.green
      rgbaBytes[offset + 2] = newValue.blue
      rgbaBytes[offset + 3] = newValue.alpha
    }
  }

  /// The pixel at column `x` and row `y`, or `nil` when the position is outside the image.
  public func pixel(x: Int, y: Int) -> RGBA? {
    guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
    return self[x: x, y: y]
  }

  private func byteOffset(x: Int, y: Int) -> Int {
    precondition(
      (0..<width).contains(x) && (0..<height).contains(y),
      "Pixel (\(x), \(y)) is outside the \(width)×\(height) bitmap"
    )
    return (y * width + x) * 4
  }

  /// `Bitmap(width×height)`.
  public var description: String { "Bitmap(\(width)×\(height))" }
}
