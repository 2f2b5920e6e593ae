extension String {
  /// A string of bytes its caller made valid UTF-8 by construction, copied without validating
  /// them again where the standard library allows it (`UTF8Span(unchecked:)`, Swift 6.2 and
  /// later); elsewhere decoded, which validates.
  ///
  /// Validating a text that holds a few multi-byte characters costs a tenth to a fifth of
  /// writing it (the standard library's all-ASCII fast path no longer applies), which is what
  /// the canonical HTML and the transcript's text skip. The caller states why its bytes are
  /// valid; debug builds, the tests' included, check it.
  package init(copyingValidUTF8 bytes: UnsafeBufferPointer<UInt8>) {
    // Decoding repairs what is not UTF-8: the same bytes come back only from valid UTF-8.
    assert(
      String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes),
      "The bytes are not valid UTF-8"
    )
    #if compiler(>=6.2)  // `UTF8Span` came with Swift 6.2; the package builds with 6.0.
      if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
        self = unsafe String(copying: UTF8Span(unchecked: bytes.span))
        return
      }
    #endif
    self = String(decoding: bytes, as: UTF8.self)
  }

  /// The bytes of an array its caller made valid UTF-8 by construction, copied as the buffer's
  /// initializer above copies them: the safe way in for modules that keep their text in an
  /// array.
  package init(copyingValidUTF8 bytes: [UInt8]) {
    self = bytes.withUnsafeBufferPointer { String(copyingValidUTF8: $0) }
  }
}
