import Foundation
import RunRecord
import SnapshotTesting
import XCTest

@testable import WebSnapshotTesting

#if canImport(Glibc)
  import Glibc
#endif

/// Requests never leave the machine, proved the hard way: the browser runs in a network
/// namespace with only loopback, where `evil.test` resolves to 127.0.0.1 (a private
/// `/etc/hosts`), names are looked up through a DNS server on loopback that logs every query,
/// and a server logs every connection. A page served from loopback makes every kind of request
/// to `evil.test`: any connection to its port, or any name looked up, is a leak.
///
/// The namespace is made by a wrapper that `SNAPSHOT_TESTING_CHROMIUM` names, so the test
/// process itself stays where it is. XCTest runs these apart from the Swift Testing suites, so
/// swapping the shared browser disturbs no other test.
final class NetworkIsolationTests: XCTestCase {
  /// The port of the page and its allowed requests; every connection to `leakPort` is a leak.
  static let pagePort = 8000
  static let leakPort = 8001

  override func setUpWithError() throws {
    try XCTSkipUnless(WebTesting.chromiumInstalled, "Chromium is not installed")
    if let reason = Self.namespaceUnavailable() {
      // On CI (as root) the wall must be tested: a missing namespace is a failure there.
      if ProcessInfo.processInfo.environment["CI"].map({ !$0.isEmpty }) == true {
        XCTFail("Network namespaces are required on CI: \(reason)")
      }
      throw XCTSkip("Network namespaces are unavailable here: \(reason)")
    }
  }

  /// The kinds of request the page makes to `evil.test`, as the paths they ask for.
  static let kinds = [
    "from-page", "from-frame", "from-worker", "from-shared-worker", "from-service-worker",
    "beacon", "socket",
  ]

  func testNoRequestOfAnyKindLeavesTheMachineAndEachIsNamed() async throws {
    let run = try await snapshotInNamespace(walls: .both)
    XCTAssertEqual(run.leaks, [], "reached the network: \(run.log)")
    XCTAssertNil(run.failure)
    assertEveryKindNamed(run.warnings)
  }

  /// The browser's own rule holds alone: with no interception at all, nothing the page does and
  /// nothing the browser does on its own reaches a name or a host that is not loopback.
  func testTheBrowserRuleAloneLetsNothingOut() async throws {
    let run = try await snapshotInNamespace(walls: .browserRule)
    XCTAssertEqual(run.leaks, [], "reached the network: \(run.log)")
    XCTAssertNil(run.failure)
  }

  /// Interception alone names every request and stops each one it can pause; what it cannot
  /// pause (a WebSocket's handshake, a bare preconnect, the browser's own look-ups) is what the
  /// browser's rule is there for.
  func testInterceptionAloneNamesEveryRequest() async throws {
    let run = try await snapshotInNamespace(walls: .interception)
    XCTAssertNil(run.failure)
    assertEveryKindNamed(run.warnings)
    let requests = run.leaks.filter { $0.hasPrefix("\(Self.leakPort) ") }.filter {
      !$0.contains("GET /socket ") && !$0.contains("(connection, no request)")
    }
    XCTAssertEqual(requests, [], "an intercepted request reached the network: \(run.log)")
  }

  private func assertEveryKindNamed(
    _ warnings: [String],
    file: StaticString = #filePath,
    line: UInt = #line
  ) {
    let named = warnings.joined(separator: "\n")
    for kind in Self.kinds {
      XCTAssertTrue(
        named.contains("http://evil.test:\(Self.leakPort)/\(kind)")
          || named.contains("ws://evil.test:\(Self.leakPort)/\(kind)"),
        "\(kind) is not named: \(named)",
        file: file,
        line: line
      )
    }
    XCTAssertTrue(named.contains("which was blocked"), named, file: file, line: line)
  }

  /// The page snapshotted by a browser in the namespace with `walls` up, and what the servers
  /// logged: `leaks` are the connections to the leak port and the names looked up.
  private func snapshotInNamespace(
    walls: NetworkWalls
  ) async throws -> (log: String, leaks: [String], failure: String?, warnings: [String]) {
    let folder = try Self.makeNamespaceFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let browser = try XCTUnwrap(
      try? BrowserExecutable.locate(in: .process).get()
    )
    let wrapper = try Self.writeWrapper(in: folder, browser: browser)

    await SharedBrowser.shared.stop()
    let environment = WebTesting.environment([.chromium: wrapper.path])
    let (_, failure, warnings) = RunEnvironment.withOverride(environment) {
      TestHooks.with(NetworkWalls.Override.self, walls) {
        WebTesting.snapshot(
          WebPage(url: URL(string: "http://127.0.0.1:\(Self.pagePort)/page")!),
          as: .image(width: 200, height: 200),
          timeout: 60
        )
      }
    }
    await SharedBrowser.shared.stop()

    let log = (try? String(contentsOf: folder.appendingPathComponent("log"), encoding: .utf8)) ?? ""
    let lines = log.split(separator: "\n").map(String.init)
    // The server saw the page and what it may load: the test proves something.
    for expected in ["GET /page", "GET /frame", "GET /worker.js", "GET /shared.js", "GET /sw.js"] {
      XCTAssertTrue(lines.contains { $0.hasPrefix("\(Self.pagePort) \(expected) ") }, log)
    }
    XCTAssertTrue(lines.contains("\(Self.pagePort) GET /frame localhost:\(Self.pagePort)"), log)
    let leaks = lines.filter { $0.hasPrefix("\(Self.leakPort) ") || $0.hasPrefix("dns ") }
    return (log, leaks, failure, warnings)
  }

