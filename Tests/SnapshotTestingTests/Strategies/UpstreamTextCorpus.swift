// The values whose text this package must render exactly like upstream swift-snapshot-testing.
//
// This file is compiled twice: by the test target, and (through the symbolic link
// `__Fixtures__/UpstreamText/generator/Corpus.swift`) by the generator that renders it with
// upstream 1.19.7. `UpstreamTextTests` fails when a case has no fixture or a fixture no case.
// Avoid values whose text names the module (plain classes under `.description`, types without a
// display style) — the module differs between the two builds.

import Foundation
import SnapshotTesting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One value rendered by one strategy: the bytes its reference file would hold.
struct UpstreamTextCase {
  var name: String
  /// The strategy's path extension, or `nil` when the reference has none.
  var pathExtension: String?
  /// Renders the snapshot and encodes it as the reference file's bytes.
  var render: () -> Data

  init<Value, Format>(_ name: String, _ value: Value, as strategy: Snapshotting<Value, Format>) {
    self.name = name
    self.pathExtension = strategy.pathExtension
    self.render = {
      var bytes = Data()
      strategy.snapshot(value).run { bytes = strategy.diffing.toData($0) }
      return bytes
    }
  }

  /// The reference file's name inside the fixture folder.
  var fileName: String {
    pathExtension.map { "\(name).\($0)" } ?? name
  }
}

enum UpstreamTextCorpus {
  struct User: Encodable { let id: Int, name: String, bio: String }
  struct Person: Hashable { let name: String, age: Int }
  struct Empty {}
  struct Generic<T> { var value: T }
  enum Shape {
    case point
    case circle(Double)
    case rect(width: Int, height: Int)
    case pair(Int, Int)
    case user(User)
    case maybe(Int?)
  }
  enum Direction: String, CaseIterable {
    case up, down, left, right
    var rotatedLeft: Direction {
      switch self {
      case .up: return .left
      case .down: return .right
      case .left: return .down
      case .right: return .up
      }
    }
  }
  indirect enum Tree { case leaf, node(Tree, Tree) }
  final class Account {
    var owner = "Blob"
    var balance: Double? = 42.5
    var tags: [String] = []
  }
  final class Savings {
    var rate = 0.02
    var account = Account()
  }
  final class Father {
    var child: Child?
  }
  final class Child {
    let father: Father
    init(_ father: Father) {
      self.father = father
      father.child = self
    }
  }
  final class Ring {
    var name: String
    var next: Ring?
    init(_ name: String) { self.name = name }
  }
  final class Group {
    var members: Set<Member> = []
  }
  final class Member: Hashable {
    var name: String
    var group: Group?
    init(_ name: String, _ group: Group?) {
      self.name = name
      self.group = group
    }
    static func == (lhs: Member, rhs: Member) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
  }
  struct Described: CustomStringConvertible {
    var count = 2
    var description: String { "Described(\(count))" }
  }
  struct DebugOnly: CustomDebugStringConvertible {
    var count = 3
    var debugDescription: String { "DebugOnly!" }
  }
  struct MultilineDescription: CustomStringConvertible {
    var description: String { "first line\nsecond line" }
  }
  enum Mood: CustomStringConvertible {
    case happy, sad(Int)
    var description: String { "a mood" }
  }
  struct Redacted: AnySnapshotStringConvertible {
    var secret = "hunter2"
    var snapshotDescription: String { "<redacted>" }
  }
  struct Summary: AnySnapshotStringConvertible {
    var b = [1, 2]
    var a = "z"
    static var renderChildren: Bool { true }
    var snapshotDescription: String { "Summary of two" }
  }
  final class Pointer: NSObject {
    let text: String
    init(_ text: String) { self.text = text }
    override var debugDescription: String { text }
  }
  struct Labelled: CustomReflectable {
    var customMirror: Mirror {
      Mirror(
        self,
        children: [
          (label: "b" as String?, value: 1 as Any),
          (label: "a b", value: 2),
          (label: "a", value: [3]),
          (label: "\u{7f}", value: 4),
          (label: nil, value: 5),
          (label: "a0", value: 6),
        ],
        displayStyle: .struct
      )
    }
  }
  struct Unlabelled: CustomReflectable {
    var customMirror: Mirror {
      Mirror(
        self,
        unlabeledChildren: [[9], 10, "a", Optional<Int>.none as Any],
        displayStyle: .struct
      )
    }
  }
  /// Reflects as another value: its mirror's subject type is `User`, not `Wrapper`.
  struct Wrapper: CustomReflectable {
    var customMirror: Mirror {
      Mirror(reflecting: User(id: 2, name: "Wrapped", bio: ""))
    }
  }
  struct Order: Codable {
    struct Line: Codable {
      var sku: String
      var quantity: Int
      var price: Double
    }
    var id: UUID
    var lines: [Line]
    var note: String?
    var placedAt: Date
    var flags: [String: Bool]
    var total: Decimal
  }

