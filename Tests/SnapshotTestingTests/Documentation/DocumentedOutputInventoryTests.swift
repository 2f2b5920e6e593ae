import Foundation
import TestSupport
import Testing

/// Every block of output in the articles is checked against a run: this list names, for each
/// block that is neither Swift (compiled by `scripts/check-doc-examples.sh`) nor shell commands,
/// the test that produces it. A new output block fails here until a test checks it and it is
/// listed. Reviewing and Performance are left out: the review tool's outputs are checked by
/// `DocumentedReviewOutputTests`, and Performance shows measured figures, not outputs.
@Suite struct DocumentedOutputInventoryTests {
  /// An article's file name, the start of a block's first line, and the test that checks it.
  static let checked: [(article: String, firstLine: String, checkedBy: String)] = [
    ("CommandSnapshots.md", "$ mytool --help", "DocumentedReferenceTests"),
    ("CommandSnapshots.md", "$ mytool --colour red", "DocumentedReferenceTests"),
    ("CommandSnapshots.md", "$ mytool delete", "DocumentedReferenceTests"),
    ("HTTPSnapshots.md", "GET /invoices/42", "DocumentedHTTPOutputTests.showInvoice"),
    ("HTTPSnapshots.md", "HTTP/1.1 200 OK", "DocumentedHTTPOutputTests.showInvoice"),
    ("HTTPSnapshots.md", "HTTP/1.1 200 OK", "DocumentedHTTPOutputTests.aGzipBody"),
    ("ImageSnapshots.md", "Newly-taken snapshot", "DocumentedImageOutputTests"),
    ("InlineSnapshots.md", "Automatically recorded", "InlineFailureMessageTests"),
    ("MarkupSnapshotTesting.md", "<ul class=", "DocumentedMarkupOutputTests.homePage"),
    ("MarkupSnapshots.md", "<?xml", "DocumentedMarkupOutputTests.sitemap"),
    ("MarkupSnapshots.md", "The XML is not", "DocumentedMarkupOutputTests"),
    ("MarkupSnapshots.md", "The redaction selector", "DocumentedMarkupOutputTests"),
    ("MarkupSnapshots.md", "The HTML nests elements", "DeepNestingTests"),
    ("DatabaseSnapshots.md", "id | title", "DocumentedDatabaseOutputTests.rows"),
    ("DatabaseSnapshots.md", "Note: the query has no ORDER BY", "FailureTests"),
    ("DatabaseSnapshots.md", "`SELECT n FROM generate_series", "FailureTests"),
    ("DatabaseSnapshots.md", "TABLE public.lists", "DocumentedDatabaseOutputTests.schema"),
    ("DatabaseSnapshots.md", "TABLE lists", "DocumentedDatabaseOutputTests.schema"),
    ("DatabaseSnapshots.md", "Index Scan using", "DocumentedDatabaseOutputTests.queryPlan"),
    ("DatabaseSnapshots.md", "SEARCH todos", "DocumentedDatabaseOutputTests.queryPlan"),
    ("DatabaseSnapshots.md", "@@ −1,1 +1,1 @@", "FailureTests"),
    ("DatabaseSnapshots.md", "The database at", "FailureTests"),
    ("DirectorySnapshots.md", "Folder snapshot", "DocumentedFailureMessageTests"),
    ("GettingStarted.md", "Snapshot does not match", "DocumentedOutputTests"),
    ("RecordModesAndCI.md", "No reference was found", "DocumentedFailureMessageTests"),
    ("SnapshotTestingCustomDump.md", "User(", "DocumentedCustomDumpOutputTests"),
    // A grammar, not an output.
    ("Redaction.md", "selector :=", "none needed"),
    ("Redaction.md", "The redaction selector", "DocumentedFailureMessageTests"),
    ("Redaction.md", "The redaction selector", "DocumentedFailureMessageTests"),
    ("Scrubbing.md", "before: id:", "DocumentedScrubberOutputTests"),
    ("Scrubbing.md", "before: created:", "DocumentedScrubberOutputTests"),
    ("Scrubbing.md", "before: <Cache:", "DocumentedScrubberOutputTests"),
    ("Scrubbing.md", "before: fetch", "DocumentedScrubberOutputTests"),
    ("Scrubbing.md", "before: wrote", "DocumentedScrubberOutputTests"),
    ("Scrubbing.md", "The scrubber", "DocumentedScrubberOutputTests"),
    ("Strategies.md", "▿ User", "DocumentedStrategyOutputTests.dump"),
    ("Strategies.md", "User(id: 1", "DocumentedStrategyOutputTests.description"),
    ("Strategies.md", "{", "DocumentedStrategyOutputTests.json"),
    ("Strategies.md", "<?xml", "DocumentedStrategyOutputTests.plist"),
    ("Strategies.md", "POST https://", "DocumentedStrategyOutputTests.raw"),
    ("Strategies.md", "curl", "DocumentedStrategyOutputTests.curl"),
    ("Strategies.md", "\"up\",\"left\"", "DocumentedStrategyOutputTests.function"),
    ("Variants.md", "The reference variant", "DocumentedFailureMessageTests"),
    ("Variants.md", "1 reference file of other variants", "PruneVariantTests"),
    ("Transcripts.md", "── request", "DocumentedTranscriptOutputTests.showsATodo"),
    ("Transcripts.md", "── span", "DocumentedTranscriptOutputTests.aNestedSpan"),
    ("Transcripts.md", "── request", "DocumentedReferenceTests"),
    ("Transcripts.md", "── sql debug todos", "DocumentedTranscriptOutputTests.aStatementLoggedWithTheOneLine"),
    ("Transcripts.md", "── request", "DocumentedReferenceTests"),
    ("WebPagesAndSVG.md", "- heading", "AccessibilityTreeTests.documentedExample"),
  ]

  /// The article's file name and the first line of each fenced block that is not Swift or
  /// shell, in the order they appear.
  static func outputBlocks() throws -> [(article: String, firstLine: String)] {
    let sources = packageRoot.appendingPathComponent("Sources")
    var found: [(String, String)] = []
    for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
      let catalog = sources.appendingPathComponent("\(module)/Documentation.docc")
      let articles = (try? FileManager.default.contentsOfDirectory(atPath: catalog.path)) ?? []
      for article in articles.sorted() where article.hasSuffix(".md") {
        if article == "Reviewing.md" || article == "Performance.md" { continue }
        let text = try String(
          contentsOf: catalog.appendingPathComponent(article),
          encoding: .utf8
        )
        var inBlock = false
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
          let trimmed = line.drop { $0 == " " }
          guard trimmed.hasPrefix("```") else { continue }
          defer { inBlock.toggle() }
          let info = trimmed.dropFirst(3)
          if inBlock || info == "swift" || info == "sh" { continue }
          found.append((article, String(lines.first?.drop { $0 == " " } ?? "")))
        }
      }
    }
    return found
  }

  @Test func everyOutputBlockIsCheckedByATest() throws {
    let blocks = try Self.outputBlocks()
    let unlisted = blocks.filter { block in
      !Self.checked.contains {
        $0.article == block.article && block.firstLine.hasPrefix($0.firstLine)
      }
    }
    #expect(unlisted.isEmpty, "output blocks no test checks: \(unlisted)")
    for entry in Self.checked {
      let count = Self.checked.filter {
        $0.article == entry.article && $0.firstLine == entry.firstLine
      }.count
      let present = blocks.filter {
        $0.article == entry.article && $0.firstLine.hasPrefix(entry.firstLine)
      }.count
      #expect(count <= present, "\(entry.article) no longer shows “\(entry.firstLine)…”")
    }
  }
}
