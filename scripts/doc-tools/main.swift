// The documentation scripts' helpers, compiled by `scripts/docs.sh` and
// `scripts/check-doc-examples.sh` so that they need nothing but the Swift toolchain.
//
//   doc-tools module-graphs <module> <all graphs> <output>
//       Copies <module>'s symbol graphs, leaving out the symbols of re-exported modules
//       (`@_exported import`): each archive documents its own module's API only. Prints a
//       warning for each public declaration of the module that has no documentation comment.
//   doc-tools install-packages <package root> <output>
//       Writes a package per article with an install section, as a reader would make it from
//       that article alone (scripts/check-install-sections.sh builds them).
//   doc-tools extract-examples <package root> <output>
//       Writes every ```swift block of README.md and of the DocC catalogs' articles as a target
//       of its own under <output>, with the imports the block has (a block without any has
//       those of the article's blocks before it) and the fixtures; lists each target
//       with the products its article's install section names; prints what it compiles and
//       what it skips.

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

/// The modules a block imports itself.
func ownImports(_ example: Example) -> [String] {
  example.code.compactMap { line in
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    return trimmed.hasPrefix("import ") ? String(trimmed.dropFirst(7)) : nil
  }
}

/// The products an install section (a Package.swift fragment) adds, in order: the
/// `.product(name:package:)` lines that are not comments.
func installedProducts(_ examples: [Example]) -> [(name: String, package: String)]? {
  let pattern = try! NSRegularExpression(
    pattern: #"^\s*\.product\(name: "([^"]+)", package: "([^"]+)"\)"#)
  for example in examples where example.code.contains(where: { $0.contains("Package.swift") }) {
    let products = example.code.compactMap { line -> (String, String)? in
      let range = NSRange(line.startIndex..., in: line)
      guard let match = pattern.firstMatch(in: line, range: range),
        let name = Range(match.range(at: 1), in: line),
        let package = Range(match.range(at: 2), in: line)
      else { return nil }
      return (String(line[name]), String(line[package]))
    }
    if !products.isEmpty { return products }
  }
  return nil
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
func compilableSource(_ example: Example, fixtures: [String], contextImports: [String]) -> String {
  var imports: [String] = []
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
  // A block with no import line is a fragment of the test file the article's blocks before it
  // built up: it gets every import they wrote, as a reader pasting it there would.
  for module in fixtures + (imports.isEmpty ? contextImports : imports)
  where seen.insert(module).inserted {
    source += "import \(module)\n"
  }
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
  // One more article, by absolute path: how scripts/doc-examples/test.sh checks the check.
  if let extra = ProcessInfo.processInfo.environment["SNAPSHOT_TESTING_DOC_EXTRA"], !extra.isEmpty {
    files.append(extra)
  }
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
  var dependencies: [String] = []
  var skipped: [(String, String)] = []
  // The products each catalog's articles install, from the first article with an install section.
  var catalogProducts: [String: [(name: String, package: String)]] = [:]
  for file in files where file.hasPrefix("Sources/") {
    let catalog = URL(fileURLWithPath: file).deletingLastPathComponent().path
    if catalogProducts[catalog] != nil { continue }
    catalogProducts[catalog] = installedProducts(
      try examples(in: file.hasPrefix("/") ? file : "\(root)/\(file)", relativePath: file))
  }
  for file in files {
    let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
    let found = try examples(in: file.hasPrefix("/") ? file : "\(root)/\(file)", relativePath: file)
    // What the article tells a reader to add to Package.swift, else what its catalog's install
    // section does, else the catalog's own module.
    let catalog = URL(fileURLWithPath: file).deletingLastPathComponent().path
    let module = URL(fileURLWithPath: catalog).deletingLastPathComponent().lastPathComponent
    // An article without an install section may name its products in a comment,
    // `<!-- example products: SnapshotTesting, InlineSnapshotTesting -->`.
    let text = try String(
      contentsOfFile: file.hasPrefix("/") ? file : "\(root)/\(file)", encoding: .utf8)
    let named = text.split(separator: "\n").lazy.compactMap {
      directive("example products:", in: $0.trimmingCharacters(in: .whitespaces))
    }.first.map {
      $0.split(separator: ",").map {
        (name: $0.trimmingCharacters(in: .whitespaces), package: "swift-snapshot-testing")
      }
    }
    guard
      let products = installedProducts(found) ?? named ?? catalogProducts[catalog]
        ?? (file.hasPrefix("Sources/") ? [(module, "swift-snapshot-testing")] : nil)
    else { fail("\(file) has no install section (a Package.swift fragment naming products)") }
    let names = products.map(\.name)
    let fixtures =
      ["DocExampleFixtures"]
      + (names.contains("ImageSnapshotTesting") || names.contains("WebSnapshotTesting")
        ? ["DocExampleImageFixtures"] : [])
    var contextImports: [String] = []
    for (number, example) in found.enumerated() {
      let location = "\(file):\(example.line)"
      if let reason = example.skipReason {
        skipped.append((location, reason))
        continue
      }
      contextImports += ownImports(example).filter { !contextImports.contains($0) }
      let target = "DocExample_\(stem == "README" ? "README" : stem)_\(number + 1)"
      let folder = "\(output)/\(target)"
      try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: true)
      let source = compilableSource(example, fixtures: fixtures, contextImports: contextImports)
      try write(source, to: "\(folder)/Example.swift")
      compiled.append("\(target) \(location)")
      dependencies.append(([target] + fixtures + products.map { "\($0.package)/\($0.name)" })
        .joined(separator: " "))
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
  // The list the manifest and the script read: each target, the fixtures it imports and the
  // products (`package/product`) its article installs.
  try write(dependencies.joined(separator: "\n") + "\n", to: "\(output)/targets.txt")
  try write(compiled.joined(separator: "\n") + "\n", to: "\(output)/locations.txt")
  for (location, reason) in skipped { print("skipped \(location): \(reason)") }
  print("\(compiled.count) block(s) to compile, \(skipped.count) skipped")
}

// MARK: - Install sections

/// Writes, for each article with an install section (a Package.swift fragment), a package under
/// <output>/<article> as a reader would make it from that article alone: the fragment's
/// `dependencies:` and `targets:` lists as written, an empty target for each plain target name
/// the test target lists (`"MyApp"`; an executable when the article runs it with `productURL`),
/// and the article's first example with imports as the test file. <output>/swift-snapshot-testing
/// is a link to the package, so `.package(path: "../swift-snapshot-testing")` finds it. Prints
/// the folders written.
func writeInstallPackages(root: String, output: String) throws {
  let fileManager = FileManager.default
  try fileManager.createDirectory(atPath: output, withIntermediateDirectories: true)
  let link = "\(output)/swift-snapshot-testing"
  try? fileManager.removeItem(atPath: link)
  try fileManager.createSymbolicLink(atPath: link, withDestinationPath: root)
  let sources = URL(fileURLWithPath: root).appendingPathComponent("Sources")
  for module in try fileManager.contentsOfDirectory(atPath: sources.path).sorted() {
    let catalog = "Sources/\(module)/Documentation.docc"
    guard let articles = try? fileManager.contentsOfDirectory(atPath: "\(root)/\(catalog)") else {
      continue
    }
    for article in articles.sorted() where article.hasSuffix(".md") {
      let file = "\(catalog)/\(article)"
      let found = try examples(in: "\(root)/\(file)", relativePath: file)
      guard installedProducts(found) != nil,
        let fragment = found.first(where: { $0.code.contains { $0.contains("Package.swift") } }),
        let test = found.first(where: { $0.skipReason == nil && !ownImports($0).isEmpty })
      else { continue }
      let body = fragment.code.filter { !$0.hasPrefix("// Package.swift") }.joined(separator: "\n")
      // The plain names in the test target's dependencies are the reader's own targets.
      let names = fragment.code.compactMap { line -> String? in
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("\""), trimmed.hasSuffix("\","), !trimmed.contains("name:") else {
          return nil
        }
        return String(trimmed.dropFirst().dropLast(2))
      }
      let runs = found.contains { $0.code.contains { $0.contains("productURL(") } }
      let name = URL(fileURLWithPath: article).deletingPathExtension().lastPathComponent
      let folder = "\(output)/\(name)"
      try? fileManager.removeItem(atPath: folder)
      var manifest = """
        // swift-tools-version:6.0
        // Made by scripts/check-install-sections.sh from \(file)'s install section.
        import PackageDescription

        let package = Package(
          name: "\(name)",

        """
      manifest += body.split(separator: "\n", omittingEmptySubsequences: false)
        .map { "  " + $0 }.joined(separator: "\n")
      manifest += "\n)\n"
      for target in names {
        let kind = runs ? "executableTarget" : "target"
        manifest += "package.targets.append(.\(kind)(name: \"\(target)\"))\n"
        let targetFolder = "\(folder)/Sources/\(target)"
        try fileManager.createDirectory(atPath: targetFolder, withIntermediateDirectories: true)
        try (runs ? "print(\"\(target)\")\n" : "public let placeholder = 0\n")
          .write(toFile: "\(targetFolder)/main.swift".replacingOccurrences(
            of: "main.swift", with: runs ? "main.swift" : "\(target).swift"),
            atomically: true, encoding: .utf8)
      }
      guard let testTarget = fragment.code.lazy.compactMap({ line -> String? in
        guard let range = line.range(of: #"name: "([^"]+)""#, options: .regularExpression),
          line.contains("name:") && !line.contains(".product")
        else { return nil }
        return String(line[range].dropFirst(7).dropLast())
      }).first else { fail("\(file): the install section names no test target") }
      let tests = "\(folder)/Tests/\(testTarget)"
      try fileManager.createDirectory(atPath: tests, withIntermediateDirectories: true)
      try manifest.write(toFile: "\(folder)/Package.swift", atomically: true, encoding: .utf8)
      try (test.code.joined(separator: "\n") + "\n").write(
        toFile: "\(tests)/Example.swift", atomically: true, encoding: .utf8)
      print("\(name) \(file):\(test.line)")
    }
  }
}

// MARK: - Main (last: top-level globals above are initialised in order)

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "module-graphs" where arguments.count == 4:
  try moduleGraphs(module: arguments[1], from: arguments[2], to: arguments[3])
case "extract-examples" where arguments.count == 3:
  try extractExamples(root: arguments[1], output: arguments[2])
case "install-packages" where arguments.count == 3:
  try writeInstallPackages(root: arguments[1], output: arguments[2])
default:
  fail(
    "usage: doc-tools module-graphs <module> <graphs> <output> | extract-examples <root> <output>"
      + " | install-packages <root> <output>")
}
