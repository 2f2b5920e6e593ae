import Foundation

/// What re-encoding a PNG file would give.
package struct PNGOptimization: Equatable, Sendable {
  /// The size of the file as it is.
  package var originalSize: Int
  /// The smallest encoding of its pixels, checked to decode to the same samples at full depth.
  package var optimized: Data

  /// Whether the file would shrink.
  package var shrinks: Bool { optimized.count < originalSize }
  /// The bytes it would lose (zero or negative when it would not shrink).
  package var savedBytes: Int { originalSize - optimized.count }
}

/// Why a file is left as it is: re-encoding it would lose something that is more than its
/// 8-bit pixels.
package enum PNGKeptReason: Equatable, Sendable {
  /// 16-bit samples whose low byte is not a copy of the high byte, which 8 bits cannot hold.
  case sixteenBitSamples
  /// An animated PNG (APNG): only its default image would be kept.
  case animation
  /// Chunks that change how the pixels are shown (gamma, colours, size, orientation…) or that
  /// this package does not know, by type, each once, in file order.
  case meaningfulChunks([String])

  /// The reason in words, for a line of the `optimize` command's output.
  package var description: String {
    switch self {
    case .sixteenBitSamples:
      return "16-bit samples that 8 bits cannot hold (the new file would lose their low bytes)"
    case .animation:
      return "an animated PNG (APNG): its frames would be lost"
    case .meaningfulChunks(let types):
      let named = types.map { type in
        PNGOptimizer.chunkMeanings[type].map { "\(type) (\($0))" } ?? type
      }
      let list = named.joined(separator: ", ")
      return "\(types.count == 1 ? "a chunk" : "chunks") the new file would drop: \(list)"
    }
  }
}

/// What ``PNGOptimizer/optimize(_:)`` decided for one file.
package enum PNGOptimizationOutcome: Equatable, Sendable {
  /// The pixels re-encoded; whether that shrinks the file is for the caller to see.
  case optimized(PNGOptimization)
  /// Not re-encoded, and why.
  case kept(PNGKeptReason)
}

/// Recompresses existing PNG files without losing anything: pixels at full depth, animation, or
/// chunks that change how the image is shown.
package enum PNGOptimizer {
  /// The ancillary chunks a re-encoding may drop: text, a modification time, and Apple's `iDOT`
  /// (an index into the old IDAT chunks, meaningless once they are rewritten). None changes the
  /// pixels or how they are shown. Every other chunk but the critical ones (IHDR, PLTE, IDAT,
  /// IEND) and `tRNS` (whose transparency is part of the pixels) keeps the file as it is.
  package static let droppableChunks: Set<String> = ["tEXt", "zTXt", "iTXt", "tIME", "iDOT"]

  /// What the chunks that keep a file as it is mean, for the message that names them.
  static let chunkMeanings: [String: String] = [
    "gAMA": "gamma", "cHRM": "chromaticities", "iCCP": "colour profile",
    "sRGB": "sRGB rendering intent", "cICP": "colour space", "mDCV": "mastering display",
    "cLLI": "content light level", "sBIT": "significant bits", "pHYs": "pixel size",
    "bKGD": "background colour", "eXIf": "Exif data, which may rotate the image",
    "hIST": "palette histogram", "sPLT": "suggested palette", "PLTE": "suggested palette",
  ]

  /// The APNG chunks: animation control, frame control, frame data.
  static let animationChunks: Set<String> = ["acTL", "fcTL", "fdAT"]

  /// Decodes `data`, encodes the pixels with ``PNGEncoder/smallest(rgba:width:height:)``, decodes
  /// both files at full depth (16-bit RGBA) and compares every sample.
  ///
  /// A file is kept (``PNGOptimizationOutcome/kept(_:)``) when it is an APNG, when it has a
  /// chunk other than the critical ones, `tRNS` and ``droppableChunks`` (a `PLTE` in a truecolour
  /// image is such a chunk: a suggested palette), or when its 16-bit samples differ from the new
  /// file's 8-bit ones widened (0xAB as 0xABAB): the new file would lose something.
  ///
  /// - Throws: ``PNGCodecError``: the file's own decoding error, or
  ///   ``PNGCodecError/pixelsChanged`` if a file of at most 8 bits a sample does not give the
  ///   same samples back.
  /// - Complexity: O(*n*) in the number of pixels, the cost of three decodings and an encoding.
  package static func optimize(_ data: Data) throws(PNGCodecError) -> PNGOptimizationOutcome {
    let original = try PNGDecoder.decode(data)
    guard let chunks = PNGChunkList(data) else {
      throw .invalid(reason: "the chunks could not be read")
    }
    if chunks.types.contains(where: animationChunks.contains) { return .kept(.animation) }
    let isPalette = data.count > 25 && data[data.startIndex + 25] == 3
    var meaningful: [String] = []
    for type in chunks.types where !meaningful.contains(type) {
      switch type {
      case "IHDR", "IDAT", "IEND", "tRNS": continue
      case "PLTE" where isPalette: continue
      case _ where droppableChunks.contains(type): continue
      default: meaningful.append(type)
      }
    }
    guard meaningful.isEmpty else { return .kept(.meaningfulChunks(meaningful)) }

    let optimized = try PNGEncoder.smallest(
      rgba: original.bytes, width: original.width, height: original.height)
    let before = try PNGDecoder.decodeFullDepth(data)
    let after = try PNGDecoder.decodeFullDepth(optimized)
    guard before == after else {
      if chunks.bitDepth == 16 { return .kept(.sixteenBitSamples) }
      throw .pixelsChanged
    }
    return .optimized(PNGOptimization(originalSize: data.count, optimized: optimized))
  }
}
