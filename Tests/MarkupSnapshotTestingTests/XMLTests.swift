import Foundation
import TestSupport
import Testing

@testable import MarkupSnapshotTesting

/// `.xml`: the canonical form and every well-formedness failure, with its line and column.
@Suite struct XMLTests {
  func canonical(_ xml: String) -> String {
    MarkupSnapshotTestingTests.canonical(xml, as: .xml)
  }

  func failure(_ xml: String) -> String? {
    snapshotText(xml, as: .xml).failure
  }

  @Test func oneElementPerLineWithAttributesInSourceOrder() {
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" \
      z='last' a="first"><url><loc>https://example.com/</loc><priority>1.0</priority></url><url \
      ><loc>https://example.com/a?x=1&amp;y=2</loc></url></urlset>
      """
    #expect(
      canonical(xml) == """
        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" z="last" a="first">
          <url>
            <loc>https://example.com/</loc>
            <priority>1.0</priority>
          </url>
          <url>
            <loc>https://example.com/a?x=1&amp;y=2</loc>
          </url>
        </urlset>

        """
    )
  }

  @Test func quotesAreNormalisedWithoutChangingTheValue() {
    #expect(
      canonical(#"<a title='say "hi"' b="it's"/>"#)
        == "<a title=\"say &quot;hi&quot;\" b=\"it's\"/>\n"
    )
  }

  @Test func whitespaceIsDroppedExceptUnderXMLSpacePreserve() {
    let xml = """
      <doc>
        <p>  padded  </p>
        <code xml:space="preserve">  line one
        <b> bold </b>
      </code>
        <empty></empty>
      </doc>
      """
    #expect(
      canonical(xml) == """
        <doc>
          <p>padded</p>
          <code xml:space="preserve">  line one
          <b> bold </b>
        </code>
          <empty/>
        </doc>

        """
    )
  }

  @Test func namespacesCDATACommentsAndProcessingInstructionsAreKept() {
    let xml = """
      <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><!-- feed --><channel>\
      <atom:link href="https://example.com/feed" rel="self"/><?render fast?>\
      <description><![CDATA[<b>Bold</b> & raw]]></description></channel></rss>
      """
    #expect(
      canonical(xml) == """
        <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
          <!-- feed -->
          <channel>
            <atom:link href="https://example.com/feed" rel="self"/>
            <?render fast?>
            <description>
              <![CDATA[<b>Bold</b> & raw]]>
            </description>
          </channel>
        </rss>

        """
    )
  }

  @Test func aByteOrderMarkDeclarationAndDoctypeAreKeptAsWritten() {
    let xml =
      "\u{FEFF}<?xml version='1.0'?>\n<!DOCTYPE note [<!ENTITY who \"Blob\">]>\n<note>&who;</note>"
    #expect(
      canonical(xml)
        == "\u{FEFF}<?xml version='1.0'?>\n<!DOCTYPE note [<!ENTITY who \"Blob\">]>\n<note>&who;</note>\n"
    )
    let data = Data([0xEF, 0xBB, 0xBF] + Array("<a/>".utf8))
    #expect(snapshotText(data, as: .xml).text == "\u{FEFF}<a/>\n")
  }

  @Test func aMultilineTextKeepsItsInnerLines() {
    #expect(canonical("<a>\n  one\n  two\n</a>") == "<a>\n  one\n  two\n</a>\n")
  }

  @Test(arguments: [
    ("<a><b></a>", "line 1, column 9: expected </b>, found </a>"),
    ("<a>\n  <b>\n</a>", "line 3, column 3: expected </b>, found </a>"),
    (
      "<a>\n<b>text</b>",
      "line 2, column 12: the element <a> opened at line 1, column 1 is never closed"
    ),
    ("<a x=1/>", "line 1, column 6: expected a quoted value for the attribute \"x\""),
    ("<a x='1' x='2'/>", "line 1, column 10: the attribute \"x\" appears twice in <a>"),
    (
      "<a>Tom & Jerry</a>",
      "line 1, column 9: \"&\" that does not begin a reference (write &amp; for a literal &)"
    ),
    ("<a/><b/>", "line 1, column 5: a second root element"),
    ("<a/><1", "line 1, column 6: a second root element"),
    ("text<a/>", "line 1, column 1: text before the root element"),
    ("<a/>\ntail", "line 2, column 1: text after the root element"),
    ("", "line 1, column 1: the document has no root element"),
    ("<a><!-- open</a>", "line 1, column 4: the comment is never closed"),
    ("<a><![CDATA[x</a>", "line 1, column 18: the CDATA section is never closed"),
    ("<a title=\"x<y\"/>", "line 1, column 12: \"<\" in the value of the attribute \"title\""),
    (
      "<a/>\n<?xml version=\"1.0\"?>",
      "line 2, column 1: an XML declaration that is not at the start of the document"
    ),
    ("<é>\n  <ü>x</é>", "line 2, column 9: expected </ü>, found </é>"),
    ("</a>", "line 1, column 2: an end tag with no open element"),
    ("<a/></a x>", "line 1, column 6: an end tag with no open element"),
    (
      "<a>&nbsp;</a>",
      "line 1, column 4: the entity \"&nbsp;\" is not declared (XML predefines only &amp;, "
        + "&lt;, &gt;, &apos; and &quot;)"
    ),
    (
      "<a>\n  <b title='&copy; 2026'/></a>",
      "line 2, column 3: the entity \"&copy;\" is not declared (XML predefines only &amp;, "
        + "&lt;, &gt;, &apos; and &quot;)"
    ),
    (
      "<?xml version=\"1.0\" standalone=\"yes\"?><!DOCTYPE a SYSTEM \"a.dtd\"><a>&nbsp;</a>",
      "line 1, column 69: the entity \"&nbsp;\" is not declared (XML predefines only &amp;, "
        + "&lt;, &gt;, &apos; and &quot;)"
    ),
  ])
  func wellFormednessErrorsNameLineAndColumn(xml: String, expected: String) {
    #expect(failure(xml) == "The XML is not well-formed at \(expected).")
  }

  /// The first error is where libexpat (2.5) finds it, line and column: `FuzzXML` compares the
  /// two on every input it tries. Each case was a disagreement before (a document accepted that
  /// expat refuses, or an error found elsewhere).
  @Test(arguments: [
    // Characters XML does not allow, even before a later error and in a construct they cut short.
    ("<a>\u{1}</a>", "line 1, column 4: the control character U+0001, which XML does not allow"),
    ("<a \u{C}/>", "line 1, column 4: the control character U+000C, which XML does not allow"),
    ("<a>x\u{FFFE}", "line 1, column 5: the noncharacter U+FFFE, which XML does not allow"),
    (
      "<a b=\"x\u{1F}\"/>",
      "line 1, column 8: the control character U+001F, which XML does not allow"
    ),
    ("<a></b>\u{1}", "line 1, column 6: expected </a>, found </b>"),
    (
      "<a>&#0;</a>",
      "line 1, column 4: the character reference &#0; names a character XML does not allow"
    ),
    (
      "<a>&#x110000;</a>",
      "line 1, column 4: the character reference &#x110000; names a character XML does not allow"
    ),
    ("<a>&#X41;</a>", "line 1, column 6: a character reference without digits"),
    ("<a b=\"&x\"/>", "line 1, column 9: a reference not ended by \";\""),
    // A tag's syntax first, then its attributes' duplicates and references, in order.
    ("<a x='&nbsp;' -->", "line 1, column 15: expected a name"),
    (
      "<a x='&#0;' x='1' y='&nbsp;'>",
      "line 1, column 7: the character reference &#0; names a character XML does not allow"
    ),
    ("<a x='1' x='&#0;'>", "line 1, column 10: the attribute \"x\" appears twice in <a>"),
    ("<a>&amp", "line 1, column 4: the reference is never closed"),
    ("<a b=\"x", "line 1, column 1: the value of the attribute \"b\" is never closed"),
    ("<a></a", "line 1, column 4: the end tag </a> is never closed"),
    ("<a><!-- a -- b --></a>", "line 1, column 13: \"--\" inside a comment"),
    ("<a><!-- x ---></a>", "line 1, column 13: \"--\" inside a comment"),
    ("<a>]]></a>", "line 1, column 6: \"]]>\" in text"),
    ("<!DOCTYPE a><!DOCTYPE a><a/>", "line 1, column 13: a second DOCTYPE"),
    // Out of place, where its keyword ends without a space (found by FuzzXML).
    ("<!DOCTYPE a><!DOCTYPE>", "line 1, column 22: a second DOCTYPE"),
    ("<a/><!DOCTYPE>", "line 1, column 14: a DOCTYPE after the root element"),
    ("<a/><!DOCTYPE", "line 1, column 5: a DOCTYPE after the root element"),
    ("<a><!DOCTYPE a></a>", "line 1, column 6: \"<!\" that begins no comment or section"),
    ("<a><![CDAT", "line 1, column 4: \"<!\" that begins no comment or section"),
    ("<a><![C\u{4}A", "line 1, column 4: \"<!\" that begins no comment or section"),
    ("<a><![CDXTA[xxxx", "line 1, column 9: \"<!\" that begins no comment or section"),
    // Outside the root, a declaration is out of place where it begins, unless its keyword is cut.
    ("<!ENTITY e \"x\"><a/>", "line 1, column 1: \"<!\" that begins no comment or section"),
    ("<!x><a/>", "line 1, column 4: \"<!\" that begins no comment or section"),
    ("<!ENTITYa% p \"\">", "line 1, column 10: \"<!\" that begins no comment or section"),
    // Any character but a space or "%" after the "%" makes it a declaration out of place, one
    // XML does not allow too (found by FuzzXML: `<!DOCT%`, 0xFF).
    ("<!DOCT%\u{1}", "line 1, column 1: \"<!\" that begins no comment or section"),
    ("<a/><!x>", "line 1, column 8: \"<!\" that begins no comment or section"),
    (
      "<?XML version=\"1.0\"?><a/>",
      "line 1, column 6: the processing instruction target \"XML\", which XML reserves"
    ),
    ("<??><a/>", "line 1, column 3: expected a name"),
    // Cut before its target, where it begins (found by FuzzXML).
    ("<a/><?", "line 1, column 5: the processing instruction is never closed"),
    ("\u{FEFF}<?Xml", "line 1, column 2: the processing instruction is never closed"),
    (
      "<a><?pi\\x?></a>",
      "line 1, column 8: expected a space or \"?>\" after the processing instruction target"
    ),
    ("<?xml?><a/>", "line 1, column 6: an XML declaration with no version"),
    (
      "<?xml encoding=\"UTF-8\"?><a/>",
      "line 1, column 7: an XML declaration with \"encoding\" out of place (version, then "
        + "encoding, then standalone)"
    ),
    (
      "<?xml version=\"1 0\"?><a/>",
      "line 1, column 17: an XML declaration with a value that is not letters, digits and "
        + "\"._-\""
    ),
    ("<?xml =\"1.0\"?><a/>", "line 1, column 7: an XML declaration with a value without a name"),
    (
      // As expat: a pseudo-attribute's name runs to "=" or a space.
      "<?xml version<a/>?><a/>",
      "line 1, column 18: an XML declaration with no \"=\" after version<a/>"
    ),
    (
      "<?xml version=\"1.0\" encoding=\"9x\"?><a/>",
      "line 1, column 31: an XML declaration with an encoding name that is not one"
    ),
    (
      "<?xml version=\"1.0\" standalone=\"maybe\"?><a/>",
      "line 1, column 33: an XML declaration with standalone neither \"yes\" nor \"no\""
    ),
    // Nothing but spaces after standalone, where expat stops (found by FuzzXML).
    (
      "<?xml version=\"1.0\" standalone=\"yes\" <! -->=\"y\"?><a/>",
      "line 1, column 38: an XML declaration with more after standalone"
    ),
    // Carriage returns end lines, as line feeds do (and CR LF is one line end).
    ("<a>\r\r<b></c></a>", "line 3, column 6: expected </b>, found </c>"),
    ("<a>\r\n<b></c></a>", "line 2, column 6: expected </b>, found </c>"),
    // But not a carriage return the content ends in: expat waits for a line feed after it
    // (found by FuzzXML: `<a>M?>`, two carriage returns).
    (
      "<a>M?>\r\r",
      "line 2, column 1: the element <a> opened at line 1, column 1 is never closed"
    ),
    ("<a><![CDATA[x\r", "line 1, column 14: the CDATA section is never closed"),
    // Nor one or two "]" a CDATA section ends in, which may begin its "]]>" (found by FuzzXML).
    ("<a><![CDATA[x]", "line 1, column 14: the CDATA section is never closed"),
    ("<a><![CDATA[x]]]", "line 1, column 15: the CDATA section is never closed"),
    ("<a><![CDATA[]]]]]]", "line 1, column 17: the CDATA section is never closed"),
  ])
  func errorsAreWhereExpatFindsThem(xml: String, expected: String) {
    #expect(failure(xml) == "The XML is not well-formed at \(expected).")
  }

  /// What the reader means to do otherwise than expat; `FuzzXML` does not count these as
  /// disagreements (see Documentation/Reliability.md).
  @Test func theIntendedDifferencesFromExpat() {
    // Names may hold any character outside ASCII; expat refuses "×" (U+00D7) in a name.
    #expect(canonical("<a×b c×=\"1\"/>") == "<a×b c×=\"1\"/>\n")
    // The internal subset is read for its end and the entities it declares, not checked.
    #expect(canonical("<!DOCTYPE a [<!ELEMENT>]><a/>") == "<!DOCTYPE a [<!ELEMENT>]>\n<a/>\n")
    // Nor is the external identifier, nor the rest of the DOCTYPE's syntax (expat refuses a
    // comment in it).
    #expect(canonical("<!DOCTYPE a SYSTEM><a/>") == "<!DOCTYPE a SYSTEM>\n<a/>\n")
    #expect(canonical("<!DOCTYPE a <!-- c --><a/>") == "<!DOCTYPE a <!-- c -->\n<a/>\n")
    // A UTF-16 byte-order mark makes expat read UTF-16, whatever encoding it was given, and
    // accept this document; `.xml` reads only UTF-8 (found by FuzzXML: 0xFE 0xFF, `&amt;`).
    for mark: [UInt8] in [[0xFF, 0xFE], [0xFE, 0xFF]] {
      let document = mark + "<a/>".utf16.flatMap {
        mark[0] == 0xFF ? [UInt8($0), 0] : [0, UInt8($0)]
      }
      #expect(
        snapshotText(Data(document), as: .xml).failure
          == "The XML is UTF-16; only UTF-8 XML can be snapshotted."
      )
    }
    // Text outside the root element is an error at its first character (expat's position
    // depends on how its DTD tokenizer reads it: columns 5 and 11 here).
    #expect(
      failure("text<a/>") == "The XML is not well-formed at line 1, column 1: text before the root "
        + "element."
    )
    #expect(
      failure("<s/> xmlns=\"x\"") == "The XML is not well-formed at line 1, column 6: text after "
        + "the root element."
    )
  }

  /// As in expat (`xmlwf`): the predefined entities, and those the internal subset declares,
  /// are fine; others are too, when an external DTD or a parameter entity may declare them.
  @Test func entitiesTheDocumentDeclaresOrMayDeclareElsewhereAreKeptAsWritten() {
    let predefined = "<a>&lt;&gt;&amp;&apos;&quot;&#160;&#xA0;</a>"
    #expect(canonical(predefined) == predefined + "\n")
    #expect(
      canonical("<!DOCTYPE a [<!ENTITY nbsp \"&#160;\">]><a x='&nbsp;'>&nbsp;</a>")
        == "<!DOCTYPE a [<!ENTITY nbsp \"&#160;\">]>\n<a x=\"&nbsp;\">&nbsp;</a>\n"
    )
    #expect(
      canonical("<!DOCTYPE html SYSTEM \"xhtml1-strict.dtd\"><html>&nbsp;</html>")
        == "<!DOCTYPE html SYSTEM \"xhtml1-strict.dtd\">\n<html>&nbsp;</html>\n"
    )
    #expect(
      canonical("<!DOCTYPE a [<!ENTITY % p SYSTEM \"p.ent\"> %p;]><a>&x;</a>")
        == "<!DOCTYPE a [<!ENTITY % p SYSTEM \"p.ent\"> %p;]>\n<a>&x;</a>\n"
    )
    // A parameter entity's declaration does not declare a general entity of its name.
    let parameter = "<!DOCTYPE a [<!ENTITY % p \"\">]><a>&p;</a>"
    #expect(
      failure(parameter)?.hasPrefix(
        "The XML is not well-formed at line 1, column 35: the entity \"&p;\""
      ) == true
    )
  }

  @Test func invalidUTF8AndUTF16FailNamingTheProblem() {
    let invalid = Data(Array("<a>".utf8) + [0xFF] + Array("</a>".utf8))
    #expect(
      snapshotText(invalid, as: .xml).failure
        == "The XML is not valid UTF-8 at line 1, column 4 (byte 3)."
    )
    // Columns count characters: "é" is one, and the bad byte is the fourth of line 2.
    let later = Data(Array("<a>\nxé".utf8) + [0xC3, 0x28] + Array("</a>".utf8))
    #expect(
      snapshotText(later, as: .xml).failure
        == "The XML is not valid UTF-8 at line 2, column 3 (byte 7)."
    )
    // A character cut by the end of the document is reported, as expat does, where the tag it
    // stands in begins.
    let cut = Data(Array("<a>\n <".utf8) + [0xC3])
    #expect(
      snapshotText(cut, as: .xml).failure
        == "The XML is not valid UTF-8 at line 2, column 2 (byte 5)."
    )
    // Cut, as expat tells it, by the lead byte alone: fewer bytes follow it than it announces,
    // whatever they are (found by FuzzXML: `<C`, 0xEF, 0x04), and 0xC0 announces two.
    for tail: [UInt8] in [[0xEF, 0x04], [0xC0], [0xF0, 0x90, 0x41]] {
      #expect(
        snapshotText(Data(Array("<a>\n <".utf8) + tail), as: .xml).failure
          == "The XML is not valid UTF-8 at line 2, column 2 (byte 5).",
        "\(tail)"
      )
    }
    // A character reference takes only digits, "x" and ";": one cut by a character is that
    // character's error, where it stands, in text and in a value alike (found by FuzzXML).
    // So does "<!" with what may follow it (found by FuzzXML: a tab, "<!-", 0xD0).
    // So does a tag where only ASCII may come (found by FuzzXML: `<a bitm `, 0xCE), and "--"
    // or "?" before their ">".
    for prefix in [
      "<a>\n +&#x", "<a>&#", "<a b=\"&#x", "\t<!-", "<!", "<!DOC", "<a><!-", "<a bitm ",
      "<a b = ", "<a b=\"x\"", "<a b=\"x\"/", "<a></a ", "<?pi?", "<a><!-- a --",
    ] {
      let offset = prefix.utf8.count
      #expect(
        snapshotText(Data(Array(prefix.utf8) + [0xC3]), as: .xml).failure?.hasSuffix(
          "(byte \(offset))."
        ) == true,
        "\(prefix)"
      )
    }
    // Where a name may go on, or after a space in a tag, the cut character is the tag's error.
    for prefix in ["<a bitm", "<a ", "<a b=\"x\" ", "<a></a"] {
      #expect(
        snapshotText(Data(Array(prefix.utf8) + [0xC3]), as: .xml).failure?.hasSuffix(
          prefix.hasPrefix("<a></") ? "(byte 3)." : "(byte 0)."
        ) == true,
        "\(prefix)"
      )
    }
    #expect(
      snapshotText(Data(Array("<!DOCT%".utf8) + [0xFF]), as: .xml).failure
        == "The XML is not well-formed at line 1, column 1: \"<!\" that begins no comment or "
        + "section."
    )
    // After the root element, "<" and a lead byte are a second root element, even when the
    // character is bad (found by FuzzXML: `<é>…</é><`, 0xC3 0x54); other bytes are errors.
    for tail: [UInt8] in [[0xC3, 0x54], [0xC3], [0xF4, 0x90, 0x80, 0x80]] {
      #expect(
        snapshotText(Data(Array("<a/><".utf8) + tail), as: .xml).failure
          == "The XML is not well-formed at line 1, column 5: a second root element.",
        "\(tail)"
      )
    }
    #expect(
      snapshotText(Data(Array("<a/><".utf8) + [0xFF]), as: .xml).failure
        == "The XML is not valid UTF-8 at line 1, column 6 (byte 5)."
    )
    #expect(
      snapshotText(Data(Array("<a></a>\t<!DOCTYPE".utf8) + [0xFF]), as: .xml).failure
        == "The XML is not valid UTF-8 at line 1, column 18 (byte 17)."
    )
    // A "]" before a cut character is counted, as the section goes on (found by FuzzXML).
    #expect(
      snapshotText(Data(Array("<r><![CDATA[ ]".utf8) + [0xEF, 0x5D]), as: .xml).failure
        == "The XML is not valid UTF-8 at line 1, column 15 (byte 14)."
    )
    // With as many bytes as it announces, the lead is where it stands.
    #expect(
      snapshotText(Data(Array("<a>x".utf8) + [0xC0, 0x04]), as: .xml).failure
        == "The XML is not valid UTF-8 at line 1, column 5 (byte 4)."
    )
    let utf16 = Data([0xFF, 0xFE, 0x3C, 0x00])
    #expect(
      snapshotText(utf16, as: .xml).failure
        == "The XML is UTF-16; only UTF-8 XML can be snapshotted."
    )
  }

  @Test func deepAndLongDocumentsNeitherOverflowNorHang() {
    let depth = 10_000
    let deep = String(repeating: "<d>", count: depth) + String(repeating: "</d>", count: depth)
    let text = canonical(deep)
    #expect(text.split(separator: "\n").count == 2 * depth - 1)
    let long = "<r>" + String(repeating: "<i a=\"1\">x</i>", count: 500_000) + "</r>"
    #expect(canonical(long).split(separator: "\n").count == 500_002)
  }

  @Test func theReferenceIsADotXMLFileThatMatchesOnTheNextRun() throws {
    try withTemporaryFolder { folder in
      let message = verifySnapshot(
        of: "<a><b/></a>",
        as: .xml,
        named: "sitemap",
        record: .missing,
        snapshotDirectory: folder.path,
        testName: "feed"
      )
      #expect(message?.contains("Recorded") == true || message?.contains("recorded") == true)
      #expect(files(under: folder) == ["feed.sitemap.xml"])
      let written = try String(
        contentsOf: folder.appendingPathComponent("feed.sitemap.xml"),
        encoding: .utf8
      )
      #expect(written == "<a>\n  <b/>\n</a>\n")
      #expect(
        verifySnapshot(
          of: "<a>\n<b></b>\n</a>",
          as: .xml,
          named: "sitemap",
          record: .never,
          snapshotDirectory: folder.path,
          testName: "feed"
        ) == nil
      )
    }
  }

  @Test func aMalformedDocumentFailsTheAssertionAndRecordsNothing() {
    withTemporaryFolder { folder in
      let message = verifySnapshot(
        of: "<a>",
        as: .xml,
        record: .all,
        snapshotDirectory: folder.path,
        testName: "broken"
      )
      #expect(message?.contains("The XML is not well-formed at line 1, column 4") == true)
      #expect(files(under: folder) == [])
    }
  }
}
