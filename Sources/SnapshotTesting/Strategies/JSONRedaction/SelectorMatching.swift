/// Where the walk over a JSON document stands in each selector: a set of positions, advanced by
/// one key or index per level, as a non-deterministic automaton (so `**` needs no backtracking).
///
/// Complexity: each step is O(*p*) in the number of positions, which is at most the total number
/// of components of all selectors.
struct SelectorMatching {
  struct Position: Hashable {
    let selector: Int
    let component: Int
  }

  /// One level of a JSON path.
  enum Step {
    case key(String)
    case index(Int)
  }

  let selectors: [RedactionSelector]
  /// The positions at the current value; empty means no selector can match at or below it.
  private(set) var positions: [Position]

  /// The positions at the document's root.
  init(selectors: [RedactionSelector]) {
    self.selectors = selectors
    var positions: [Position] = []
    for selector in selectors.indices {
      Self.insert(Position(selector: selector, component: 0), into: &positions, selectors)
    }
    self.positions = positions
  }

  private init(selectors: [RedactionSelector], positions: [Position]) {
    self.selectors = selectors
    self.positions = positions
  }

  /// The selectors that end at the current value.
  var completed: [Int] {
    positions.compactMap { position in
      position.component == selectors[position.selector].components.count
        ? position.selector : nil
    }
  }

  /// The positions at the child reached by `step`.
  func child(_ step: Step) -> SelectorMatching {
    var next: [Position] = []
    for position in positions {
      let components = selectors[position.selector].components
      guard position.component < components.count else { continue }
      let component = components[position.component]
      if component == .anyDepth {
        // "**" stays to consume more levels.
        Self.insert(position, into: &next, selectors)
      } else if Self.component(component, accepts: step) {
        let advanced = Position(selector: position.selector, component: position.component + 1)
        Self.insert(advanced, into: &next, selectors)
      }
    }
    return SelectorMatching(selectors: selectors, positions: next)
  }

  private static func component(_ component: RedactionSelector.Component, accepts step: Step)
    -> Bool
  {
    switch (component, step) {
    case (.key(let expected), .key(let key)): expected == key
    case (.index(let expected), .index(let index)): expected == index
    case (.anyIndex, .index): true
    default: false
    }
  }

  /// Adds `position` and, when it stands on "**", the position after it ("**" may match no
  /// level at all).
  private static func insert(
    _ position: Position,
    into positions: inout [Position],
    _ selectors: [RedactionSelector]
  ) {
    var position = position
    while true {
      if !positions.contains(position) { positions.append(position) }
      let components = selectors[position.selector].components
      guard position.component < components.count, components[position.component] == .anyDepth
      else { return }
      position = Position(selector: position.selector, component: position.component + 1)
    }
  }
}
