// libFuzzer harness: the HTML tokenizer, tree builder and canonical printer (`.html`). Run with
// `scripts/fuzz.sh FuzzHTML SECONDS`.
//
// The bytes are read as `.html` of `Data` reads them, as UTF-8 with U+FFFD for bytes that are
// not. It drives only the stable entry points: `.html`'s text (`MarkupText.html`, which prints
// most pages straight from their tokens) and the tree (`HTMLReader.read`, printed by
// `CanonicalPrinter`). Invariants, for any bytes:
// - both give the same text: the page's canonical text does not depend on the path taken;
// - the canonical text is a fixed point (its canonical text is itself), except for what
//   MarkupSnapshots.md says no canonical text can write: a heading left inside a heading, an
//   `a` or `nobr` left inside another, four identical formatting elements nested inside one
//   of their name with other attributes, and "</" as the page's last bytes (text there, a
//   bogus comment anywhere else);
// - no line is indented by more than 200 spaces, and the text is at most `208 × n + 1024`
//   bytes for n bytes of input;
// - reading and printing take at most 1 s plus 1 ms a kilobyte (AddressSanitizer's build);
// - the first input of at most 8 bytes whose first byte is 0x00 (one a process, as each takes
//   seconds; the seed `deep` is one) is instead the rest of it after `<div>` repeated 99,999 to
//   100,002 times (the second byte chooses; 10 s at most): deeper than 100,000 levels, both
//   paths refuse it with the depth message naming the element one too deep; within the limit
//   both print.
//
// `FuzzHTML --tree FILE…` prints the element tree the reader builds for each file instead, for
// scripts/html5lib-differential.py.

import Foundation
import FuzzingChecks
import FuzzingSupport
import SnapshotTesting

@testable import MarkupSnapshotTesting

/// Whether a deep document was checked: one is, per process (each takes seconds).
nonisolated(unsafe) private var deepChecked = false

/// One run of libFuzzer, on one input.
private func fuzzHTML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  // As `.html` of `Data` reads it: bytes that are not UTF-8 become U+FFFD (the readers take
  // the UTF-8 of a `String`).
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let input = Array(text.utf8)
  let deep = input.first == 0 && input.count <= 8 && !deepChecked
  if deep { deepChecked = true }
  // At most 1 s and 1 ms per kilobyte of processor time; 10 s for the deep document.
  return withinTimeBound(deep ? .seconds(10) : .milliseconds(1_000 + size / 1_000), size: size) {
    if deep {
      checkDeepDocument(input)
    } else {
      check(input)
    }
  }
}

/// The canonical text through the tree, or the refusal.
private func treeText(_ bytes: [UInt8]) -> (text: String?, document: MarkupDocument?) {
  guard let document = try? HTMLReader.read(bytes) else { return (nil, nil) }
  return (CanonicalPrinter(flavor: .html).print(document), document)
}

/// `.html`'s text, or its refusal.
private func strategyText(_ bytes: [UInt8]) -> (text: String, refusal: String?) {
  let (text, reason) = UnavailableSnapshot.collecting { MarkupText.html(bytes, redacting: []) }
  return (text, reason)
}

private func check(_ input: [UInt8]) {
  let (tree, document) = treeText(input)
  let (text, refusal) = strategyText(input)
  guard let tree, let document else {
    require(refusal != nil, "the tree refuses what .html prints:\n\(show(input))")
    return
  }
  require(refusal == nil, "the tree prints what .html refuses (\(refusal!)):\n\(show(input))")
  require(
    text == tree,
    "the two paths differ:\n\(show(input))\n--- .html\n\(text)--- tree\n\(tree)"
  )
  require(
    text.utf8.count <= 208 * input.count + 1024,
    "\(input.count) bytes printed as \(text.utf8.count):\n\(show(input))"
  )
  var lineStart = true
  var indent = 0
  for byte in text.utf8 {
    if byte == 0x0A {
      lineStart = true
      indent = 0
    } else if lineStart, byte == 0x20 {
      indent += 1
      require(indent <= 200, "a line indented by more than 200 spaces:\n\(show(input))")
    } else {
      lineStart = false
    }
  }
  let (again, _) = strategyText(Array(text.utf8))
  // A page that ends in "</" has that text last; anywhere else, it begins a bogus comment.
  let endsInEndTagOpen = input.suffix(2).elementsEqual("</".utf8)
  if again != text, !headingInsideHeading(document), !nestedAOrNobr(document),
    !formattingElementWithoutEntry(document), !endsInEndTagOpen
  {
    fail(
      "the canonical text is not a fixed point:\n\(show(input))\n--- once\n\(text)--- twice\n"
        + again
    )
  }
}

/// A heading element with a heading inside: `<h2><em><h1></em>` leaves the `h1` in the `h2`,
/// and no HTML writes that tree (`<h1>` closes an open `h2`).
private func headingInsideHeading(_ document: MarkupDocument) -> Bool {
  let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]
  var pending: [(MarkupNode, Bool)] = document.nodes.map { ($0, false) }
  while let (node, inHeading) = pending.popLast() {
    guard case .element(let element) = node else { continue }
    let isHeading = headings.contains(element.name)
    if isHeading && inHeading { return true }
    pending += element.children.map { ($0, inHeading || isHeading) }
  }
  return false
}

