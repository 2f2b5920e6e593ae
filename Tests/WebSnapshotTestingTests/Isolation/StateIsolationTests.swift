import Foundation
import SnapshotTesting
import Testing

@testable import WebSnapshotTesting

/// No state of one web snapshot is observable in the next. A page plants every kind of state a
/// page (or a strategy, through the browser) can leave behind; a second page then reports what
/// it can see of each, and must see what a page in a fresh browser sees. The same probe run in
/// the planting page itself must see every kind, so that a probe that sees nothing cannot pass
/// for isolation.
///
/// This is the guard for reusing browser contexts across snapshots: it passes with a context
/// per snapshot, and must keep passing with whatever replaces it, with both `chromium` and
/// `chromium-headless-shell` (`SNAPSHOT_TESTING_CHROMIUM=chromium` selects the first).
@Suite(.serialized, .enabled(if: WebTesting.chromiumInstalled, WebTesting.skipReason))
struct StateIsolationTests {
  /// The probe's findings, by kind of state.
  typealias Findings = [String: String]

  /// The kinds the probe reports, each of which the planting page changes.
  static let kinds = [
    "cookies", "localStorage", "sessionStorage", "indexedDB", "cacheStorage", "serviceWorkers",
    "httpCache", "permissions", "windowName", "historyLength", "scroll", "focus",
    "broadcastChannel", "workers", "timers", "animationFrames", "emulation",
  ]

  /// What a page in a fresh browser context must find: nothing planted, and the emulation every
  /// snapshot gets (1280×720 at scale 1, UTC, en-US, reduced motion, light, screen).
  static let nothing: Findings = [
    "cookies": "", "localStorage": "", "sessionStorage": "", "indexedDB": "",
    "cacheStorage": "", "serviceWorkers": "", "httpCache": "network", "windowName": "",
    "scroll": "0,0", "focus": "BODY", "broadcastChannel": "", "workers": "", "timers": "",
    "animationFrames": "",
    "emulation": "1280x720@1 UTC en-US reduced-motion light screen",
  ]

