// The documentation scripts' helpers, compiled by `scripts/docs.sh` and
// `scripts/check-doc-examples.sh` so that they need nothing but the Swift toolchain.
//
//   doc-tools module-graphs <module> <all graphs> <output>
//       Copies <module>'s symbol graphs, leaving out the symbols of re-exported modules
//       (`@_exported import`): each archive documents its own module's API only. Prints a
//       warning for each public declaration of the module that has no documentation comment.
//   doc-tools extract-examples <package root> <output>
//       Writes every ```swift block of README.md and of the DocC catalogs' articles as a target
//       of its own under <output>, and prints what it compiles and what it skips.

import Foundation

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("error: \(message)\n".utf8))
  exit(1)
}


// MARK: - Symbol graphs

func moduleGraphs(module: String, from input: String, to output: String) throws {
  let fileManager = FileManager.default
  try? fileManager.removeItem(atPath: output)
  try fileManager.createDirectory(atPath: output, withIntermediateDirectories: true)
  let names = try fileManager.contentsOfDirectory(atPath: input).filter {
    $0 == "\(module).symbols.json" || ($0.hasPrefix("\(module)@") && $0.hasSuffix(".symbols.json"))
  }
  guard names.contains("\(module).symbols.json") else {
    fail("no symbol graph for \(module) in \(input)")
  }
  let ownSources = "/Sources/\(module)/"
  for name in names.sorted() {
    let data = try Data(contentsOf: URL(fileURLWithPath: input).appendingPathComponent(name))
    guard var graph = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let symbols = graph["symbols"] as? [[String: Any]]
    else { fail("\(name) is not a symbol graph") }

    func uri(_ symbol: [String: Any]) -> String? {
      (symbol["location"] as? [String: Any])?["uri"] as? String
    }
    func path(_ symbol: [String: Any]) -> [String] {
      symbol["pathComponents"] as? [String] ?? []
    }
    func identifier(_ symbol: [String: Any]) -> String {
      (symbol["identifier"] as? [String: Any])?["precise"] as? String ?? ""
    }
    // A symbol declared in another module's sources was re-exported; so are the members without
    // a location (synthesized ones) of a type declared elsewhere.
    let foreign = symbols.filter { uri($0).map { !$0.contains(ownSources) } ?? false }
    let foreignTypes = Set(foreign.compactMap { path($0).count == 1 ? path($0)[0] : nil })
    let ownTypes = Set(
      symbols.compactMap { uri($0)?.contains(ownSources) == true ? path($0).first : nil })
    // An extension graph also lists every member a standard type inherits from the protocols
    // it is given (`Data`'s hundred collection methods): not this module's API.
    let isExtensionGraph = name.contains("@")
    let dropped = Set(
      symbols.filter { symbol in
        if let uri = uri(symbol) { return !uri.contains(ownSources) }
        if isExtensionGraph && identifier(symbol).contains("::SYNTHESIZED::") { return true }
        guard let top = path(symbol).first else { return false }
        return foreignTypes.contains(top) && !ownTypes.contains(top)
      }.map(identifier))
    graph["symbols"] = symbols.filter { !dropped.contains(identifier($0)) }
    // Every public declaration of the module's own sources carries a DocC comment: one that has
    // none is reported as docc reports a warning, and counted with them.
    for symbol in symbols where uri(symbol)?.contains(ownSources) == true {
      let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String ?? ""
      // A comment inherited from a protocol of another module (`errorDescription`'s, from
      // Foundation) names that module; it does not document this declaration.
      let comment = symbol["docComment"] as? [String: Any]
      let inherited = (comment?["module"] as? String).map { $0 != module } ?? false
      guard kind != "swift.extension", comment == nil || inherited else { continue }
      let location = symbol["location"] as? [String: Any]
      let file = (uri(symbol) ?? "").replacingOccurrences(of: "file://", with: "")
      let line = ((location?["position"] as? [String: Any])?["line"] as? Int ?? 0) + 1
      print("\(file):\(line): warning: '\(path(symbol).joined(separator: "."))' is public and has no documentation comment")
    }
    if let relationships = graph["relationships"] as? [[String: Any]] {
      graph["relationships"] = relationships.filter {
        !dropped.contains($0["source"] as? String ?? "")
          && !dropped.contains($0["target"] as? String ?? "")
      }
    }
    let kept = (graph["symbols"] as? [Any])?.count ?? 0
    // An extension graph left empty would only add an empty page.
    if kept == 0 && name != "\(module).symbols.json" { continue }
    let filtered = try JSONSerialization.data(withJSONObject: graph)
    try filtered.write(to: URL(fileURLWithPath: output).appendingPathComponent(name))
  }
}

