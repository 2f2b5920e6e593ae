// The documentation scripts' helpers, compiled by `scripts/docs.sh` and
// `scripts/check-doc-examples.sh` so that they need nothing but the Swift toolchain.
//
//   doc-tools module-graphs <module> <all graphs> <output>
//       Copies <module>'s symbol graphs, leaving out the symbols of re-exported modules
//       (`@_exported import`): each archive documents its own module's API only. Prints a
//       warning for each public declaration of the module that has no documentation comment.
//   doc-tools stranger-package <clone> <output>
//       Writes the one package a stranger makes from the install sections of the README and of
//       each product's article and their examples, as written (scripts/check-as-stranger.sh).
//   doc-tools extract-examples <package root> <output>
//       Writes every ```swift block of README.md and of the DocC catalogs' articles as a target
//       of its own under <output>, with the imports the block has (a block without any has
//       those of the article's blocks before it) and the page's declarations block before it,
//       if any; lists each target
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
  /// Marked `<!-- example declarations -->`: the values and types the page's later examples use,
  /// shown once.
  var declaresForPage = false
}

func examples(in file: String, relativePath: String) throws -> [Example] {
  let lines = try String(contentsOfFile: file, encoding: .utf8)
    .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  var found: [Example] = []
  var skipReason: String?
  var setup: [String] = []
  var declaresForPage = false
  var index = 0
  while index < lines.count {
    let line = lines[index]
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    if let reason = directive("not compiled:", in: trimmed) {
      skipReason = reason
    } else if let code = directive("example setup:", in: trimmed) {
      setup.append(code)
    } else if directive("example declarations", in: trimmed) != nil {
      declaresForPage = true
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
            setup: setup, declaresForPage: declaresForPage))
      }
      skipReason = nil
      setup = []
      declaresForPage = false
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
func compilableSource(
  _ example: Example, contextImports: [String], page: (imports: [String], code: [String])
) -> String {
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
  for module in (imports.isEmpty ? contextImports : imports) + page.imports
  where seen.insert(module).inserted {
    source += "import \(module)\n"
  }
  // The page's declarations block, which the page shows before this one.
  if !page.code.isEmpty { source += "\n" + page.code.joined(separator: "\n") + "\n" }
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
    var contextImports: [String] = []
    var page: (imports: [String], code: [String]) = ([], [])
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
      let source = compilableSource(example, contextImports: contextImports, page: page)
      try write(source, to: "\(folder)/Example.swift")
      compiled.append("\(target) \(location)")
      dependencies.append(([target] + products.map { "\($0.package)/\($0.name)" })
        .joined(separator: " "))
      if example.declaresForPage {
        page.imports += ownImports(example)
        page.code += example.code.filter {
          !$0.trimmingCharacters(in: .whitespaces).hasPrefix("import ")
        }
      }
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
  // The list the manifest and the script read: each target and the
  // products (`package/product`) its article installs.
  try write(dependencies.joined(separator: "\n") + "\n", to: "\(output)/targets.txt")
  try write(compiled.joined(separator: "\n") + "\n", to: "\(output)/locations.txt")
  for (location, reason) in skipped { print("skipped \(location): \(reason)") }
  print("\(compiled.count) block(s) to compile, \(skipped.count) skipped")
}

// MARK: - The stranger's package

/// The lines inside a fragment's top-level `label: [` … `]` list, as written.
func listLines(_ label: String, in code: [String]) -> [String]? {
  guard let start = code.firstIndex(where: { $0.hasPrefix("\(label): [") }) else { return nil }
  var depth = 0
  var inMultilineString = false
  var lines: [String] = []
  for (offset, line) in code[start...].enumerated() {
    depth += depthChange(line, inMultilineString: &inMultilineString)
    if offset == 0 { continue }
    if depth <= 0 { return lines }
    lines.append(line)
  }
  return nil
}