  /// Shared by both pages: `plant()` sets every kind of state, `probe()` reports them.
  static let script = """
    const CHANNEL = 'isolation';
    const PERMISSIONS = ['geolocation', 'notifications', 'camera', 'microphone', 'midi'];

    const SERVED = location.protocol !== 'file:';

    // Everything, or (`pageOnly`) only what belongs to the page and its document, so that its
    // browser context may serve the next page.
    async function plant(pageOnly) {
      window.name = 'planted';
      sessionStorage.setItem('planted', '1');
      history.pushState({}, '');
      history.pushState({}, '');
      document.getElementById('field').focus({ preventScroll: true });
      window.scrollTo(0, 1000);
      const listener = new BroadcastChannel(CHANNEL);
      listener.onmessage = (event) => {
        if (event.data === 'who') { listener.postMessage('broadcastChannel:page'); }
      };
      window.planted = { listener };
      const ticker = new BroadcastChannel(CHANNEL);
      setInterval(() => ticker.postMessage('timers:interval'), 20);
      const frame = () => {
        ticker.postMessage('animationFrames:frame');
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
      // Storage written as the page goes away, after anything could have looked at it.
      for (const event of ['pagehide', 'unload', 'visibilitychange', 'freeze']) {
        addEventListener(event, () => localStorage.setItem('planted-on-' + event, '1'));
      }
      document.addEventListener('visibilitychange', () => localStorage.setItem('hidden', '1'));
      if (pageOnly) { return; }
      document.cookie = 'planted=1; max-age=3600; path=/';
      localStorage.setItem('planted', '1');
      await new Promise((resolve, reject) => {
        const request = indexedDB.open('planted', 1);
        request.onupgradeneeded = () => request.result.createObjectStore('things');
        request.onsuccess = () => { request.result.close(); resolve(); };
        request.onerror = () => reject(request.error);
      });
      if (window.caches) {
        // An absolute key: a `file:` one is refused.
        await (await caches.open('planted'))
          .put('http://planted.invalid/', new Response('planted'));
      }
      const worker = (name) => SERVED ? '/' + name + '-worker.js'
        : URL.createObjectURL(new Blob([workerSource(name)], { type: 'text/javascript' }));
      window.planted.worker = new Worker(worker('dedicated'));
      try {
        window.planted.shared = new SharedWorker(worker('shared'));
        window.planted.shared.port.start();
      } catch (error) {}
      const download = document.createElement('a');
      download.href = 'data:text/plain,planted';
      download.download = 'planted.txt';
      document.body.appendChild(download);
      download.click();
      if (SERVED) {
        await navigator.serviceWorker.register('/service-worker.js');
        await navigator.serviceWorker.ready;
        await (await fetch('/cached')).text();
      }
      // The workers answer once they run.
      await new Promise((resolve) => setTimeout(resolve, 300));
    }

    function workerSource(name) {
      return "const channel = new BroadcastChannel('isolation');"
        + "channel.onmessage = (event) => {"
        + "  if (event.data === 'who') { channel.postMessage('workers:" + name + "'); }"
        + "};";
    }

    async function probe() {
      const heard = {};
      const channel = new BroadcastChannel(CHANNEL);
      channel.onmessage = (event) => {
        const [kind, who] = String(event.data).split(':');
        if (who) { (heard[kind] = heard[kind] || new Set()).add(who); }
      };
      channel.postMessage('who');
      await new Promise((resolve) => setTimeout(resolve, 500));
      channel.close();
      const permissions = [];
      for (const name of PERMISSIONS) {
        let state;
        try { state = (await navigator.permissions.query({ name })).state; }
        catch (error) { state = 'unknown'; }
        permissions.push(name + '=' + state);
      }
      let httpCache = 'none';
      if (SERVED) {
        const response = await fetch('/cached', { cache: 'force-cache' });
        await response.text();
        const entry = performance.getEntriesByName(new URL('/cached', location.href).href).pop();
        httpCache = entry && entry.transferSize === 0 ? 'cache' : 'network';
      }
      const registrations = SERVED ? await navigator.serviceWorker.getRegistrations() : [];
      const media = (query) => matchMedia(query).matches;
      const list = (set) => set ? Array.from(set).sort().join(',') : '';
      return {
        cookies: document.cookie,
        localStorage: Object.keys(localStorage).sort().join(','),
        sessionStorage: Object.keys(sessionStorage).sort().join(','),
        indexedDB: (await indexedDB.databases()).map((d) => d.name).sort().join(','),
        cacheStorage: window.caches ? (await caches.keys()).sort().join(',') : '',
        serviceWorkers: registrations.map((r) => new URL(r.scope).pathname).sort().join(','),
        httpCache,
        permissions: permissions.join(' '),
        windowName: window.name,
        historyLength: String(history.length),
        scroll: window.scrollX + ',' + window.scrollY,
        focus: document.activeElement ? document.activeElement.tagName : 'none',
        broadcastChannel: list(heard.broadcastChannel),
        workers: list(heard.workers),
        timers: list(heard.timers),
        animationFrames: list(heard.animationFrames),
        emulation: innerWidth + 'x' + innerHeight + '@' + devicePixelRatio
          + ' ' + Intl.DateTimeFormat().resolvedOptions().timeZone
          + ' ' + navigator.language
          + (media('(prefers-reduced-motion: reduce)') ? ' reduced-motion' : ' motion')
          + (media('(prefers-color-scheme: dark)') ? ' dark' : ' light')
          + (media('print') ? ' print' : ' screen'),
      };
    }
    """

  /// A worker that answers `who` on the channel with its kind.
  static func worker(_ name: String, serviceWorker: Bool = false) -> LoopbackServer.Route {
    .respond(
      status: 200,
      contentType: "text/javascript",
      body: """
        const channel = new BroadcastChannel('isolation');
        channel.onmessage = (event) => {
          if (event.data === 'who') { channel.postMessage('workers:\(name)'); }
        };
        \(serviceWorker ? "self.addEventListener('install', () => self.skipWaiting());" : "")
        """
    )
  }

  static func server() throws -> LoopbackServer {
    let page = """
      <!doctype html><body style="margin:0"><input id="field">
      <div style="height:5000px"></div><script src="/state.js"></script></body>
      """
    return try LoopbackServer(routes: [
      "/plant": .respond(status: 200, contentType: "text/html", body: page),
      "/probe": .respond(status: 200, contentType: "text/html", body: page),
      "/state.js": .respond(status: 200, contentType: "text/javascript", body: script),
      "/dedicated-worker.js": worker("dedicated"),
      "/shared-worker.js": worker("shared"),
      "/service-worker.js": worker("service", serviceWorker: true),
      // Fresh for an hour, so that a second fetch in the same context comes from the cache.
      // (The test server writes the content type's value as given, so a second header rides
      // with it.)
      "/cached": .respond(
        status: 200,
        contentType: "text/plain\r\nCache-Control: max-age=3600",
        body: "cached"
      ),
    ])
  }

