/// The tree-construction rules of the HTML standard, as far as the canonical form needs them,
/// written once for the two builders that follow them: ``HTMLReader``, which builds the tree, and
/// ``DirectHTMLPrinter``, `.html`'s fast path, which prints the canonical text as the tokens come.
///
/// A builder says what its stack of open elements holds and does what the rules ask of the tree.
/// The steps that need the tree are hooks: reopening formatting elements, moving elements in the
/// adoption agency, leaving SVG or MathML, merging the attributes of a second `html` or `body`
/// tag. The tree reader does them; the direct printer throws its `Failure` there, and the tree
/// reader reads the page instead (`MarkupText.html`). Rules walk the stack in loops, never by
/// recursion.
protocol HTMLTreeRules {
  /// What a hook throws when the builder cannot do it (`Never` for the tree reader).
  associatedtype Failure: Error
  /// A tag's name as the builder keeps it.
  associatedtype Name
  /// Which element a formatting entry stands for, told apart from the copies the adoption
  /// agency makes of it.
  associatedtype FormattingMark

  /// What the rules remember between tokens.
  var rules: HTMLRuleState { get set }

  // The stack of open elements, bottom first.
  var openCount: Int { get }
  func openTraits(at position: Int) -> HTMLElementTraits
  func openIsForeign(at position: Int) -> Bool
  /// Whether the element at `position` is named `name`, ASCII letters in any case.
  func openElement(at position: Int, isNamed name: Name) -> Bool
  /// Whether an element with the listed name `id` may be open: `false` only when none is.
  func mayHoldOpen(_ id: Int) -> Bool
  /// Closes the open elements from `position` up.
  mutating func closeOpen(from position: Int)
  /// Whether whitespace-only text is kept where text goes now (`pre`, `textarea`…).
  var currentPreservesContent: Bool { get }

  // The list of active formatting elements.
  /// The position of the last entry named `name` after the last marker.
  mutating func activeFormattingEntry(named name: Name, id: Int) -> Int?
  /// The position on the stack of the entry's element, or `nil` if it has closed.
  func openPosition(ofFormattingEntry entry: Int) -> Int?
  mutating func removeFormattingEntry(at entry: Int)
  /// How many entries the list holds, markers included.
  var formattingCount: Int { get }
  func formattingIsMarker(at entry: Int) -> Bool
  /// Whether the entry is the HTML element named `name` (with the listed name `id`).
  func formattingEntry(at entry: Int, isNamed name: Name, id: Int) -> Bool
  /// Whether the entry's element has the attributes of the start tag read last, in any order.
  func formattingEntryHasTagAttributes(at entry: Int) throws(Failure) -> Bool
  /// The element the entry stands for now.
  func formattingMark(at entry: Int) -> FormattingMark

  // What needs the tree.
  /// Reopens the formatting elements that a closed block cut short.
  mutating func reconstructFormatting() throws(Failure)
  /// Closes SVG and MathML elements down to HTML or an integration point.
  mutating func leaveForeignContent() throws(Failure)
  /// The attributes of the tag read last go to the open element at `position`.
  mutating func mergeAttributes(intoOpenAt position: Int) throws(Failure)
  /// The adoption agency's move: the formatting entry `entry`, whose element is open at
  /// `position`, ends, and the special element at `furthestBlock` keeps a copy of it.
  mutating func adoptFurthestBlock(entry: Int, at position: Int, furthestBlock: Int)
    throws(Failure)
  /// After the adoption agency for an `a` tag: the element `stale`, the entry the tag found,
  /// leaves the list and the stack if the agency left it in them. A copy the agency made of it
  /// stays (eight rounds can leave one open).
  mutating func dropStaleFormattingEntry(_ stale: FormattingMark) throws(Failure)
  /// `</p>` with no `p` open: an empty `p`.
  mutating func insertEmptyParagraph()
  /// `</br>`: a `br` element.
  mutating func insertLineBreak(_ name: Name) throws(Failure)
}

/// What the rules remember between tokens, beyond the stack and the list.
struct HTMLRuleState {
  /// No `<!DOCTYPE html>` came first.
  var quirks = true
  /// An element or text came: a later doctype is dropped.
  var sawElement = false
  /// The next text loses its leading newline (after `<pre>` and `<listing>`).
  var dropNextNewline = false
  /// Whether something that belongs in the body came: `html`, `head` and `body` tags after it
  /// only add attributes to the elements a browser already made.
  var bodyStarted = false
}

private typealias ID = RuleNameID

extension HTMLTreeRules {
  var currentTraits: HTMLElementTraits {
    openCount == 0 ? [] : openTraits(at: openCount - 1)
  }

