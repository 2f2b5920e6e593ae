extension Span where Element == UInt8 {
  /// Whether `other` holds the same bytes, as `memcmp` would say, in safe code.
  ///
  /// Compared a block of 4 KiB at a time with no branch inside a block, which the optimiser
  /// turns into vector code; a difference ends the walk at the end of its block.
  ///
  /// - Complexity: O(*n*) in the count.
  @inlinable
  package func hasSameBytes(as other: Span<UInt8>) -> Bool {
    let count = self.count
    guard other.count == count else { return false }
    let block = 4096
    var start = 0
    while start < count {
      let end = Swift.min(start &+ block, count)
      var difference: UInt8 = 0
      for index in start..<end { difference |= self[index] ^ other[index] }
      if difference != 0 { return false }
      start = end
    }
    return true
  }
}
