import CZlib

/// One zlib inflater (`CZlib`), owned: opened with the format, closed exactly once when the
/// owner goes.
///
/// This file is the HTTP module's one owner of unsafe code: zlib reads and writes through
/// pointers, so a step lends it the input's and the output's memory for the call, and the
/// inflater's handle is a C pointer. Everything else decodes through ``step(_:into:)``, whose
/// interface is arrays and counts.
struct ZlibStream: ~Copyable {
  /// What one step ended with.
  enum Status: Equatable {
    /// Input was read or output written; step again.
    case progress
    /// The stream (a gzip member, a zlib stream, raw DEFLATE data) ended.
    case end
    /// The input ended inside the stream.
    case needsInput
    case needsDictionary
    /// Data the format does not allow, or a checksum that does not match, in zlib's words.
    case dataError(String)
    case outOfMemory
  }

  private let inflater: OpaquePointer

  /// An inflater for zlib's `windowBits` (31: gzip; 15: zlib; -15: raw DEFLATE), or `nil` when
  /// zlib cannot make one (out of memory).
  init?(windowBits: Int32) {
    guard let inflater = czlib_inflater_open(windowBits) else { return nil }
    self.inflater = inflater
  }

  deinit {
    czlib_inflater_close(inflater)
  }

  /// Starts the next stream of the same format (a gzip body's next member).
  func reset() -> Bool {
    czlib_inflater_reset(inflater) == 0
  }

  /// Decodes from `input` into the start of `output` (whose count is the room it gives).
  func step(
    _ input: ArraySlice<UInt8>,
    into output: inout [UInt8]
  ) -> (status: Status, consumed: Int, produced: Int) {
    var consumed = 0
    var produced = 0
    let result = input.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { output in
        czlib_inflate(
          inflater, input.baseAddress, input.count, output.baseAddress, output.count,
          &consumed, &produced
        )
      }
    }
    let status: Status
    switch result {
    case CZLIB_PROGRESS: status = .progress
    case CZLIB_END: status = .end
    case CZLIB_NEEDS_INPUT: status = .needsInput
    case CZLIB_NEEDS_DICTIONARY: status = .needsDictionary
    case CZLIB_OUT_OF_MEMORY: status = .outOfMemory
    default: status = .dataError(czlib_message(inflater).map { String(cString: $0) } ?? "")
    }
    return (status, consumed, produced)
  }
}
