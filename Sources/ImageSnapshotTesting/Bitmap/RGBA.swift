/// One pixel: 8-bit sRGB red, green and blue with straight (not premultiplied) alpha.
///
/// ```swift
/// let translucentRed = RGBA(red: 255, green: 0, blue: 0, alpha: 128)
/// ```
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
  /// The red component, 0...255, sRGB-encoded.
  public var red: UInt8
  /// The green component, 0...255, sRGB-encoded.
  public var green: UInt8
  /// The blue component, 0...255, sRGB-encoded.
  public var blue: UInt8
  /// The opacity, 0 (transparent) ... 255 (opaque). Not premultiplied into the colour.
  public var alpha: UInt8

  /// Creates a pixel from its four components; `alpha` defaults to opaque.
  public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// Opaque black.
  public static let black = RGBA(red: 0, green: 0, blue: 0)
  /// Opaque white.
  public static let white = RGBA(red: 255, green: 255, blue: 255)
  /// Fully transparent black.
  public static let clear = RGBA(red: 0, green: 0, blue: 0, alpha: 0)

  /// `RGBA(r, g, b, a)`, the form used in failure messages.
  public var description: String { "RGBA(\(red), \(green), \(blue), \(alpha))" }
}