  /// A strategy that runs `prepare` on the loaded page, then reports what `probe()` finds.
  static func findings(
    prepare: @escaping @Sendable (PageSession) async throws(WebSnapshotError) -> Void = { _ in }
  ) -> Snapshotting<WebPage, String> {
    SimplySnapshotting<String>.lines.asyncPullback { (page: WebPage) in
      WebRendering.snapshot(of: page, width: nil, height: nil, placeholder: { "" }) {
        session throws(WebSnapshotError) in
        try await prepare(session)
        // The headless shell's page draws only the frames issued to it: the probe listens
        // with frames driven, so that an animation frame still running would be heard.
        let reply = try await session.withFrames { () throws(WebSnapshotError) -> JSONMessage in
          try await session.evaluate("probe()")
        }
        var object = reply.evaluatedObject?.object ?? [:]
        object["context"] = session.contextIdentifier
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return data.map { String(decoding: $0, as: UTF8.self) } ?? ""
      }
    }
  }

  /// What the browser lets a strategy change besides the page: permissions granted to the
  /// context, downloads allowed, and every emulation override; then the page's own state, all
  /// of it or (`pageOnly`) only what closing the page ends.
  static func plant(
    pageOnly: Bool
  ) -> @Sendable (PageSession) async throws(WebSnapshotError) -> Void {
    { session throws(WebSnapshotError) in try await plant(in: session, pageOnly: pageOnly) }
  }

  static func plant(in session: PageSession, pageOnly: Bool) async throws(WebSnapshotError) {
    let context = session.contextIdentifier
    _ = try await session.connection.send(
      "Browser.grantPermissions",
      [
        "permissions": ["geolocation", "notifications", "videoCapture", "audioCapture", "midi"],
        "browserContextId": context,
      ]
    )
    _ = try await session.connection.send(
      "Browser.setDownloadBehavior",
      [
        "behavior": "allow", "browserContextId": context,
        "downloadPath": FileManager.default.temporaryDirectory.path,
      ]
    )
    try await session.sendAll([
      (
        "Emulation.setDeviceMetricsOverride",
        ["width": 500, "height": 400, "deviceScaleFactor": 2, "mobile": false]
      ),
      (
        "Emulation.setEmulatedMedia",
        [
          "media": "print",
          "features": [
            ["name": "prefers-color-scheme", "value": "dark"],
            ["name": "prefers-reduced-motion", "value": "no-preference"],
          ],
        ]
      ),
      ("Emulation.setTimezoneOverride", ["timezoneId": "Asia/Tokyo"]),
    ])
    // One locale override at a time: the snapshot's own goes first.
    try await session.send("Emulation.setLocaleOverride", [:])
    try await session.send("Emulation.setLocaleOverride", ["locale": "fr-FR"])
    _ = try await session.evaluate("plant(\(pageOnly))")
  }

  /// `findings` without the browser context they were found in.
  static func kindsOnly(_ findings: Findings) -> Findings {
    findings.filter { $0.key != "context" }
  }

  static func decode(_ text: String?) throws -> Findings {
    let data = Data((text ?? "").utf8)
    let object = try JSONSerialization.jsonObject(with: data) as? [String: String]
    return try #require(object, "the probe returned \(text ?? "nothing")")
  }

  /// Where two findings differ, kind by kind.
  static func differences(_ found: Findings, _ expected: Findings) -> [String] {
    expected.keys.sorted().compactMap { kind in
      found[kind] == expected[kind]
        ? nil : "\(kind): found \(found[kind] ?? "nothing"), expected \(expected[kind]!)"
    }
  }

  @Test func noStateOfOneSnapshotIsSeenByTheNext() throws {
    let server = try Self.server()
    defer { server.stop() }
    let probePage = WebPage(url: server.url("/probe"))

    // A fresh context's view, and what it must be.
    let before = WebTesting.snapshot(probePage, as: Self.findings())
    #expect(before.failure == nil, "\(before.failure ?? "")")
    let baseline = try Self.decode(before.value)
    #expect(Self.differences(baseline, Self.nothing).isEmpty, "\(baseline)")
    #expect(Set(Self.kindsOnly(baseline).keys) == Set(Self.kinds), "\(baseline.keys.sorted())")

    // The probe in the planting page sees every kind it planted.
    let planted = WebTesting.snapshot(
      WebPage(url: server.url("/plant")),
      as: Self.findings(prepare: Self.plant(pageOnly: false))
    )
    #expect(planted.failure == nil, "\(planted.failure ?? "")")
    let seen = try Self.decode(planted.value)
    let unseen = Self.kinds.filter { seen[$0] == baseline[$0] }
    #expect(unseen.isEmpty, "the probe cannot see these kinds once planted: \(unseen); \(seen)")

    // A page that opens a dialog fails, and leaves nothing open behind it.
    let dialog = WebTesting.snapshot(
      WebPage(html: "<script>alert('left open?')</script>"),
      as: .image(width: 10, height: 10)
    )
    #expect(dialog.failure?.contains("dialog") == true, "\(dialog.failure ?? "passed")")

    // The next snapshots see what a fresh context sees, with the default viewport and another.
    let after = WebTesting.snapshot(probePage, as: Self.findings())
    #expect(after.failure == nil, "\(after.failure ?? "")")
    let leaks = Self.differences(
      Self.kindsOnly(try Self.decode(after.value)),
      Self.kindsOnly(baseline)
    )
    #expect(leaks.isEmpty, "state of an earlier snapshot is visible: \(leaks)")
  }

