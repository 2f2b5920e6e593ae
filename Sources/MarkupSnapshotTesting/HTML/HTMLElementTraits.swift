/// What the HTML standard's parsing rules say about an element name, looked up once per tag so
/// that the reader's many questions about it ("does it close a `p`?", "is it a scope boundary?")
/// are bit tests rather than lookups of the name in a set each.
///
/// Names are matched exactly as stored: lowercased for HTML elements, as written for SVG and
/// MathML (where `foreignObject` is an integration point and `title` is special, as in the
/// sets below).
struct HTMLElementTraits: OptionSet {
  let rawValue: UInt32

  /// `a`, `b`, `i`…: kept in the list of active formatting elements.
  static let formatting = Self(rawValue: 1 << 0)
  /// `td`, `th`, `caption`…: a marker in the list of active formatting elements.
  static let marker = Self(rawValue: 1 << 1)
  /// Before these start tags a browser does not reopen formatting elements.
  static let noReconstruction = Self(rawValue: 1 << 2)
  /// `br`, `img`…: no content, no end tag.
  static let void = Self(rawValue: 1 << 3)
  /// May stay in `head`.
  static let headContent = Self(rawValue: 1 << 4)
  /// Its start tag closes an open `p`.
  static let closesParagraph = Self(rawValue: 1 << 5)
  /// `h1`…`h6`.
  static let heading = Self(rawValue: 1 << 6)
  /// Ends the default scope (`table`, `td`, `html`…).
  static let scope = Self(rawValue: 1 << 7)
  /// `button`, which also ends the button scope.
  static let button = Self(rawValue: 1 << 8)
  /// `ol` and `ul`, which also end the list-item scope.
  static let list = Self(rawValue: 1 << 9)
  /// Ends the table scope (`html`, `table`, `template`).
  static let tableScope = Self(rawValue: 1 << 10)
  /// The standard's special category.
  static let special = Self(rawValue: 1 << 11)
  /// Leaves SVG or MathML when it starts inside.
  static let foreignBreaker = Self(rawValue: 1 << 12)
  /// Holds raw text up to its end tag (`script`, `style`, `textarea`, `title`…).
  static let rawText = Self(rawValue: 1 << 13)
  /// `plaintext`: everything after it is its text.
  static let plaintext = Self(rawValue: 1 << 14)
  /// An SVG or MathML element whose content is HTML again (`foreignObject`, `mi`…).
  static let integrationPoint = Self(rawValue: 1 << 15)
  /// `table`, `tbody`, `thead`, `tfoot`, `tr`: text and inline content do not go in them.
  static let tableContext = Self(rawValue: 1 << 16)
  /// `address`, `div`, `p`: the special elements an `li`, `dd` or `dt` looks past.
  static let listItemTransparent = Self(rawValue: 1 << 17)
  /// A start tag with a rule of its own in the reader (`html`, `li`, `td`, `h1`…).
  static let startTagRule = Self(rawValue: 1 << 18)
  /// An end tag with a rule of its own in the reader (`p`, `li`, `td`, `h1`…).
  static let endTagRule = Self(rawValue: 1 << 19)
  /// `tbody`, `thead`, `tfoot`.
  static let tableSection = Self(rawValue: 1 << 20)
  /// `tr`.
  static let tableRow = Self(rawValue: 1 << 21)

  init(rawValue: UInt32) { self.rawValue = rawValue }

  /// The traits of `name`; none for a name the standard does not list.
  init(name: String) { self = traitsByName[name] ?? [] }

  /// Every name the standard's lists hold (for tests of ``PackedNameTable``).
  static var listedNames: [String] { Array(traitsByName.keys) }

  /// A number from 1 for each name listed below, 0 for any other, so that the reader can count
  /// open elements by name in an array. It lives in the top byte, above the traits.
  var nameID: Int { Int(rawValue >> 24) }

  /// One more than the largest ``nameID``.
  static let nameCount = 256
}

