// Equal images: glibc's `memcmp` against the safe block loop of `Span.hasSameBytes(as:)` (a copy
// of `Sources/RunRecord/Support/SpanBytes.swift`'s, which the benchmark packages cannot import),
// on two equal RGBA8 buffers of 512² and 2048² pixels; best of 5 × 60 runs each, one thread.
//
//   swiftc -O Benchmarks/Images/equal-bytes.swift -o /tmp/equal-bytes && /tmp/equal-bytes
import Glibc
import Dispatch
extension Span where Element == UInt8 {
  @inline(never)
  func hasSameBytes(as other: Span<UInt8>) -> Bool {
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
@inline(never) func viaMemcmp(_ a: [UInt8], _ b: [UInt8]) -> Bool {
  a.withUnsafeBytes { x in b.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
}
@inline(never) func viaSpan(_ a: [UInt8], _ b: [UInt8]) -> Bool { a.span.hasSameBytes(as: b.span) }
for side in [512, 2048] {
let n = side * side * 4
let a = [UInt8](repeating: 7, count: n); let b = [UInt8](repeating: 7, count: n)
func time(_ f: ([UInt8],[UInt8]) -> Bool) -> Double {
  var best = Double.infinity
  for _ in 0..<60 { let s = DispatchTime.now().uptimeNanoseconds; precondition(f(a,b)); let e = DispatchTime.now().uptimeNanoseconds; best = min(best, Double(e-s)/1e6) }
  return best
}
var m: [Double] = [], s: [Double] = []
for _ in 0..<5 { m.append(time(viaMemcmp)); s.append(time(viaSpan)) }
print(side, "memcmp best", m.min()!, "span best", s.min()!, "ratio", s.min()!/m.min()!)
}
