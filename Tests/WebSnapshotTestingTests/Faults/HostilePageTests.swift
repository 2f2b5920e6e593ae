import Foundation
import ImageSnapshotTesting
import SnapshotTesting
import Testing

@testable import WebSnapshotTesting

/// Pages that try to escape their snapshot: navigating themselves elsewhere (a local file into
/// the reference), or opening a dialog that would hold the snapshot until its timeout.
@Suite(.enabled(if: WebTesting.chromiumInstalled, WebTesting.skipReason))
struct HostilePageTests {
  @Test(arguments: [
    "<script>onload = () => { location.href = 'file:///etc/hostname' }</script>",
    "<script>location.replace('file:///etc/hostname')</script>",
    "<meta http-equiv=refresh content=\"0; url=file:///etc/hostname\"><p>wait</p>",
  ])
  func aPageThatNavigatesItselfAwayFailsNamingTheTarget(html: String) {
    let folder = ReferenceFolder()
    defer { folder.remove() }
    let failure = folder.verify(WebPage(html: html), as: .image, record: .all, timeout: 20)
    #expect(
      failure?.contains("The web page navigated itself to file:///etc/hostname, away from") == true,
      "\(failure ?? "passed")"
    )
    #expect(folder.recordedFiles.isEmpty)
  }

  @Test func aServedPageThatNavigatesToAnotherOfItsServerFailsToo() throws {
    let server = try LoopbackServer(routes: [
      "/start": .respond(
        status: 200,
        contentType: "text/html",
        body: "<script>location.href = '/elsewhere'</script>"
      ),
      "/elsewhere": .respond(status: 200, contentType: "text/html", body: "<p>elsewhere</p>"),
    ])
    defer { server.stop() }
    let (_, failure, _) = WebTesting.snapshot(WebPage(url: server.url("/start")), as: .image)
    #expect(
      failure?.contains("navigated itself to \(server.url("/elsewhere").absoluteString)") == true,
      "\(failure ?? "passed")"
    )
  }

  /// Moving to an anchor of the page stays in its document.
  @Test func aPageThatMovesToItsOwnAnchorIsSnapshotted() throws {
    let page = WebTesting.solidPage(
      "#0f0",
      extra: "<p id=a>a</p><script>location.hash = '#a'</script>"
    )
    let bitmap = try WebTesting.render(page, as: .image(width: 10, height: 10))
    #expect(bitmap.pixel(x: 1, y: 1) == RGBA(red: 0, green: 255, blue: 0))
  }

  @Test(arguments: [
    ("alert", "<script>alert('hello from alert')</script>", "hello from alert"),
    ("confirm", "<script>onload = () => confirm('sure?')</script>", "sure?"),
    ("prompt", "<script>prompt('your name', 'x')</script>", "your name"),
  ])
  func aDialogIsClosedAtOnceAndFailsNamingItsKindAndText(
    kind: String,
    html: String,
    text: String
  ) throws {
    let started = Date()
    let (_, failure, _) = WebTesting.snapshot(WebPage(html: html), as: .image, timeout: 30)
    #expect(
      failure?.contains("The web page opened a JavaScript \(kind) dialog (\"\(text)\")") == true,
      "\(failure ?? "passed")"
    )
    // At once, not at the timeout.
    #expect(Date().timeIntervalSince(started) < 15)
    // The next snapshot works.
    let bitmap = try WebTesting.render(
      WebTesting.solidPage("#00f"),
      as: .image(width: 10, height: 10)
    )
    #expect(bitmap.pixel(x: 1, y: 1) == RGBA(red: 0, green: 0, blue: 255))
  }
}