/// The IDs (``HTMLElementTraits/nameID``) of the names the direct printer's rules ask about, fixed
/// here: the table gives these names the first IDs, in this order. As constants, a `switch` on an
/// ID is a jump table, and a comparison needs no load.
enum RuleNameID {
  static let html = 1  // html
  static let head = 2  // head
  static let body = 3  // body
  static let paragraph = 4  // p
  static let br = 5  // br
  static let table = 6  // table
  static let tbody = 7  // tbody
  static let thead = 8  // thead
  static let tfoot = 9  // tfoot
  static let tr = 10  // tr
  static let td = 11  // td
  static let th = 12  // th
  static let caption = 13  // caption
  static let colgroup = 14  // colgroup
  static let li = 15  // li
  static let dd = 16  // dd
  static let dt = 17  // dt
  static let a = 18  // a
  static let nobr = 19  // nobr
  static let button = 20  // button
  static let option = 21  // option
  static let optgroup = 22  // optgroup
  static let dialog = 23  // dialog
  static let template = 24  // template
  static let pre = 25  // pre
  static let listing = 26  // listing
  static let textarea = 27  // textarea
  static let image = 28  // image
  static let frame = 29  // frame
  static let frameset = 30  // frameset

  /// The names, in the order of their IDs from 1.
  static let names = [
    "html", "head", "body", "p", "br", "table", "tbody", "thead", "tfoot", "tr", "td", "th",
    "caption", "colgroup", "li", "dd", "dt", "a", "nobr", "button", "option", "optgroup", "dialog",
    "template", "pre", "listing", "textarea", "image", "frame", "frameset",
  ]
}

private let traitsByName: [String: HTMLElementTraits] = {
  var table: [String: HTMLElementTraits] = [:]
  for name in RuleNameID.names {
    table[name] = HTMLElementTraits(rawValue: UInt32(table.count + 1) << 24)
  }
  func add(_ names: [String], _ traits: HTMLElementTraits) {
    for name in names {
      // About 130 names: the IDs stay below 256 (one more would read as 0, "any other").
      let id = UInt32(table[name].map(\.nameID) ?? table.count + 1)
      let known = (table[name]?.rawValue ?? 0) & 0xFF_FFFF
      table[name] = HTMLElementTraits(rawValue: known | traits.rawValue | id << 24)
    }
  }
  add(
    [
      "a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt",
      "u",
    ],
    .formatting
  )
  add(["td", "th", "caption", "applet", "marquee", "object", "template"], .marker)
  let closesParagraph = [
    "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div",
    "dl", "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "main", "menu", "nav",
    "ol", "p", "search", "section", "summary", "ul", "h1", "h2", "h3", "h4", "h5", "h6", "pre",
    "listing", "form", "hr", "xmp", "plaintext", "li", "dd", "dt",
  ]
  add(closesParagraph, [.closesParagraph, .noReconstruction])
  add(
    [
      "html", "head", "body", "base", "basefont", "bgsound", "link", "meta", "title", "style",
      "script", "noscript", "noframes", "template", "table", "caption", "colgroup", "col",
      "tbody", "thead", "tfoot", "tr", "td", "th", "textarea", "frameset", "frame", "image",
    ],
    .noReconstruction
  )
  add(
    [
      "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input",
      "keygen", "link", "meta", "param", "source", "track", "wbr",
    ],
    .void
  )
  add(
    [
      "base", "basefont", "bgsound", "link", "meta", "title", "style", "script", "noscript",
      "noframes", "template", "head",
    ],
    .headContent
  )
  add(["h1", "h2", "h3", "h4", "h5", "h6"], .heading)
  add(
    ["applet", "caption", "html", "table", "td", "th", "marquee", "object", "template"],
    .scope
  )
  add(["button"], .button)
  add(["ol", "ul"], .list)
  add(["html", "table", "template"], .tableScope)
  add(
    [
      "address", "applet", "area", "article", "aside", "base", "basefont", "bgsound",
      "blockquote", "body", "br", "button", "caption", "center", "col", "colgroup", "dd",
      "details", "dir", "div", "dl", "dt", "embed", "fieldset", "figcaption", "figure", "footer",
      "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hgroup",
      "hr", "html", "iframe", "img", "input", "keygen", "li", "link", "listing", "main",
      "marquee", "menu", "meta", "nav", "noembed", "noframes", "noscript", "object", "ol", "p",
      "param", "plaintext", "pre", "script", "search", "section", "select", "source", "style",
      "summary", "table", "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "title",
      "tr", "track", "ul", "wbr", "xmp",
    ],
    .special
  )
  add(
    [
      "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em",
      "embed", "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing",
      "menu", "meta", "nobr", "ol", "p", "pre", "ruby", "s", "small", "span", "strong", "strike",
      "sub", "sup", "table", "tt", "u", "ul", "var",
    ],
    .foreignBreaker
  )
  add(
    [
      "script", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "title", "textarea",
    ],
    .rawText
  )
  add(["plaintext"], .plaintext)
  add(
    ["foreignObject", "foreignobject", "desc", "title", "mi", "mo", "mn", "ms", "mtext"],
    .integrationPoint
  )
  add(["table", "tbody", "thead", "tfoot", "tr"], .tableContext)
  add(["address", "div", "p"], .listItemTransparent)
  add(
    [
      "html", "body", "head", "h1", "h2", "h3", "h4", "h5", "h6", "li", "dd", "dt", "a", "nobr",
      "button", "option", "optgroup", "caption", "colgroup", "tbody", "thead", "tfoot", "tr",
      "td", "th", "frame",
    ],
    .startTagRule
  )
  add(
    [
      "p", "br", "body", "html", "head", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table",
      "tbody", "thead", "tfoot", "tr", "td", "th", "caption", "colgroup", "dialog",
    ],
    .endTagRule
  )
  add(["tbody", "thead", "tfoot"], .tableSection)
  add(["tr"], .tableRow)
  return table
}()