  var inForeignContent: Bool { openCount > 0 && openIsForeign(at: openCount - 1) }

  /// Whether the current element is the HTML element with the listed name `id`.
  func currentIs(_ id: Int) -> Bool {
    openCount > 0 && openTraits(at: openCount - 1).nameID == id && !openIsForeign(at: openCount - 1)
  }

  /// Whether text and inline content go elsewhere than in the current element (a table's
  /// structure).
  var isTableContext: Bool {
    openCount > 0 && !openIsForeign(at: openCount - 1)
      && openTraits(at: openCount - 1).contains(.tableContext)
  }

  mutating func closeCurrent() { closeOpen(from: openCount - 1) }

  // MARK: - Text

  /// What a text does before it goes in: it ends `head` and reopens formatting elements. Whether
  /// it is kept (whitespace is dropped but where content is preserved).
  mutating func textRules(whitespace: Bool) throws(Failure) -> Bool {
    if !whitespace, currentIs(ID.head) { closeCurrent() }
    if !whitespace || rules.bodyStarted, !isTableContext, !inForeignContent {
      try reconstructFormatting()
    }
    if whitespace, !currentPreservesContent { return false }
    if !whitespace {
      rules.sawElement = true
      rules.bodyStarted = true
    }
    return true
  }

  // MARK: - Start tags

  /// The rules of SVG and MathML for a start tag: whether the element is foreign. A tag that
  /// `breaksOut` leaves foreign content first.
  mutating func foreignStartTagRules(isForeignRoot: Bool, breaksOut: Bool) throws(Failure) -> Bool
  {
    rules.sawElement = true
    if inForeignContent, breaksOut { try leaveForeignContent() }
    let foreign =
      isForeignRoot || (inForeignContent && !openTraits(at: openCount - 1).contains(.integrationPoint))
    if foreign {
      rules.bodyStarted = true  // `<svg>` and `<math>` belong in the body, as any other element.
      if !inForeignContent, !isTableContext { try reconstructFormatting() }
    }
    return foreign
  }

  /// The rules of an HTML start tag before its element goes in: whether it goes in at all.
  mutating func startTagRules(_ name: Name, traits: HTMLElementTraits) throws(Failure) -> Bool {
    let id = traits.nameID
    // A switch on a name compares it with each case in turn: names without a rule skip both.
    let ruleID = traits.contains(.startTagRule) ? id : 0
    switch ruleID {
    case ID.html:
      if openCount > 0, openTraits(at: 0).nameID == ID.html, !openIsForeign(at: 0) {
        try mergeAttributes(intoOpenAt: 0)
        return false
      }
      if rules.bodyStarted || openCount > 0 { return false }
    case ID.body:
      if mayHoldOpen(ID.body), let body = lastOpen(where: { $0.nameID == ID.body }) {
        try mergeAttributes(intoOpenAt: body)
        return false
      }
      if rules.bodyStarted { return false }
      if currentIs(ID.head) { closeCurrent() }
    case ID.head:
      if rules.bodyStarted || mayHoldOpen(ID.head) || mayHoldOpen(ID.body) { return false }
    default:
      if !traits.contains(.headContent) {
        if currentIs(ID.head) { closeCurrent() }
        rules.bodyStarted = true
      }
      // A `frame` belongs only in a `frameset` (whose modes are not modelled): anywhere else
      // the body has begun and the tag is dropped, as in a browser.
      if ruleID == ID.frame, !mayHoldOpen(ID.frameset) { return false }
    }
    if traits.contains(.closesParagraph) || (id == ID.table && !rules.quirks) {
      closeInScope(ID.paragraph, boundaries: [.scope, .button])
    }
    switch ruleID {
    case ID.td, ID.th:
      popToTable(keeping: [.tableRow, .tableSection])
    case ID.tr:
      popToTable(keeping: .tableSection)
    case _ where traits.contains(.heading):
      if currentTraits.contains(.heading) { closeCurrent() }
    case ID.li:
      closeListItem { $0 == ID.li }
      closeInScope(ID.paragraph, boundaries: [.scope, .button])
    case ID.dd, ID.dt:
      closeListItem { $0 == ID.dd || $0 == ID.dt }
      closeInScope(ID.paragraph, boundaries: [.scope, .button])
    case ID.a:
      if let entry = activeFormattingEntry(named: name, id: id) {
        let stale = formattingMark(at: entry)
        try adoptionAgency(name, id: id)
        try dropStaleFormattingEntry(stale)
      }
    case ID.nobr:
      // Unlike `a`, by the stack: a `nobr` still open whose entry left the list (the adoption
      // agency drops entries beyond its third) ends here too.
      if !isTableContext { try reconstructFormatting() }
      if hasInScope(ID.nobr, boundaries: .scope) { try adoptionAgency(name, id: id) }
    case ID.button:
      closeInScope(ID.button, boundaries: .scope)
    case ID.option:
      if currentIs(ID.option) { closeCurrent() }
    case ID.optgroup:
      if currentIs(ID.option) { closeCurrent() }
      if currentIs(ID.optgroup) { closeCurrent() }
    case ID.caption, ID.colgroup, ID.tbody, ID.thead, ID.tfoot:
      popToTable(keeping: [])
    default: break
    }
    if !traits.contains(.noReconstruction), !isTableContext { try reconstructFormatting() }
    if traits.contains(.formatting) { try limitIdenticalFormattingEntries(name, id: id) }
    return true
  }