  // MARK: The namespace

  /// Why a loopback-only network namespace cannot be made here, or nil.
  static func namespaceUnavailable() -> String? {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
      return "no /usr/bin/unshare"
    }
    guard python() != nil else { return "no python3 for the logging server" }
    guard ipCommand() != nil else { return "no `ip` (iproute2) to bring loopback up" }
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    probe.arguments = ["--net", "--mount", "/bin/true"]
    probe.standardError = FileHandle.nullDevice
    do { try probe.run() } catch { return "unshare: \(error)" }
    probe.waitUntilExit()
    return probe.terminationStatus == 0
      ? nil : "`unshare --net --mount` failed (it needs root or user namespaces)"
  }

  static func ipCommand() -> String? {
    ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  static func python() -> String? {
    for candidate in ["/usr/bin/python3", "/usr/local/bin/python3"]
    where FileManager.default.isExecutableFile(atPath: candidate) {
      return candidate
    }
    return nil
  }

  static func makeNamespaceFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("snapshot-testing-isolation-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("127.0.0.1 localhost evil.test\n::1 localhost\n".utf8)
      .write(to: folder.appendingPathComponent("hosts"))
    try Data("nameserver 127.0.0.1\n".utf8).write(to: folder.appendingPathComponent("resolv.conf"))
    try Data(server.utf8).write(to: folder.appendingPathComponent("server.py"))
    return folder
  }

  /// A browser executable that makes the namespace, starts the logging servers in it, and runs
  /// the real browser there, with the arguments it was given.
  static func writeWrapper(in folder: URL, browser: String) throws -> URL {
    let wrapper = folder.appendingPathComponent("chromium-in-namespace")
    let script = """
      #!/bin/sh
      exec /usr/bin/unshare --net --mount /bin/sh -c '
        set -e
        \(ipCommand()!) link set lo up
        mount --bind "$0/hosts" /etc/hosts
        mount --bind "$0/resolv.conf" /etc/resolv.conf
        \(python()!) "$0/server.py" "$0" &
        while [ ! -e "$0/ready" ]; do sleep 0.05; done
        browser="$1"
        shift
        exec "$browser" "$@"' '\(folder.path)' '\(browser)' "$@"
      """
    try Data(script.utf8).write(to: wrapper)
    chmod(wrapper.path, 0o755)
    return wrapper
  }

  /// The servers: HTTP on the page's port (the page, its frame on another site, its workers),
  /// a listener on the leak port and DNS on port 53, each logging what it sees, one line each.
  static let server = #"""
    import socket, sys, threading, time
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    folder = sys.argv[1]
    lock = threading.Lock()
    def log(line):
        with lock:
            with open(folder + "/log", "a") as f:
                f.write(line + "\n")

    LEAK = "http://evil.test:8001"
    PAGE = """<!doctype html><html><head>
    <link rel="preconnect" href="%(leak)s">
    <link rel="dns-prefetch" href="%(leak)s">
    <link rel="prefetch" href="%(leak)s/prefetch">
    </head><body style="margin:0;background:#0a0">
    <iframe src="http://localhost:8000/frame"></iframe>
    <img src="/slow">
    <script>
    fetch("%(leak)s/from-page").catch(() => {});
    navigator.sendBeacon("%(leak)s/beacon", "x");
    try { new WebSocket("ws://evil.test:8001/socket"); } catch (e) {}
    new Worker("/worker.js");
    new SharedWorker("/shared.js");
    navigator.serviceWorker.register("/sw.js").catch(() => {});
    </script></body></html>""" % {"leak": LEAK}
    WORKER = 'fetch("%s/%%s").catch(() => {});' % LEAK
    ROUTES = {
        "/page": ("text/html", PAGE),
        "/frame": ("text/html", "<script>fetch('%s/from-frame').catch(() => {})</script>" % LEAK),
        "/worker.js": ("text/javascript", WORKER % "from-worker"),
        "/shared.js": ("text/javascript", WORKER % "from-shared-worker"),
        "/sw.js": ("text/javascript", WORKER % "from-service-worker"),
    }

    class Page(BaseHTTPRequestHandler):
        def do_GET(self):
            log("8000 GET %s %s" % (self.path, self.headers.get("Host", "")))
            if self.path == "/slow":
                time.sleep(3)
            kind, body = ROUTES.get(self.path, ("text/plain", "ok"))
            data = body.encode()
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        def log_message(self, *args):
            pass

    def leak_listener():
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", 8001))
        s.listen(64)
        while True:
            c, _ = s.accept()
            c.settimeout(1)
            try:
                first = c.recv(200).split(b"\r\n")[0].decode("latin-1")
            except Exception:
                first = "(connection, no request)"
            log("8001 " + first)
            c.close()

    def dns_listener():
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 53))
        while True:
            data, _ = s.recvfrom(4096)
            labels, i = [], 12
            while i < len(data) and data[i]:
                labels.append(data[i + 1:i + 1 + data[i]].decode("latin-1"))
                i += 1 + data[i]
            log("dns " + ".".join(labels))

    threading.Thread(target=leak_listener, daemon=True).start()
    threading.Thread(target=dns_listener, daemon=True).start()
    server = ThreadingHTTPServer(("127.0.0.1", 8000), Page)
    open(folder + "/ready", "w").close()
    server.serve_forever()
    """#
}