/// A name of at most 15 bytes, lowercased, packed into two words with its length, so that a name
/// compares as two integers.
struct PackedName: Equatable {
  var low: UInt64 = 0
  var high: UInt64 = 0

  /// The name whose lowercased bytes are `low` (the first eight) and `high`.
  init(low: UInt64, high: UInt64, count: Int) {
    self.low = low
    self.high = high | UInt64(count) << 56
  }

  /// `nil` for a name too long to be one the standard lists (the longest has 13 bytes).
  init?(_ bytes: [UInt8], from start: Int, to end: Int) {
    let count = end - start
    guard count > 0, count <= 15 else { return nil }
    for position in 0..<count {
      var byte = bytes[start + position]
      if byte >= 0x41, byte <= 0x5A { byte |= 0x20 }
      if position < 8 {
        low |= UInt64(byte) << (8 * UInt64(position))
      } else {
        high |= UInt64(byte) << (8 * UInt64(position - 8))
      }
    }
    high |= UInt64(count) << 56
  }

  /// One multiplication: the name's bytes (and its length, in `high`) spread into the top bits.
  var hashSlot: Int {
    Int(truncatingIfNeeded: ((low ^ high ^ high &>> 29) &* 0xFF51_AFD7_ED55_8CCD) >> 55)
  }
}

/// ``HTMLElementTraits/init(name:)`` as an open-addressing table of 512 slots keyed by
/// ``PackedName``: the direct printer looks up every tag's name without making a `String` or
/// hashing one.
struct PackedNameTable {
  static let shared = PackedNameTable(traitsByName)

  /// A slot: a name and its traits, side by side; `high` is 0 in an empty slot (a name's length
  /// is in it).
  private struct Slot {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var traits: HTMLElementTraits = []
  }

  private var slots = [Slot](repeating: Slot(), count: 512)

  private init(_ table: [String: HTMLElementTraits]) {
    for (name, traits) in table {
      let bytes = Array(name.utf8)
      // Keys are lowercased names; `foreignObject`, listed as written in SVG, is never asked for.
      guard !bytes.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { continue }
      let key = PackedName(bytes, from: 0, to: bytes.count)!
      var slot = key.hashSlot
      while slots[slot].high != 0 { slot = (slot + 1) & 511 }
      slots[slot] = Slot(low: key.low, high: key.high, traits: traits)
    }
  }

  /// The traits of the lowercased name `key`; none for a name the standard does not list.
  func traits(of key: PackedName) -> HTMLElementTraits {
    var slot = key.hashSlot
    while true {
      let found = slots[slot]
      if found.low == key.low, found.high == key.high { return found.traits }
      if found.high == 0 { return [] }
      slot = (slot &+ 1) & 511
    }
  }
}