  /// An HTML page (in the blank `file:` document) with the shared script.
  static let htmlPage = WebPage(
    html: """
      <!doctype html><body style="margin:0"><input id="field">
      <div style="height:5000px"></div><script>\(script)</script></body>
      """
  )

  /// HTML pages reuse browser contexts: a page that planted only what closing it ends leaves
  /// its context to a later page, which must see nothing of it; one that planted storage, a
  /// worker or a download does not, and later pages see nothing of it either.
  @Test(arguments: [true, false])
  func noStateOfOneHTMLPageIsSeenByTheNext(pageOnly: Bool) throws {
    let before = WebTesting.snapshot(Self.htmlPage, as: Self.findings())
    #expect(before.failure == nil, "\(before.failure ?? "")")
    let baseline = try Self.decode(before.value)
    var nothing = Self.nothing
    nothing["httpCache"] = "none"
    #expect(Self.differences(Self.kindsOnly(baseline), nothing).isEmpty, "\(baseline)")

    let planted = WebTesting.snapshot(
      Self.htmlPage,
      as: Self.findings(prepare: Self.plant(pageOnly: pageOnly))
    )
    #expect(planted.failure == nil, "\(planted.failure ?? "")")
    let seen = try Self.decode(planted.value)
    // What a `file:` document cannot hold: cookies, service workers, the HTTP cache.
    let unplantable: Set<String> = ["cookies", "serviceWorkers", "httpCache"]
    let pageKinds: Set<String> = [
      "sessionStorage", "permissions", "windowName", "historyLength", "scroll", "focus",
      "broadcastChannel", "timers", "animationFrames", "emulation",
    ]
    let expectedSeen = Self.kinds.filter {
      !unplantable.contains($0) && (!pageOnly || pageKinds.contains($0))
    }
    let unseen = expectedSeen.filter { seen[$0] == baseline[$0] }
    #expect(unseen.isEmpty, "the probe cannot see these kinds once planted: \(unseen); \(seen)")

    // The pages ahead alternate between contexts: within a few, the planting page's context
    // serves again if it may.
    var reused = false
    for _ in 0..<4 {
      let after = WebTesting.snapshot(Self.htmlPage, as: Self.findings())
      #expect(after.failure == nil, "\(after.failure ?? "")")
      let found = try Self.decode(after.value)
      reused = reused || found["context"] == seen["context"]
      let leaks = Self.differences(Self.kindsOnly(found), Self.kindsOnly(baseline))
      #expect(leaks.isEmpty, "state of an earlier snapshot is visible: \(leaks)")
    }
    #expect(reused == pageOnly, "the planting page's context was reused: \(reused)")
  }

  /// Plain pages in a row reuse their contexts, and a reused context keeps its window (where the
  /// browser has windows: `chromium`, not the headless shell), which a page made after its
  /// predecessor closed would make again.
  @Test func aReusedContextKeepsItsWindow() throws {
    let strategy = SimplySnapshotting<String>.lines.asyncPullback { (page: WebPage) in
      WebRendering.snapshot(of: page, width: nil, height: nil, placeholder: { "" }) {
        session throws(WebSnapshotError) in
        let window = try? await session.connection.send(
          "Browser.getWindowForTarget",
          ["targetId": session.targetIdentifier]
        )
        return "\(session.contextIdentifier) \(window?.int("windowId").map(String.init) ?? "none")"
      }
    }
    var windows: [String: Set<String>] = [:]
    for _ in 0..<6 {
      let (value, failure, _) = WebTesting.snapshot(WebPage(html: "<p>plain</p>"), as: strategy)
      #expect(failure == nil, "\(failure ?? "")")
      let parts = (value ?? "").split(separator: " ").map(String.init)
      guard parts.count == 2 else { continue }
      windows[parts[0], default: []].insert(parts[1])
    }
    #expect(windows.count < 6, "no context served twice: \(windows)")
    // The headless shell has no windows; the identifiers it gives are one per page.
    let executable = (try? BrowserExecutable.locate().get()) ?? ""
    guard !executable.contains("headless") else { return }
    for (context, ids) in windows {
      #expect(ids.count == 1, "the context \(context) made a window again: \(ids)")
    }
  }
}