// MARK: - Code examples

/// A ```swift block and where it comes from.
struct Example {
  var file: String
  var line: Int
  var code: [String]
  var skipReason: String?
  var setup: [String]
}

func examples(in file: String, relativePath: String) throws -> [Example] {
  let lines = try String(contentsOfFile: file, encoding: .utf8)
    .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  var found: [Example] = []
  var skipReason: String?
  var setup: [String] = []
  var index = 0
  while index < lines.count {
    let line = lines[index]
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    if let reason = directive("not compiled:", in: trimmed) {
      skipReason = reason
    } else if let code = directive("example setup:", in: trimmed) {
      setup.append(code)
    } else if trimmed.hasPrefix("```") {
      let info = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
      let indent = line.prefix { $0 == " " }.count
      var body: [String] = []
      index += 1
      while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
        body.append(String(lines[index].dropFirst(min(indent, lines[index].prefix { $0 == " " }.count))))
        index += 1
      }
      let words = info.split(separator: " ").map(String.init)
      if words.first == "swift" {
        var reason = skipReason
        if words.dropFirst().first == "skip" {
          reason = words.dropFirst(2).joined(separator: " ")
          if reason?.isEmpty != false { reason = "marked `swift skip`" }
        }
        found.append(
          Example(
            file: relativePath, line: index - body.count, code: body, skipReason: reason,
            setup: setup))
      }
      skipReason = nil
      setup = []
    }
    index += 1
  }
  return found
}

/// The text of `<!-- name text -->`.
func directive(_ name: String, in line: String) -> String? {
  guard line.hasPrefix("<!--"), line.hasSuffix("-->") else { return nil }
  let inner = line.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
  guard inner.hasPrefix(name) else { return nil }
  return inner.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
}

/// How deep in brackets each line ends, ignoring string literals and comments.
func depthChange(_ line: String, inMultilineString: inout Bool) -> Int {
  var change = 0
  var inString = false
  var characters = Array(line)[...]
  while let character = characters.first {
    if inMultilineString {
      if characters.starts(with: "\"\"\"") {
        inMultilineString = false
        characters = characters.dropFirst(3)
        continue
      }
    } else if inString {
      if character == "\\" { characters = characters.dropFirst(2); continue }
      if character == "\"" { inString = false }
    } else if characters.starts(with: "\"\"\"") {
      inMultilineString = true
      characters = characters.dropFirst(3)
      continue
    } else if characters.starts(with: "//") {
      break
    } else if character == "\"" {
      inString = true
    } else if "{([".contains(character) {
      change += 1
    } else if "})]".contains(character) {
      change -= 1
    }
    characters = characters.dropFirst()
  }
  return change
}

let declarationKeywords: Set<String> = [
  "struct", "class", "enum", "extension", "func", "protocol", "actor", "typealias",
]
let modifiers: Set<String> = [
  "public", "private", "fileprivate", "internal", "final", "static", "nonisolated", "open",
]

/// Whether a top-level piece of code declares something (it goes at file scope) rather than
/// running (it goes into a function).
func isDeclaration(_ item: [String]) -> Bool {
  for line in item {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    if trimmed.isEmpty || trimmed.hasPrefix("//") { continue }
    if trimmed.hasPrefix("@Test") || trimmed.hasPrefix("@Suite") { return true }
    if trimmed.hasPrefix("@") && !trimmed.contains(" ") { continue }
    for word in trimmed.split(separator: " ").map(String.init) {
      if modifiers.contains(word) || word.hasPrefix("@") { continue }
      return declarationKeywords.contains(word)
    }
  }
  return false
}