/// An `a` inside an `a` with no cell, caption or object between, or a `nobr` inside a `nobr`
/// with no scope boundary (those, a table) between: the adoption agency, stopping after eight
/// rounds, leaves one open where the next tag of its name goes
/// (`<nobr><div><dd><ul><li><dd><ul><li><p><nobr>`, as in html5lib), and no HTML writes that tree
/// (the tag ends one of its name that the list or the scope still holds).
private func nestedAOrNobr(_ document: MarkupDocument) -> Bool {
  let markers: Set<String> = [
    "applet", "caption", "marquee", "object", "template", "td", "th", "svg", "math",
  ]
  let scope = markers.union(["html", "table"])
  // Each element with whether an `a` and a `nobr` are open around it, within their reach.
  var pending: [(MarkupNode, Bool, Bool)] = document.nodes.map { ($0, false, false) }
  while let (node, inA, inNobr) = pending.popLast() {
    guard case .element(let element) = node else { continue }
    let isA = element.name == "a"
    let isNobr = element.name == "nobr"
    if (isA && inA) || (isNobr && inNobr) { return true }
    let belowA = markers.contains(element.name) ? false : inA || isA
    let belowNobr = scope.contains(element.name) ? false : inNobr || isNobr
    pending += element.children.map { ($0, belowA, belowNobr) }
  }
  return false
}

/// Four identical formatting elements nested (no cell, caption or object between) inside one of
/// their name with other attributes (`<b t><p><b><b><b><b>`): the list of active formatting
/// elements keeps three identical entries (the standard's "Noah's Ark"), so the outermost of the
/// four has none, and its end tag in the canonical text ends the other one, which has (the
/// adoption agency looks in the list). No HTML writes that tree with end tags.
private func formattingElementWithoutEntry(_ document: MarkupDocument) -> Bool {
  let formatting: Set<String> = [
    "a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u",
  ]
  let markers: Set<String> = ["applet", "caption", "marquee", "object", "td", "template", "th"]
  func identical(_ first: MarkupElement, _ second: MarkupElement) -> Bool {
    first.name == second.name && first.attributes.count == second.attributes.count
      && first.attributes.allSatisfy { attribute in
        second.attributes.contains { $0.name == attribute.name && $0.value == attribute.value }
      }
  }
  // Each element with the formatting elements around it since the last marker.
  var pending: [(MarkupNode, [MarkupElement])] = document.nodes.map { ($0, []) }
  while let (node, around) = pending.popLast() {
    guard case .element(let element) = node else { continue }
    var inside = around
    if markers.contains(element.name) {
      inside = []
    } else if formatting.contains(element.name) {
      let sameName = around.filter { $0.name == element.name }
      if sameName.filter({ identical($0, element) }).count >= 3,
        sameName.contains(where: { !identical($0, element) })
      {
        return true
      }
      inside.append(element)
    }
    pending += element.children.map { ($0, inside) }
  }
  return false
}

/// Too deep: both paths refuse with the depth message; within the limit: both print.
private func checkDeepDocument(_ input: [UInt8]) {
  guard input.count >= 2 else { return }
  let count = MarkupDocument.maximumDepth - 1 + Int(input[1] % 4)
  var bytes: [UInt8] = []
  bytes.reserveCapacity(5 * count + input.count)
  for _ in 0..<count { bytes += Array("<div>".utf8) }
  bytes += input[2...]
  let (text, refusal) = strategyText(bytes)
  let tree = try? HTMLReader.read(bytes)
  if count > MarkupDocument.maximumDepth {
    require(
      refusal?.hasPrefix("The HTML nests elements more than 100000 levels deep (the element at "
        + "line 1, column 500001 is one too many)") == true,
      "\(count) levels: \(refusal ?? "printed"):\n\(show(input))"
    )
    require(tree == nil, "the tree reader accepts \(count) levels:\n\(show(input))")
  } else if refusal == nil {
    require(tree != nil, "the tree refuses what .html prints at \(count) levels:\n\(show(input))")
    require(text.utf8.count <= 208 * bytes.count + 1024, "\(count) levels printed too long")
  }
}

// MARK: - The element tree, for the html5lib differential

/// Each element on a line in document order: its depth, a tab, its name and its attribute names
/// sorted. Text and comments are left out.
private func elementTree(_ document: MarkupDocument) -> String {
  var lines: [String] = []
  var pending: [(MarkupNode, Int)] = document.nodes.reversed().map { ($0, 0) }
  while let (node, depth) = pending.popLast() {
    guard case .element(let element) = node else { continue }
    let names = element.attributes.map(\.name).sorted()
    lines.append("\(depth)\t" + ([element.name] + names).joined(separator: " "))
    pending += element.children.reversed().map { ($0, depth + 1) }
  }
  return lines.joined(separator: "\n")
}

private func printTrees(_ paths: ArraySlice<String>) -> Int32 {
  var output = ""
  for path in paths {
    guard let data = FileManager.default.contents(atPath: path) else {
      FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
      return 1
    }
    output += "#document \(path)\n"
    do {
      let tree = elementTree(try HTMLReader.read(Array(String(decoding: data, as: UTF8.self).utf8)))
      output += tree.isEmpty ? "" : tree + "\n"
    } catch {
      output += "#refused\n"
    }
  }
  FileHandle.standardOutput.write(Data(output.utf8))
  return 0
}

// MARK: - Support

private func show(_ input: [UInt8]) -> String {
  String(decoding: input.prefix(2_000), as: UTF8.self).debugDescription
}

// Last: globals of main.swift are initialised in order, as the top-level code runs.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--tree" {
  exit(printTrees(CommandLine.arguments.dropFirst(2)))
}
exit(fuzzing_support_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzHTML))