/// The `"…"` of `name: "…"` on a line.
func declaredName(_ line: String) -> String? {
  guard !line.contains(".product("),
    let range = line.range(of: #"name: "[^"]+""#, options: .regularExpression)
  else { return nil }
  return String(line[range].dropFirst(7).dropLast())
}

/// A block whose first line names a file (`// Sources/mytool/MyTool.swift`): where it goes.
func namedFile(_ example: Example) -> String? {
  guard let first = example.code.first?.trimmingCharacters(in: .whitespaces),
    first.hasPrefix("// "), first.hasSuffix(".swift"), !first.dropFirst(3).contains(" ")
  else { return nil }
  return String(first.dropFirst(3))
}

/// Writes the package a stranger makes from the README's Install section and each product
/// article's install section, copying their lines as written: one package (one build, one test
/// bundle) whose dependencies are the sections' `.package` lines and whose targets are their
/// `targets:` items, with an empty target for each of the reader's own targets a section names
/// without declaring (`"MyApp"`). Its test files are the README's examples and each article's
/// first example, as written; a block whose first line is a path comment
/// (`// Sources/mytool/MyTool.swift`) is written to that path. Fails when a library product of
/// the package has no install section, when a section's line for this package differs from the
/// README's, or when two sections name the same test target.
func writeStrangerPackage(root: String, output: String) throws {
  let fileManager = FileManager.default
  struct Section {
    var file: String
    var dependencies: [String]
    var targets: [String]
    var testTarget: String
    var files: [(path: String, code: [String])]
  }
  var sections: [Section] = []
  var files = ["README.md"]
  let sources = URL(fileURLWithPath: root).appendingPathComponent("Sources")
  for module in try fileManager.contentsOfDirectory(atPath: sources.path).sorted() {
    let catalog = "Sources/\(module)/Documentation.docc"
    guard let articles = try? fileManager.contentsOfDirectory(atPath: "\(root)/\(catalog)") else {
      continue
    }
    files += articles.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
  }
  for file in files {
    let found = try examples(in: "\(root)/\(file)", relativePath: file)
    guard
      let fragment = found.first(where: { $0.code.first?.hasPrefix("// Package.swift") == true }),
      let dependencies = listLines("dependencies", in: fragment.code),
      let targets = listLines("targets", in: fragment.code)
    else { continue }
    guard let testTarget = targets.lazy.enumerated().compactMap({ index, line -> String? in
      guard line.contains(".testTarget(") else { return nil }
      return targets[index...].lazy.compactMap(declaredName).first
    }).first else { fail("\(file): the install section declares no test target") }
    let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
    let code = found.filter { $0.skipReason == nil && $0.line != fragment.line }
    var written: [(String, [String])] = code.compactMap { example in
      namedFile(example).map { ($0, Array(example.code.dropFirst())) }
    }
    let tests = code.filter { namedFile($0) == nil && !ownImports($0).isEmpty }
    // The README's examples are all one reader's; an article's first example is where its
    // reader starts.
    for (number, example) in (file == "README.md" ? tests : Array(tests.prefix(1))).enumerated() {
      let name = file == "README.md" ? "\(stem)\(number + 1)" : stem
      written.append(("Tests/\(testTarget)/\(name).swift", example.code))
    }
    sections.append(
      Section(
        file: file, dependencies: dependencies, targets: targets, testTarget: testTarget,
        files: written))
  }
  guard let readme = sections.first, readme.file == "README.md" else {
    fail("README.md has no Install section (a Package.swift fragment with dependencies and targets)")
  }
  // Every library product has a section that installs it.
  let manifest = try String(contentsOfFile: "\(root)/Package.swift", encoding: .utf8)
  let products = manifest.split(separator: "\n").compactMap { line -> String? in
    guard line.contains(".library(name: ") else { return nil }
    return declaredName(String(line))
  }
  let installed = Set(sections.flatMap(\.targets).compactMap { line -> String? in
    guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//"),
      let range = line.range(of: #"\.product\(name: "[^"]+", package: "swift-snapshot-testing"\)"#,
      options: .regularExpression) else { return nil }
    return String(line[range].dropFirst(16).split(separator: "\"")[0])
  })
  for product in products where !installed.contains(product) {
    fail("no install section (README.md or a product's article) adds the product \(product)")
  }
  // One line adds this package, the README's.
  let ownLine = readme.dependencies.map { $0.trimmingCharacters(in: .whitespaces) }
    .first { $0.contains("swift-snapshot-testing") }
  var dependencyLines: [String] = []
  var testTargets: [String: String] = [:]
  for section in sections {
    for line in section.dependencies.map({ $0.trimmingCharacters(in: .whitespaces) })
    where !line.isEmpty {
      if line.contains("swift-snapshot-testing") && line != ownLine {
        fail("\(section.file): its line for this package is not the README's: `\(line)` instead of `\(ownLine ?? "none")`")
      }
      if !dependencyLines.contains(line) { dependencyLines.append(line) }
    }
    if let other = testTargets[section.testTarget] {
      fail("\(section.file) and \(other) both name the test target \(section.testTarget): give each its own")
    }
    testTargets[section.testTarget] = section.file
  }
  // The reader's own targets: plain names the sections list but do not declare.
  let allTargets = sections.flatMap(\.targets)
  let declared = Set(allTargets.compactMap(declaredName))
  var own: [String] = []
  for line in allTargets {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix("\""), trimmed.hasSuffix("\","), !trimmed.contains(":") else { continue }
    let name = String(trimmed.dropFirst().dropLast(2))
    if !declared.contains(name) && !own.contains(name) { own.append(name) }
  }

  try? fileManager.removeItem(atPath: output)
  try fileManager.createDirectory(atPath: output, withIntermediateDirectories: true)
  var text = """
    // swift-tools-version:6.0
    // Written by scripts/check-as-stranger.sh: the lines of the install sections of README.md and
    // of each product's article, as written.
    import PackageDescription

    let package = Package(
      name: "MyApp",
      dependencies: [

    """
  text += dependencyLines.map { "    \($0)\n" }.joined()
  text += "  ],\n  targets: [\n"
  for section in sections {
    text += "    // \(section.file)\n"
    var lines = section.targets
    if let last = lines.lastIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }),
      !lines[last].hasSuffix(",")
    {
      lines[last] += ","
    }
    text += lines.map { "  \($0)\n" }.joined()
  }
  text += "    // The reader's own code, which the sections name.\n"
  text += own.map { "    .target(name: \"\($0)\"),\n" }.joined()
  text += "  ]\n)\n"
  try text.write(toFile: "\(output)/Package.swift", atomically: true, encoding: .utf8)
  for name in own {
    let folder = "\(output)/Sources/\(name)"
    try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try "// The reader's own code.\n".write(
      toFile: "\(folder)/\(name).swift", atomically: true, encoding: .utf8)
  }
  for section in sections {
    for (path, code) in section.files {
      let url = URL(fileURLWithPath: "\(output)/\(path)")
      try fileManager.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try (code.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
      print("\(path) from \(section.file)")
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
case "stranger-package" where arguments.count == 3:
  try writeStrangerPackage(root: arguments[1], output: arguments[2])
default:
  fail(
    "usage: doc-tools module-graphs <module> <graphs> <output> | extract-examples <root> <output>"
      + " | stranger-package <root> <output>")
}
