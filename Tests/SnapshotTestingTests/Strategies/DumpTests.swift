import Foundation
import Testing

@testable import SnapshotTesting

/// Behaviour of the text strategies beyond what upstream's output pins down: cases where upstream
/// crashes, and the helpers behind the format.
@Suite struct DumpTests {
  final class Described: CustomStringConvertible {
    var next: Described?
    var description: String { "described" }
  }

  final class SelfReflecting: CustomReflectable {
    var customMirror: Mirror { Mirror(self, children: ["me": self]) }
  }

  func dump(_ value: Any) -> String {
    var text = ""
    Snapshotting<Any, String>.dump.snapshot(value).run { text = $0 }
    return text
  }

  @Test func cycleThroughACustomDescriptionEnds() {
    let node = Described()
    node.next = node
    #expect(
      dump(node) == """
        ▿ described
          ▿ next: Optional<Described>
            ▿ some (circular reference detected)

        """
    )
  }

  @Test func cycleThroughACustomMirrorEnds() {
    #expect(
      dump(SelfReflecting()).hasSuffix("  ▿ me (circular reference detected)\n")
    )
  }

  final class Loop: CustomStringConvertible {
    var back: Owner?
    var description: String { "loop" }
  }

  final class Owner {
    var link: Loop?
  }

  @Test func mixedCycleIsCutWhereUpstreamCutsIt() {
    // Upstream does not track `Loop` (it has a custom description) but does track `Owner`, so
    // it ends this cycle at the second `Owner`; the text must be the same here.
    let owner = Owner()
    let loop = Loop()
    owner.link = loop
    loop.back = owner
    #expect(
      dump(owner) == """
        ▿ Owner
          ▿ link: Optional<Loop>
            ▿ some: loop
              ▿ back: Optional<Owner>
                ▿ some (circular reference detected)

        """
    )
  }

  @Test func addressesAreRemoved() {
    #expect(removingAddresses(from: "<Foo: 0x7f00ab12; x = 1>") == "<Foo; x = 1>")
    #expect(removingAddresses(from: "a :0x1") == "a ")
    #expect(removingAddresses(from: "keep 0xABC and 0x") == "keep 0xABC and 0x")
    #expect(removingAddresses(from: "0x0x1") == "x1")
  }

  @Test func deepNestingIsNotExponential() {
    // Upstream renders each level twice (once to sort); 40 levels would never finish there.
    struct Level { var inner: Any; var b = 1 }
    var value: Any = 0
    for _ in 0..<40 { value = Level(inner: value) }
    let lines = dump(value).split(separator: "\n")
    #expect(lines.count == 40 * 2 + 1)
  }

  @Test func invalidJSONObjectIsAMessageNotACrash() {
    var text = ""
    Snapshotting<Any, String>.json.snapshot(Date()).run { text = $0 }
    #expect(text.hasPrefix("Not a valid JSON object"))
  }

  @Test func unencodableValueIsAMessageNotACrash() {
    var text = ""
    Snapshotting<Double, String>.json.snapshot(.infinity).run { text = $0 }
    #expect(text.hasPrefix("Could not encode Double as JSON"))
  }

  @Test func dataDiffExplainsSizes() {
    let diffing = Snapshotting<Data, Data>.data.diffing
    #expect(diffing.diffV2(Data([1]), Data([1])) == nil)
    #expect(diffing.diffV2(Data([1]), Data([2]))?.0 == "Expected data to match")
    #expect(diffing.diffV2(Data([1, 2]), Data([1]))?.0 == "Expected 1 bytes to match 2 bytes")
  }

  final class Link {
    var next: Link?
    init(_ next: Link?) { self.next = next }
  }

  static func chain(_ length: Int) -> Link? {
    (0..<length).reduce(nil as Link?) { next, _ in Link(next) }
  }

  /// What the thread of ``theDeepestValueIsWrittenOnASmallStack()`` leaves.
  final class ThreadResult: @unchecked Sendable {
    var text = ""
    var reason: String?
  }

  /// The deepest value `.dump` writes needs no more stack than a shallow one: it is written on
  /// a thread with a 512 KiB stack. When each level was a call (a few kilobytes each in a debug
  /// build), this overflowed that stack and killed the test process.
  @Test func theDeepestValueIsWrittenOnASmallStack() {
    let result = ThreadResult()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      // Made, written and freed on the small stack; freed a link at a time.
      var chain = Self.chain(TreeDumper.maximumDepth / 2)
      (result.text, result.reason) = UnavailableSnapshot.collecting {
        var text = ""
        Snapshotting<Link?, String>.dump.snapshot(chain).run { text = $0 }
        return text
      }
      while let link = chain {
        chain = link.next
        link.next = nil
      }
      done.signal()
    }
    thread.stackSize = 512 << 10
    thread.start()
    done.wait()
    #expect(result.reason == nil)
    #expect(result.text.split(separator: "\n").count == TreeDumper.maximumDepth + 1)
  }

  @Test func aValueNestedDeeperThanTheLimitFailsInsteadOfCrashing() throws {
    // Each Link is two levels (the optional, then the class).
    let (text, withinLimit) = UnavailableSnapshot.collecting {
      var text = ""
      Snapshotting<Link?, String>.dump.snapshot(Self.chain(TreeDumper.maximumDepth / 2)).run {
        text = $0
      }
      return text
    }
    #expect(withinLimit == nil)
    #expect(text.split(separator: "\n").count == TreeDumper.maximumDepth + 1)

    let (_, tooDeep) = UnavailableSnapshot.collecting {
      Snapshotting<Link?, String>.dump.snapshot(Self.chain(5_000)).run { _ in }
    }
    #expect(tooDeep?.hasPrefix("The value is nested more than 1000 levels deep") == true)
  }
}