  /// Before a formatting element's entry goes on the list: if three entries after the last
  /// marker are already identical to it, the earliest of them leaves the list (the standard's
  /// "Noah's Ark" clause), so that `<p><b>x</p>` repeated reopens at most three `b`s in each
  /// paragraph instead of one more each time.
  mutating func limitIdenticalFormattingEntries(_ name: Name, id: Int) throws(Failure) {
    // The attributes are compared only when three entries of the name are on the list.
    var sameName = 0
    var entry = formattingCount
    while entry > 0, sameName < 3 {
      entry -= 1
      if formattingIsMarker(at: entry) { break }
      if formattingEntry(at: entry, isNamed: name, id: id) { sameName += 1 }
    }
    guard sameName == 3 else { return }
    var identical = 0
    entry = formattingCount
    while entry > 0 {
      entry -= 1
      if formattingIsMarker(at: entry) { return }
      guard formattingEntry(at: entry, isNamed: name, id: id),
        try formattingEntryHasTagAttributes(at: entry)
      else { continue }
      identical += 1
      if identical == 3 {
        removeFormattingEntry(at: entry)
        return
      }
    }
  }

  // MARK: - End tags

  /// The rules of SVG and MathML for an end tag: whether it closed a foreign element. `</p>` and
  /// `</br>` leave foreign content first, as the standard says, and then act as in HTML.
  mutating func foreignEndTagRules(_ name: Name, id: Int) throws(Failure) -> Bool {
    if id == ID.paragraph || id == ID.br, inForeignContent,
      !openTraits(at: openCount - 1).contains(.integrationPoint)
    {
      try leaveForeignContent()
    }
    guard inForeignContent else { return false }
    var position = openCount
    while position > 0, openIsForeign(at: position - 1) {
      position -= 1
      if openElement(at: position, isNamed: name) {
        closeOpen(from: position)
        return true
      }
    }
    return false
  }

  /// The rules of an HTML end tag.
  mutating func endTagRules(_ name: Name, traits: HTMLElementTraits) throws(Failure) {
    let id = traits.nameID
    switch traits.contains(.endTagRule) ? id : 0 {
    case ID.paragraph:
      // Before the body (nothing of it yet, no `<body>`, not in a `template`, whose content
      // follows the body's rules) a stray `</p>` is ignored.
      if !closeInScope(ID.paragraph, boundaries: [.scope, .button]),
        rules.bodyStarted || mayHoldOpen(ID.body) || mayHoldOpen(ID.template)
      {
        insertEmptyParagraph()
        rules.bodyStarted = true
        rules.sawElement = true
      }
    case ID.br:
      try insertLineBreak(name)
    case ID.body, ID.html:
      break
    case ID.head:
      if currentIs(ID.head) { closeCurrent() }
    case ID.li:
      closeInScope(ID.li, boundaries: [.scope, .list])
    case _ where traits.contains(.heading):
      if let position = lastOpen(where: { $0.contains(.heading) }),
        lastOpen(where: { $0.contains(.scope) }).map({ $0 < position }) ?? true
      {
        closeOpen(from: position)
      }
    case ID.table, ID.tbody, ID.thead, ID.tfoot, ID.tr, ID.td, ID.th, ID.caption, ID.colgroup:
      closeInScope(id, boundaries: .tableScope)
    case ID.dialog,
      _ where traits.contains(.special):
      // `dialog` is not special, but its end tag is handled as a block's.
      closeInScope(id, boundaries: .scope)
    case _ where traits.contains(.formatting):
      try adoptionAgency(name, id: id)
    default:
      closeOther(name)
    }
  }

  // MARK: - Closing