/// The block as a Swift file: imports first, declarations at file scope, statements in a
/// function. A leading-dot expression (`.lines.scrubbing(…)`) is a `Snapshotting<String, String>`.
func compilableSource(_ example: Example, defaultImports: [String]) -> String {
  var imports = defaultImports
  var items: [[String]] = []
  var current: [String] = []
  var depth = 0
  var inMultilineString = false
  var pendingAttributes = false
  for var line in example.code {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    if depth == 0 && !inMultilineString {
      if trimmed.hasPrefix("import ") {
        imports.append(String(trimmed.dropFirst(7)))
        continue
      }
      let startsItem =
        !trimmed.isEmpty && line.first != " " && !pendingAttributes
        && !(current.allSatisfy { $0.trimmingCharacters(in: .whitespaces).hasPrefix("//") || $0.isEmpty } && !current.isEmpty)
      if startsItem {
        if !current.isEmpty { items.append(current) }
        current = []
      }
      if trimmed.hasPrefix(".") { line = "_ = Snapshotting<String, String>" + trimmed }
      pendingAttributes = trimmed.hasPrefix("@") && !trimmed.contains("func ")
        && !trimmed.contains("struct ") && !trimmed.contains("class ")
    }
    // An elided body: `{ … }`.
    if line.contains("{ … }") {
      line = line.replacingOccurrences(
        of: "{ … }", with: isDeclaration([line]) ? "{}" : "{ fatalError(\"elided\") }")
    }
    current.append(line)
    depth += depthChange(line, inMultilineString: &inMultilineString)
  }
  if !current.isEmpty { items.append(current) }

  var declarations: [String] = []
  var statements: [String] = []
  for item in items {
    if isDeclaration(item) { declarations += item + [""] } else { statements += item }
  }
  var source = "// \(example.file):\(example.line)\n"
  var seen = Set<String>()
  for module in imports where seen.insert(module).inserted { source += "import \(module)\n" }
  source += "\n" + declarations.joined(separator: "\n") + "\n"
  if !statements.isEmpty || !example.setup.isEmpty {
    let body = example.setup + statements
    let isAsync = body.contains { $0.contains("await ") }
    source += "func docExample() \(isAsync ? "async " : "")throws {\n"
    source += body.map { "  " + $0 }.joined(separator: "\n") + "\n}\n"
  }
  return source
}

func extractExamples(root: String, output: String) throws {
  let fileManager = FileManager.default
  var files = ["README.md"]
  let sources = URL(fileURLWithPath: root).appendingPathComponent("Sources")
  for module in try fileManager.contentsOfDirectory(atPath: sources.path).sorted() {
    let catalog = "Sources/\(module)/Documentation.docc"
    guard let articles = try? fileManager.contentsOfDirectory(atPath: "\(root)/\(catalog)") else {
      continue
    }
    files += articles.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
  }
  try fileManager.createDirectory(atPath: output, withIntermediateDirectories: true)
  // Files are rewritten only when their text changes, so that a warm build compiles only the
  // examples that changed.
  func write(_ text: String, to path: String) throws {
    if (try? String(contentsOfFile: path, encoding: .utf8)) == text { return }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }
  var compiled: [String] = []
  var skipped: [(String, String)] = []
  for file in files {
    let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
    for (number, example) in try examples(in: "\(root)/\(file)", relativePath: file).enumerated() {
      let location = "\(file):\(example.line)"
      if let reason = example.skipReason {
        skipped.append((location, reason))
        continue
      }
      let target = "DocExample_\(stem == "README" ? "README" : stem)_\(number + 1)"
      let folder = "\(output)/\(target)"
      try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: true)
      let source = compilableSource(
        example,
        defaultImports: [
          "Foundation", "Testing", "XCTest", "SnapshotTesting", "ImageSnapshotTesting",
          "InlineSnapshotTesting", "SnapshotTestingCustomDump", "DocExampleFixtures",
        ])
      try write(source, to: "\(folder)/Example.swift")
      compiled.append("\(target) \(location)")
    }
  }
  // Examples that no longer exist.
  let targets = Set(compiled.map { String($0.split(separator: " ")[0]) })
  for name in try fileManager.contentsOfDirectory(atPath: output)
  where name.hasPrefix("DocExample_") && !targets.contains(name) {
    try fileManager.removeItem(atPath: "\(output)/\(name)")
  }
  // One target that depends on every example, so that one `swift build --target` builds them all.
  try fileManager.createDirectory(atPath: "\(output)/DocExamples", withIntermediateDirectories: true)
  try write("// Depends on every example target.\n", to: "\(output)/DocExamples/DocExamples.swift")
  // The list the manifest and the script read.
  try write(
    compiled.map { String($0.split(separator: " ")[0]) }.joined(separator: "\n") + "\n",
    to: "\(output)/targets.txt")
  try write(compiled.joined(separator: "\n") + "\n", to: "\(output)/locations.txt")
  for (location, reason) in skipped { print("skipped \(location): \(reason)") }
  print("\(compiled.count) block(s) to compile, \(skipped.count) skipped")
}

// MARK: - Main (last: top-level globals above are initialised in order)

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "module-graphs" where arguments.count == 4:
  try moduleGraphs(module: arguments[1], from: arguments[2], to: arguments[3])
case "extract-examples" where arguments.count == 3:
  try extractExamples(root: arguments[1], output: arguments[2])
default:
  fail("usage: doc-tools module-graphs <module> <graphs> <output> | extract-examples <root> <output>")
}