  static var order: Order {
    Order(
      id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID(),
      lines: [
        .init(sku: "tee/blue", quantity: 2, price: 19.99),
        .init(sku: "mug \"big\"", quantity: 1, price: 7.5),
      ],
      note: nil,
      placedAt: Date(timeIntervalSinceReferenceDate: 700_000_000.25),
      flags: ["zeta": true, "alpha": false, "Beta": true],
      total: Decimal(string: "47.48") ?? 0
    )
  }

  static func request(
    _ url: String,
    method: String? = nil,
    headers: [(String, String)] = [],
    body: Data? = nil
  ) -> URLRequest {
    var request = URLRequest(url: URL(string: url) ?? URL(fileURLWithPath: "/"))
    if let method { request.httpMethod = method }
    for (name, value) in headers { request.addValue(value, forHTTPHeaderField: name) }
    request.httpBody = body
    return request
  }

  static var cases: [UpstreamTextCase] {
    var cases: [UpstreamTextCase] = []
    func dump(_ name: String, _ value: Any) {
      cases.append(UpstreamTextCase("dump-\(name)", value, as: Snapshotting<Any, String>.dump))
    }
    func description(_ name: String, _ value: Any) {
      cases.append(
        UpstreamTextCase("description-\(name)", value, as: Snapshotting<Any, String>.description)
      )
    }

    let user = User(id: 1, name: "Blobby", bio: "Blobbed around the world.")
    dump("user", user)
    dump("int", 42)
    dump("negative-int8", Int8(-3))
    dump("int-max", Int.max)
    dump("double", 1.5)
    dump("double-tenth", 0.1)
    dump("double-huge", 1e20)
    dump("double-nan", Double.nan)
    dump("float", Float(0.1))
    dump("bool", true)
    dump("string", "Hello, world!")
    dump("string-escapes", "line\nbreak \"quoted\" \\ tab\t nul\0 bell\u{7} é😀 zero\u{200B}width")
    dump("string-empty", "")
    dump("substring", "Hello, world!".dropLast(8))
    dump("character", "a" as Character)
    dump("character-emoji", "👍🏽" as Character)
    dump("static-string", "static" as StaticString)
    dump("optional-none", Int?.none as Any)
    dump("optional-some", Int?.some(3) as Any)
    dump("optional-nested-none", Int??.some(nil) as Any)
    dump("optional-nested-some", Int??.some(1) as Any)
    dump("optional-struct-none", User?.none as Any)
    dump("empty-struct", Empty())
    dump("generic", Generic(value: [1, 2]))
    dump("enum-plain", Shape.point)
    dump("enum-payload", Shape.circle(2))
    dump("enum-labelled-payload", Shape.rect(width: 3, height: 4))
    dump("enum-tuple-payload", Shape.pair(5, 6))
    dump("enum-struct-payload", Shape.user(user))
    dump("enum-optional-payload", Shape.maybe(nil))
    dump("enum-raw", Direction.up)
    dump("enum-array", [Direction.up, .down, .left])
    dump("indirect-enum", Tree.node(.leaf, .node(.leaf, .leaf)))
    dump("class", Account())
    dump("class-nested", Savings())
    dump("array-empty", [Int]())
    dump("array-one", [1])
    dump("array", [3, 1, 2])
    dump("array-nested", [[1], [], [2, 3]])
    dump("array-of-optionals", [1, nil, "a"] as [Any?])
    dump("dictionary", ["c": 3, "a": 1, "b": 2])
    dump("dictionary-one", ["only": true])
    dump("dictionary-empty", [String: Int]())
    dump("dictionary-int-keys", [2: "two", 10: "ten", 1: "one"])
    dump("dictionary-nested", ["z": ["b": 1, "a": 2], "a": [:]])
    dump("dictionary-optional-values", ["a": Int?.none, "b": 1])
    dump(
      "dictionary-struct-keys",
      [Person(name: "x", age: 1): "first", Person(name: "a", age: 2): "second"]
    )
    dump("set", Set([3, 1, 2, 10]))
    dump("set-one", Set(["solo"]))
    dump("set-empty", Set<Int>())
    dump(
      "set-structs",
      Set([
        Person(name: "b", age: 1), Person(name: "b", age: 10), Person(name: "b", age: 2),
        Person(name: "a", age: 5),
      ])
    )
    dump("set-anyhashable", Set<AnyHashable>([1, "1", 2.5, URL(string: "zz")!]))
    dump("tuple", (1, "a"))
    dump("tuple-labelled", (b: 1, a: "x"))
    dump("tuple-empty", ())
    dump("url", URL(string: "https://www.pointfree.co/episodes?id=1#top")!)
    dump("url-relative", URL(string: "a/b", relativeTo: URL(string: "https://x.test/")!)!)
    dump("url-file", URL(fileURLWithPath: "/tmp/with space"))
    dump("date", Date(timeIntervalSinceReferenceDate: 0))
    dump("date-fraction", Date(timeIntervalSince1970: -0.25))
    dump("data", Data("Hello, world!".utf8))
    dump("data-one-byte", Data([1]))
    dump("uuid", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
    dump("range", 1..<3)
    dump("closed-range", 1...3)
    dump("closure", { (x: Int) in x })
    dump("metatype", Int.self)
    dump("key-path", \User.id)
    dump("nsobject", NSObject())
    dump(
      "nsobject-pointers",
      Pointer("<Pointer: 0x00007f1234abcd00; frame = (0 0; 1 1)> 0xABC x0x1f")
    )
    dump("nsnumber", NSNumber(value: 3))
    dump("nsstring", NSString(string: "text"))
    dump("nsarray", NSArray(array: [1, "a"]))
    dump("nsdictionary", NSDictionary(dictionary: ["k": 1]))
    dump("custom-string-convertible", Described())
    dump("custom-debug-string-convertible", DebugOnly())
    dump("multiline-description", [MultilineDescription()])
    dump("enum-custom-description", [Mood.happy, .sad(1)])
    dump("snapshot-string-convertible", [Redacted()])
    dump("snapshot-string-convertible-children", Summary())
    dump("mirror-labels", Labelled())
    dump("mirror-unlabelled", Unlabelled())
    let father = Father()
    let child = Child(father)
    dump("recursion-father", father)
    dump("recursion-child", child)
    let ring = Ring("a")
    ring.next = Ring("b")
    ring.next?.next = ring
    dump("recursion-ring", [ring])
    let shared = Ring("shared")
    dump("shared-not-circular", [shared, shared])
    let group = Group()
    group.members = [Member("x", group), Member("x", Group())]
    dump("recursion-in-set", group)
    dump("decodable-order", order)
    dump("mirror-of-another-value", Wrapper())

    description("user", user)
    description("int", 42)
    description("string", "multi\nline \"text\"")
    description("optional", Int?.some(1) as Any)
    description("array", [1, 2, 3])
    description("dictionary", ["a": 1])
    description("enum", Shape.rect(width: 1, height: 2))
    description("custom", Described())
    description("date", Date(timeIntervalSinceReferenceDate: 0))
    description("url", URL(string: "https://www.pointfree.co")!)

    cases.append(UpstreamTextCase("json-user", user, as: .json))
    cases.append(UpstreamTextCase("json-order", order, as: .json))
    // Sorted but compact: an encoder without `.sortedKeys` writes keys in a random order.
    let compact = JSONEncoder()
    compact.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    cases.append(UpstreamTextCase("json-order-custom-encoder", order, as: .json(compact)))
    cases.append(UpstreamTextCase("json-array", [3, 1, 2], as: .json))
    cases.append(UpstreamTextCase("json-string", "top level \"string\"/", as: .json))
    cases.append(UpstreamTextCase("json-optional-nil", Int?.none, as: .json))
    cases.append(UpstreamTextCase("json-empty-dictionary", [String: Int](), as: .json))
    cases.append(UpstreamTextCase("plist-user", user, as: .plist))
    cases.append(UpstreamTextCase("plist-order", order, as: .plist))
    // Qualified: upstream declares its own `PropertyListEncoder`, which shadows Foundation's.
    // (Binary output is left out: upstream's is not even the same from one run to the next.)
    let xmlEncoder = SnapshotTesting.PropertyListEncoder()
    xmlEncoder.outputFormat = .xml
    cases.append(UpstreamTextCase("plist-user-custom-encoder", user, as: .plist(xmlEncoder)))
    cases.append(UpstreamTextCase("plist-array", ["b", "a"], as: .plist))
    cases.append(contentsOf: plistCases)

    func jsonAny(_ name: String, _ value: Any) {
      cases.append(UpstreamTextCase("json-any-\(name)", value, as: Snapshotting<Any, String>.json))
    }
    jsonAny(
      "dictionary",
      ["name": "Blobby", "id": 1, "bio": "Blobbed", "tags": ["b", "a"]] as [String: Any]
    )
    jsonAny(
      "nested",
      ["z": ["y": [1, 2.5, true, NSNull()], "x": [:]], "a": "/slash"] as [String: Any]
    )
    jsonAny("array", [["b": 1, "a": 2]] as [Any])
    jsonAny(
      "parsed",
      try! JSONSerialization.jsonObject(with: Data(#"{"b":[1,{"d":null,"c":"é"}],"a":0.5}"#.utf8))
    )

    cases.append(UpstreamTextCase("data-bytes", Data([0xDE, 0xAD, 0xBE, 0xEF]), as: .data))
    cases.append(UpstreamTextCase("data-empty", Data(), as: .data))

    let get = request(
      "https://www.pointfree.co/",
      headers: [
        ("Cookie", "pf_session={}"), ("Accept", "text/html"), ("Content-Type", "application/json"),
      ]
    )
    let getWithQuery = request(
      "https://www.pointfree.co?key_2=value_2&key_1=value_1&key_3=value_3",
      headers: [("Cookie", "pf_session={}"), ("Accept", "text/html")]
    )
    let post = request(
      "https://www.pointfree.co/subscribe",
      method: "POST",
      headers: [("Cookie", #"pf_session={"user_id":"0"}"#), ("Accept", "text/html")],
      body: Data("pricing[billing]=monthly&pricing[lane]=individual".utf8)
    )
    let postJSON = request(
      "https://www.pointfree.co/subscribe",
      method: "POST",
      headers: [("Cookie", #"pf_session={"user_id":"0"}"#), ("Accept", "application/json")],
      body: Data(#"{"pricing": {"lane": "individual","billing": "monthly"}}"#.utf8)
    )
    let put = request(
      "https://api.test/items/1?b=2&a=1&a=0",
      method: "PUT",
      headers: [
        ("X-Quote", #"say "hi" \ $HOME `cmd`"#), ("Authorization", "Bearer t"), ("Cookie", "a=1"),
        ("Cookie", "b=2"),
      ],
      body: Data("line one\nline 'two' \"three\" $x `y` \\z".utf8)
    )
    let delete = request("https://api.test/items/1#frag", method: "DELETE")
    let head = request(
      "https://www.pointfree.co/",
      method: "HEAD",
      headers: [("Cookie", "pf_session={}")]
    )
    // No binary body: upstream writes it as lossy text (raw) or leaves it out (curl), where this
    // package fails the assertion instead (see UpstreamTextTests.binaryBodiesFailWhereUpstreamWroteText).
    let jsonArray = request(
      "https://api.test/batch",
      method: "PATCH",
      body: Data("[3, {\"b\":1,\"a\":2}]".utf8)
    )
    let emptyBody = request("https://api.test/empty", method: "POST", body: Data())
    let lowercaseMethod = request("https://api.test/x", method: "get")
    let fragmentBody = request("https://api.test/number", method: "POST", body: Data("42".utf8))
    let mixedCaseHeaders = request(
      "https://api.test/headers",
      headers: [("cookie", "x=1"), ("accept-language", "en"), ("Zed", "z"), ("Accept", "*/*")]
    )
    let requests: [(String, URLRequest)] = [
      ("get", get), ("get-with-query", getWithQuery), ("post", post), ("post-json", postJSON),
      ("put", put), ("delete", delete), ("head", head),
      ("json-array-body", jsonArray), ("empty-body", emptyBody),
      ("lowercase-method", lowercaseMethod),
      ("fragment-body", fragmentBody), ("mixed-case-headers", mixedCaseHeaders),
    ]
    for (name, value) in requests {
      cases.append(UpstreamTextCase("raw-\(name)", value, as: .raw))
      cases.append(UpstreamTextCase("raw-pretty-\(name)", value, as: .raw(pretty: true)))
      cases.append(UpstreamTextCase("curl-\(name)", value, as: .curl))
    }

    cases.append(
      UpstreamTextCase(
        "func-description",
        { (direction: Direction) in direction.rotatedLeft },
        as: Snapshotting<Direction, String>.func(into: .description)
      )
    )
    cases.append(
      UpstreamTextCase(
        "func-dump",
        { (direction: Direction) in [direction.rawValue.count, 0] },
        as: Snapshotting<Direction, String>.func(into: .dump)
      )
    )
    cases.append(
      UpstreamTextCase(
        "func-json",
        { (direction: Direction) in ["name": direction.rawValue] },
        as: Snapshotting<Direction, String>.func(into: .json)
      )
    )
    cases.append(
      UpstreamTextCase(
        "func-lines",
        { (direction: Direction) in direction == .up ? "yes, \"sure\"\nreally" : "no" },
        as: Snapshotting<Direction, String>.func(into: .lines)
      )
    )
    return cases
  }
}

// Property lists: every kind of value upstream's XML writer formats, at several depths.
extension UpstreamTextCorpus {
  struct Integers: Encodable {
    var int64Min = Int64.min, int64Max = Int64.max, uint64Max = UInt64.max, uintMax = UInt.max
    var int8Min = Int8.min, uint8Max = UInt8.max, int16Min = Int16.min, uint16Max = UInt16.max
    var int32Min = Int32.min, uint32Max = UInt32.max, zero = 0, minusOne = -1
    var uint64AboveInt64 = UInt64(Int64.max) + 1
  }
  struct Optionals: Encodable {
    var absent: Int? = nil
    var present: String? = "here"
    var array: [Int?] = [1, nil, 3]
    var dictionary: [String: Int?] = ["none": nil, "some": 2]
    var nested: [[String]?] = [nil, ["x"]]
  }
  /// Encodes `nil` explicitly through each kind of container.
  struct ExplicitNils: Encodable {
    enum Key: String, CodingKey { case keyed, unkeyed, single }
    func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encodeNil(forKey: .keyed)
      var unkeyed = container.nestedUnkeyedContainer(forKey: .unkeyed)
      try unkeyed.encodeNil()
      try container.encode(Int?.none, forKey: .single)
    }
  }
  struct EncodesNothing: Encodable {
    func encode(to encoder: Encoder) throws {}
  }
  struct Containers: Encodable {
    var emptyArray: [Int] = []
    var emptyDictionary: [String: Int] = [:]
    var emptyStruct = EncodesNothing()
    var nestedEmpty: [[String: [Int]]] = [[:], ["a": []]]
    var intKeys: [Int: String] = [2: "two"]
    var arrayOfDictionaries: [[String: String]] = [["b": "1", "a": "2"], ["c": "3"]]
    var deep: [[[[String]]]] = [[[["deep"]]], [[]]]
    var url = URL(string: "https://example.com/a?b=c&d=<e>")
    var uuid = UUID(uuidString: "00000000-0000-0000-0000-00000000000A")
  }
  class Base: Encodable {
    var base = "base"
  }
  final class Derived: Base {
    var derived = 2
    enum Key: String, CodingKey { case derived, parent, unused }
    override func encode(to encoder: Encoder) throws {
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(derived, forKey: .derived)
      try super.encode(to: container.superEncoder())
      try super.encode(to: container.superEncoder(forKey: .parent))
      _ = container.superEncoder(forKey: .unused)
      var list = container.nestedUnkeyedContainer(forKey: .derived)
      try list.encode("first")
      try super.encode(to: list.superEncoder())
      try list.encode("last")
      var single = list.superEncoder().singleValueContainer()
      try single.encode(3.25)
    }
  }
  /// Requests the same keyed container twice and overwrites a key.
  struct Overwrites: Encodable {
    enum Key: String, CodingKey { case a, b }
    func encode(to encoder: Encoder) throws {
      var first = encoder.container(keyedBy: Key.self)
      try first.encode(1, forKey: .a)
      var second = encoder.container(keyedBy: Key.self)
      try second.encode("again", forKey: .a)
      try second.encode(true, forKey: .b)
    }
  }
  struct DataLengths: Encodable {
    var lengths: [String: Data]
    var nested: [[[[[[[[[[Data]]]]]]]]]]
    init() {
      func bytes(_ count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
      }
      var lengths: [String: Data] = [:]
      for count in [0, 1, 2, 3, 4, 50, 51, 52, 53, 57, 58, 100, 200] {
        lengths[String(format: "%03d", count)] = bytes(count)
      }
      self.lengths = lengths
      nested = [[[[[[[[[[bytes(40), bytes(7)]]]]]]]]]]
    }
  }

  static var plistCases: [UpstreamTextCase] {
    var cases: [UpstreamTextCase] = []
    let reals: [Double] = [
      0, -0.0, 1, -1, 0.1, 0.2, 0.3, 0.1 + 0.2, 1.5, -2.25, 19.99, 7.5, 100, 1 / 3, .pi, -.pi,
      123456789.123, 1e15, 1e16, 1e17, 1e20, 1e21, 1.5e300, 1e-4, 1e-5, 1e-7,
      .leastNonzeroMagnitude,
      2.2250738585072014e-308, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .nan,
      .infinity, -.infinity, 9007199254740992, 0.5, 2.5e-3,
    ]
    cases.append(UpstreamTextCase("plist-reals", reals, as: .plist))
    let floats: [Float] = [
      0, -0.0, 1, 0.1, 1.5, -2.25, 19.99, .pi, 3.4028235e38, .leastNonzeroMagnitude, 16777216, .nan,
      .infinity,
    ]
    cases.append(UpstreamTextCase("plist-floats", floats, as: .plist))
    cases.append(UpstreamTextCase("plist-integers", Integers(), as: .plist))
    cases.append(UpstreamTextCase("plist-bools", [true, false, true], as: .plist))
    let dates: [Date] = [
      Date(timeIntervalSince1970: 0), Date(timeIntervalSinceReferenceDate: 0),
      Date(timeIntervalSinceReferenceDate: -0.5), Date(timeIntervalSinceReferenceDate: 0.999),
      Date(timeIntervalSince1970: 1_234_567_890.75), Date(timeIntervalSince1970: -1_234_567_890.25),
      Date(timeIntervalSinceReferenceDate: 59.9999999), Date(timeIntervalSince1970: 951_782_400),
      Date(timeIntervalSince1970: 4_102_444_800), Date(timeIntervalSince1970: -2_208_988_800),
      Date(timeIntervalSince1970: 1e10), .distantPast, .distantFuture,
    ]
    cases.append(UpstreamTextCase("plist-dates", dates, as: .plist))
    cases.append(UpstreamTextCase("plist-data", DataLengths(), as: .plist))
    let strings: [String: String] = [
      "amp": "a & b && c", "angle": "<tag attr=\"v\">x</tag>", "quotes": "\"double\" 'single'",
      "whitespace": " tab\tnewline\nreturn\r end ", "cdata": "]]> &amp; &#38;", "empty": "",
      "unicode": "é e\u{301} ß 日本 😀 \u{FEFF}", "control": "bell\u{7} escape\u{1B}",
      "dollar-null": "$null", "long": String(repeating: "0123456789", count: 12),
    ]
    cases.append(UpstreamTextCase("plist-strings", strings, as: .plist))
    let keys = [
      "b", "a", "B", "A", "_", "1", "10", "2", "z", "Z", "aa", "a b", "", "éa", "e\u{301}b", "f",
      "ä", "😀", "\u{FF01}", "<&>", "~", "Ω", "a\u{0}",
    ]
    cases.append(
      UpstreamTextCase(
        "plist-key-order",
        Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) }),
        as: .plist
      )
    )
    cases.append(UpstreamTextCase("plist-optionals", Optionals(), as: .plist))
    cases.append(UpstreamTextCase("plist-explicit-nils", ExplicitNils(), as: .plist))
    cases.append(UpstreamTextCase("plist-containers", Containers(), as: .plist))
    cases.append(UpstreamTextCase("plist-super-encoder", Derived(), as: .plist))
    cases.append(UpstreamTextCase("plist-overwrites", Overwrites(), as: .plist))
    cases.append(UpstreamTextCase("plist-empty-array", [Int](), as: .plist))
    cases.append(UpstreamTextCase("plist-empty-dictionary", [String: Int](), as: .plist))
    cases.append(UpstreamTextCase("plist-encodes-nothing-nested", [EncodesNothing()], as: .plist))
    cases.append(UpstreamTextCase("plist-array-of-arrays", [[1, 2], [], [3]], as: .plist))
    return cases
  }
}