  /// The position of the last open element whose traits satisfy `matches`.
  func lastOpen(where matches: (HTMLElementTraits) -> Bool) -> Int? {
    var position = openCount
    while position > 0 {
      position -= 1
      if matches(openTraits(at: position)) { return position }
    }
    return nil
  }

  /// Closes the nearest open HTML element with the listed name `id` unless a boundary (or SVG or
  /// MathML) comes first; whether it did.
  @discardableResult
  mutating func closeInScope(_ id: Int, boundaries: HTMLElementTraits) -> Bool {
    guard let position = positionInScope(id, boundaries: boundaries) else { return false }
    closeOpen(from: position)
    return true
  }

  /// Whether an HTML element with the listed name `id` is open and no boundary (or SVG or
  /// MathML) stands above it.
  func hasInScope(_ id: Int, boundaries: HTMLElementTraits) -> Bool {
    positionInScope(id, boundaries: boundaries) != nil
  }

  /// The position of the nearest open HTML element with the listed name `id`, unless a boundary
  /// (or SVG or MathML) comes first.
  func positionInScope(_ id: Int, boundaries: HTMLElementTraits) -> Int? {
    // Most start tags ask for a `p`; without this, 10,000 open `div`s cost 10,000 steps each.
    guard mayHoldOpen(id) else { return nil }
    var position = openCount
    while position > 0 {
      position -= 1
      let foreign = openIsForeign(at: position)
      let traits = openTraits(at: position)
      if traits.nameID == id, !foreign { return position }
      if !traits.isDisjoint(with: boundaries) || foreign { return nil }
    }
    return nil
  }

  /// An `li`, `dd` or `dt` closes the open one of its kind, unless a block other than `address`,
  /// `div` or `p` stands between them.
  mutating func closeListItem(_ matches: (Int) -> Bool) {
    var position = openCount
    while position > 0 {
      position -= 1
      let traits = openTraits(at: position)
      if matches(traits.nameID) {
        closeOpen(from: position)
        return
      }
      if traits.contains(.special), !traits.contains(.listItemTransparent) { return }
    }
  }

  /// Closes what is open inside the nearest table, down to the first element named in `keeping`.
  mutating func popToTable(keeping: HTMLElementTraits) {
    // A cell's usual place, in a row (or a row's, in a section): nothing to close, no table to
    // look for.
    guard mayHoldOpen(ID.table), currentTraits.isDisjoint(with: keeping) else { return }
    var table = openCount
    while table > 0 {
      table -= 1
      if openIsForeign(at: table) { return }
      if openTraits(at: table).nameID == ID.table { break }
      if table == 0 { return }
    }
    while openCount - 1 > table, currentTraits.isDisjoint(with: keeping) { closeCurrent() }
  }

  /// The standard's "any other end tag": closes the nearest open element of that name, unless a
  /// special element (a block, a table part…) stands between them.
  mutating func closeOther(_ name: Name) {
    var position = openCount
    while position > 0 {
      position -= 1
      if !openIsForeign(at: position), openElement(at: position, isNamed: name) {
        closeOpen(from: position)
        return
      }
      if openTraits(at: position).contains(.special) { return }
    }
  }

  /// The end tag of a formatting element, as the standard's adoption agency handles it: the
  /// element ends, and the blocks opened inside it keep a copy of it around their content (the
  /// move is the builder's ``adoptFurthestBlock(entry:at:furthestBlock:)``).
  mutating func adoptionAgency(_ name: Name, id: Int) throws(Failure) {
    for _ in 0..<8 {
      guard let entry = activeFormattingEntry(named: name, id: id) else {
        closeOther(name)
        return
      }
      guard let position = openPosition(ofFormattingEntry: entry) else {
        removeFormattingEntry(at: entry)
        return
      }
      var above = position + 1
      var furthestBlock: Int?
      while above < openCount {
        let traits = openTraits(at: above)
        // The formatting element is not in scope: an HTML scope boundary, or an SVG or MathML
        // element that holds HTML (`mtext`, `foreignObject`…) stands above it.
        // (`annotation-xml`, a boundary too, is not told apart.)
        if traits.contains(.scope)
          || (traits.contains(.integrationPoint) && openIsForeign(at: above))
        {
          return
        }
        if furthestBlock == nil, traits.contains(.special), !openIsForeign(at: above) {
          furthestBlock = above
        }
        above += 1
      }
      guard let furthestBlock else {
        closeOpen(from: position)
        removeFormattingEntry(at: entry)
        return
      }
      try adoptFurthestBlock(entry: entry, at: position, furthestBlock: furthestBlock)
    }
  }
}
