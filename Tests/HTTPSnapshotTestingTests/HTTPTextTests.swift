import Foundation
import TestSupport
import HTTPTypes
import RunRecord
import SnapshotTesting
import Testing

@testable import HTTPSnapshotTesting

/// The `.http` text of real swift-http-types values: start lines, fields in order, placeholders,
/// and bodies rendered by their content type.
@Suite struct HTTPTextTests {
  static let notFound = HTTPResponse(
    status: .notFound,
    headerFields: [
      .contentType: "text/plain; charset=utf-8",
      .date: "Tue, 24 Nov 2026 04:47:00 GMT",
      .cacheControl: "no-store",
      .age: "12",
    ]
  )

  @Test func aResponseIsItsStatusLineThenItsFieldsInOrder() {
    let (text, failure) = snapshotText(Self.notFound, as: .http)
    #expect(failure == nil)
    #expect(
      text == """
        HTTP/1.1 404 Not Found
        Content-Type: text/plain; charset=utf-8
        Date: <Date>
        Cache-Control: no-store
        Age: <Age>
        """
    )
  }

  @Test func volatileFieldsCanBeKept() {
    let (text, _) = snapshotText(Self.notFound, as: .http(replacingValuesOf: []))
    #expect(text.contains("Date: Tue, 24 Nov 2026 04:47:00 GMT\n"))
    #expect(text.hasSuffix("Age: 12"))
  }

  @Test func aStatusWithoutReasonPhraseIsItsCode() {
    let (text, _) = snapshotText(HTTPResponse(status: 299), as: .http)
    #expect(text == "HTTP/1.1 299")
  }

  /// The function another module calls for `.http`'s text (the transcript) gives the text the
  /// strategy snapshots: a request, a response with a Date and a JSON body, and an empty one.
  @Test func httpTextIsWhatTheStrategySnapshots() {
    let messages = [
      HTTPMessage(
        HTTPRequest(method: .post, scheme: "https", authority: "api.test", path: "/a?b=1"),
        body: Data("x=1&y=%20".utf8)
      ),
      HTTPMessage(
        HTTPResponse(
          status: .ok,
          headerFields: [.contentType: "application/json", .date: "Tue, 1 Jan 2030 00:00:00 GMT"]
        ),
        body: Data(#"{"b":[1,2.50,"x/y"],"a":{"c":null}}"#.utf8)
      ),
      HTTPMessage(HTTPResponse(status: .noContent)),
    ]
    for message in messages {
      #expect(httpText(of: message) == snapshotText(message, as: .http).text)
    }
  }

  /// A code is three digits, zero-padded, as `%03d` wrote it before it was padded by hand.
  @Test(arguments: [0, 7, 42, 100, 999])
  func aStatusCodeIsThreeDigits(_ code: Int) {
    let (text, _) = snapshotText(HTTPResponse(status: .init(code: code)), as: .http)
    #expect(text == "HTTP/1.1 " + String(format: "%03d", code))
  }

  @Test func aRequestIsItsRequestLineThenHostThenItsFields() {
    let request = HTTPRequest(
      method: .get,
      scheme: "https",
      authority: "api.example.com",
      path: "/invoices/42?expand=lines",
      headerFields: [.accept: "application/json", .userAgent: "tests/1.0"]
    )
    let (text, _) = snapshotText(request, as: .http)
    #expect(
      text == """
        GET /invoices/42?expand=lines HTTP/1.1
        Host: api.example.com
        Accept: application/json
        User-Agent: tests/1.0
        """
    )
  }

  @Test func aJSONBodyIsExactlyWhatDotJSONPrints() throws {
    struct Invoice: Codable {
      var id: Int
      var customer: String
      var lines: [String]
      var paid: Bool
      var total: Double
    }
    let invoice = Invoice(id: 42, customer: "Blob", lines: ["a", "b"], paid: false, total: 12.5)
    let body = try JSONEncoder().encode(invoice)
    let response = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])

    let (text, failure) = snapshotText(HTTPMessage(response, body: body), as: .http)
    let (encodable, _) = snapshotText(invoice, as: .json)
    let (object, _) = snapshotText(try JSONSerialization.jsonObject(with: body), as: .json)

    #expect(failure == nil)
    #expect(text == "HTTP/1.1 200 OK\nContent-Type: application/json\n\n" + object)
    #expect(object == encodable)
    #expect(text.contains("  \"customer\" : \"Blob\",\n  \"id\" : 42,\n"))
  }

  @Test func problemJSONAndCharsetsAreJSONToo() {
    let response = HTTPResponse(
      status: .badRequest,
      headerFields: [.contentType: "Application/Problem+JSON; charset=UTF-8"]
    )
    let body = Data(#"{"title":"Bad","status":400}"#.utf8)
    let (text, _) = snapshotText(HTTPMessage(response, body: body), as: .http)
    #expect(text.hasSuffix("\n\n{\n  \"status\" : 400,\n  \"title\" : \"Bad\"\n}"))
  }

  @Test func aFormBodyIsOneDecodedFieldALine() {
    let request = HTTPRequest(
      method: .post,
      scheme: "https",
      authority: "example.com",
      path: "/subscribe",
      headerFields: [.contentType: "application/x-www-form-urlencoded"]
    )
    let body = Data(
      "plan=yearly&name=Blob+Sr.&note=two%0Alines&email=blob%40example.com&flag&bad=%zz".utf8
    )
    let (text, _) = snapshotText(HTTPMessage(request, body: body), as: .http)
    #expect(
      text.hasSuffix(
        """


        plan=yearly
        name=Blob Sr.
        note=two\\nlines
        email=blob@example.com
        flag
        bad=%zz
        """
      )
    )
  }

  @Test(arguments: ["text/html; charset=utf-8", "application/xml", "image/svg+xml", "text/csv"])
  func textAndXMLBodiesAreTheirText(_ contentType: String) throws {
    let response = HTTPResponse(
      status: .ok,
      headerFields: [.contentType: contentType]
    )
    let body = "<p>Grüße & <b>bye</b></p>\n"
    let (text, _) = snapshotText(HTTPMessage(response, body: Data(body.utf8)), as: .http)
    #expect(text.hasSuffix("\n\n" + body))
  }

  @Test func aBinaryBodyIsItsTypeSizeAndDigest() {
    let response = HTTPResponse(status: .ok, headerFields: [.contentType: "image/png"])
    let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    let (text, failure) = snapshotText(HTTPMessage(response, body: png), as: .http)
    #expect(failure == nil)
    #expect(
      text == """
        HTTP/1.1 200 OK
        Content-Type: image/png

        [image/png body: 8 bytes, SHA-256 \
        4c4b6a3be1314ab86138bef4314dde022e600960d8689a2c8f8631802d20dab6]
        """
    )
  }

  @Test func aBodyWithoutContentTypeIsSummarised() {
    let (text, _) = snapshotText(
      HTTPMessage(HTTPResponse(status: .ok), body: Data("x".utf8)),
      as: .http
    )
    #expect(
      text.hasSuffix(
        "\n\n[no Content-Type body: 1 byte, SHA-256 "
          + "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881]"
      )
    )
  }

  @Test func anEmptyOrMissingBodyAddsNothing() {
    let response = HTTPResponse(status: .noContent)
    #expect(
      snapshotText(HTTPMessage(response, body: Data()), as: .http).text == "HTTP/1.1 204 No Content"
    )
    #expect(snapshotText(HTTPMessage(response), as: .http).text == "HTTP/1.1 204 No Content")
  }

  // MARK: Bad bodies

  @Test func aBodyThatClaimsJSONButIsNotIsTextUnderANote() {
    let response = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])
    let body = Data("{\"id\": 42,".utf8)
    let (text, failure) = snapshotText(HTTPMessage(response, body: body), as: .http)
    #expect(failure == nil)
    #expect(
      text.hasSuffix(
        """


        [application/json body is not valid JSON; shown as text]
        {"id": 42,
        """
      )
    )
  }

  @Test(arguments: ["text/plain", "application/json", "application/x-www-form-urlencoded"])
  func aBodyThatIsNotUTF8UnderATextTypeIsItsByteCount(_ contentType: String) {
    let response = HTTPResponse(status: .ok, headerFields: [.contentType: contentType])
    let body = Data([0x68, 0x69, 0xFF, 0xFE])
    let (text, failure) = snapshotText(HTTPMessage(response, body: body), as: .http)
    #expect(failure == nil)
    #expect(
      text.hasSuffix(
        "\n\n[\(contentType) body, not UTF-8: 4 bytes, SHA-256 \(SHA256.hexDigest(of: body))]"
      )
    )
  }

  // MARK: Scrubbing

  @Test func scrubbersApplyToTheWholeMessage() {
    let response = HTTPResponse(
      status: .created,
      headerFields: [
        .contentType: "application/json",
        .location: "/invoices/8F2A1C3E-3D4B-4F5A-9B6C-7D8E9F0A1B2C",
      ]
    )
    let body = Data(#"{"id":"8F2A1C3E-3D4B-4F5A-9B6C-7D8E9F0A1B2C"}"#.utf8)
    let (text, _) = snapshotText(
      HTTPMessage(response, body: body),
      as: .http.scrubbing(.uuids)
    )
    #expect(
      text == """
        HTTP/1.1 201 Created
        Content-Type: application/json
        Location: /invoices/UUID_1

        {
          "id" : "UUID_1"
        }
        """
    )
  }
}

@Suite struct SHA256Tests {
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    // 60 bytes: the length no longer fits in the last block, so padding takes a second one.
    (
      String(repeating: "a", count: 60),
      "11ee391211c6256460b6ed375957fadd8061cafbb31daf967db875aebd5aaad4"
    ),
  ])
  func knownDigests(_ text: String, _ digest: String) {
    #expect(SHA256.hexDigest(of: Data(text.utf8)) == digest)
  }

  @Test func aDigestOverSeveralBlocks() {
    // 1024 bytes: sixteen whole blocks and a block of padding alone.
    let data = Data((0..<1024).map { UInt8($0 % 256) })
    #expect(
      SHA256.hexDigest(of: data)
        == "785b0751fc2c53dc14a4ce3d800e69ef9ce1009eb327ccf458afe09c242c26c9"
    )
  }
}
