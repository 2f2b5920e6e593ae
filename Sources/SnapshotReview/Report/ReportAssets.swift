/// The report page's stylesheet and scripts, inlined so that the page needs nothing else.
enum ReportAssets {
  /// Installed first, so that an error in any later script is shown and marks the page.
  static let errorHandler = """
    window.onerror = function (message, source, line) {
      document.documentElement.setAttribute('data-status', 'error');
      var list = document.getElementById('script-errors');
      if (list) { list.hidden = false; list.textContent += message + ' (line ' + line + ')\\n'; }
    };
    """

  static let css = """
    :root { color-scheme: light; --removed: #ffe5e3; --removed-text: #9b1c1c; --added: #dcf5e3;
      --added-text: #17612e; --line: #d9dde3; --muted: #5b6472; --accent: #3559d6; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
      color: #1d2330; background: #f4f6f9; }
    header { padding: 20px 32px 12px; background: #fff; border-bottom: 1px solid var(--line); }
    h1 { margin: 0 0 6px; font-size: 22px; }
    main { padding: 16px 32px 40px; display: grid; gap: 18px; }
    .meta { margin: 4px 0; color: var(--muted); }
    .pages { margin: 12px 0; color: var(--muted); }
    code, pre { font: 13px/1.45 ui-monospace, "DejaVu Sans Mono", Menlo, monospace; }
    .entry { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 14px 20px 16px; }
    .entry h2 { margin: 0 0 6px; font-size: 17px; }
    .name { font-weight: 500; color: var(--muted); }
    .kind { display: inline-block; font-size: 12px; padding: 1px 8px; border-radius: 10px;
      vertical-align: 2px; color: #fff; background: #c0392b; }
    .kind.missing { background: #2f7d4a; }
    .where { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 8px;
      color: var(--muted); }
    .where dd { margin: 0; overflow-wrap: anywhere; }
    .headline { margin: 6px 0 10px; font-weight: 600; }
    pre { margin: 0 0 10px; padding: 10px 12px; background: #f7f8fa; border: 1px solid var(--line);
      border-radius: 6px; overflow-x: auto; white-space: pre; }
    .diff span { display: block; padding: 0 4px; }
    .diff .removed { background: var(--removed); color: var(--removed-text); }
    .diff .added { background: var(--added); color: var(--added-text); }
    .diff .hunk { color: var(--accent); background: #eef2ff; }
    .message { white-space: pre-wrap; color: #38404d; }
    .images { margin: 0 0 10px; }
    .tabs { display: inline-flex; border: 1px solid var(--line); border-radius: 6px; overflow: hidden;
      margin-bottom: 10px; }
    .tabs button { border: 0; background: #fff; padding: 5px 14px; font: inherit; cursor: pointer; }
    .tabs button[aria-selected="true"] { background: var(--accent); color: #fff; }
    .view { display: none; }
    .images[data-view="side"] .side, .images[data-view="swipe"] .swipe,
    .images[data-view="onion"] .onion { display: flex; }
    .side { flex-wrap: wrap; gap: 16px; }
    .swipe, .onion { flex-direction: column; gap: 8px; align-items: flex-start; }
    figure { margin: 0; }
    figcaption { color: var(--muted); font-size: 13px; margin-top: 4px; }
    figure img, .stack { width: var(--image-width); max-width: 100%; }
    img { display: block; image-rendering: pixelated; border: 1px solid var(--line);
      background: repeating-conic-gradient(#e8eaee 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
    .stack { position: relative; }
    .text-views[data-view="unified"] .unified { display: block; }
    .text-views[data-view="split"] .split { display: table; }
    .split { width: 100%; border-collapse: collapse; table-layout: fixed; margin: 0 0 10px;
      font: 13px/1.45 ui-monospace, "DejaVu Sans Mono", Menlo, monospace; }
    .split th { text-align: left; color: var(--muted); font-weight: 500; padding: 2px 6px; }
    .split td { padding: 0 6px; white-space: pre-wrap; overflow-wrap: anywhere; vertical-align: top;
      border-left: 1px solid var(--line); }
    .split td.removed { background: var(--removed); color: var(--removed-text); }
    .split td.added { background: var(--added); color: var(--added-text); }
    .split td.hunk { color: var(--accent); background: #eef2ff; }
    del, ins { text-decoration: none; border-radius: 3px; padding: 0 1px; }
    del { background: #ffb3ad; }
    ins { background: #9be0ae; }
    .changes { margin: 0 0 10px; padding-left: 20px; }
    .served { margin: 8px 0 0; }
    .served button, .actions button { font: inherit; padding: 4px 14px; border-radius: 6px;
      border: 1px solid var(--line); background: #fff; cursor: pointer; }
    #accept-all, .actions button[data-decision="accept"] { background: var(--accent); color: #fff;
      border-color: var(--accent); }
    .actions button:disabled { opacity: 0.45; cursor: default; }
    .gone { margin: 8px 0 0; padding: 8px 12px; border-radius: 6px; background: #fff4d6;
      border: 1px solid #e5c66b; }
    .entry[data-state="accepted"], .entry[data-state="rejected"] { opacity: 0.6; }
    .entry[data-state="failed"] .outcome { color: var(--removed-text); white-space: pre-wrap; }
    .outcome { margin-left: 8px; color: var(--muted); }
    .stack img { width: 100%; }
    .stack .over { position: absolute; inset: 0; height: 100%; }
    .divider { position: absolute; top: 0; bottom: 0; width: 2px; background: var(--accent);
      pointer-events: none; }
    .absent { width: 160px; height: 100px; display: grid; place-items: center; padding: 6px;
      border: 1px dashed var(--line); color: var(--muted); font-size: 13px; overflow-wrap: anywhere; }
    .note { color: var(--muted); }
    .accept { margin: 4px 0 0; }
    .command { background: #1d2330; color: #f4f6f9; padding: 3px 8px; border-radius: 4px;
      overflow-wrap: anywhere; }
    .copy { font: inherit; font-size: 12px; padding: 2px 8px; margin-left: 4px; cursor: pointer; }
    #script-errors { color: #9b1c1c; background: var(--removed); }
    """

  /// Tabs, the swipe divider, the onion-skin opacity and the copy buttons; marks the page ready.
  static let script = """
    (function () {
      document.querySelectorAll('.images').forEach(function (images) {
        images.querySelectorAll('.tabs button').forEach(function (button) {
          button.addEventListener('click', function () {
            images.setAttribute('data-view', button.getAttribute('data-view'));
            images.querySelectorAll('.tabs button').forEach(function (other) {
              other.setAttribute('aria-selected', String(other === button));
            });
          });
        });
        var swipe = images.querySelector('.swipe');
        if (swipe) {
          var slider = swipe.querySelector('input');
          var over = swipe.querySelector('.over');
          var divider = swipe.querySelector('.divider');
          var moveSwipe = function () {
            over.style.clipPath = 'inset(0 0 0 ' + slider.value + '%)';
            divider.style.left = 'calc(' + slider.value + '% - 1px)';
          };
          slider.addEventListener('input', moveSwipe);
          moveSwipe();
        }
        var onion = images.querySelector('.onion');
        if (onion) {
          var opacity = onion.querySelector('input');
          var top = onion.querySelector('.over');
          var fade = function () { top.style.opacity = String(opacity.value / 100); };
          opacity.addEventListener('input', fade);
          fade();
        }
      });
      document.querySelectorAll('.text-views').forEach(function (views) {
        views.querySelectorAll('.tabs button').forEach(function (button) {
          button.addEventListener('click', function () {
            views.setAttribute('data-view', button.getAttribute('data-view'));
            views.querySelectorAll('.tabs button').forEach(function (other) {
              other.setAttribute('aria-selected', String(other === button));
            });
          });
        });
      });
      document.querySelectorAll('.copy').forEach(function (button) {
        button.addEventListener('click', function () {
          var text = button.previousElementSibling.textContent;
          var done = function () { button.textContent = 'Copied'; };
          if (navigator.clipboard) {
            navigator.clipboard.writeText(text).then(done, function () {});
          }
        });
      });
      document.documentElement.setAttribute('data-entries',
        String(document.querySelectorAll('.entry').length));
      // An earlier script's error stays visible: only a clean page is marked ready.
      if (document.documentElement.getAttribute('data-status') !== 'error') {
        document.documentElement.setAttribute('data-status', 'ready');
      }
    })();
    """

  /// The served page's buttons and polling (see ``ServedReport``). Decisions update the entries
  /// in place; a change of the artifacts folders (a new test run) reloads the page, and a deleted
  /// folder is said on the page.
  static let servedScript = """
    (function () {
      var meta = function (name) {
        var element = document.querySelector('meta[name="' + name + '"]');
        return element ? element.getAttribute('content') : null;
      };
      var token = meta('snapshot-testing-token');
      var stamp = meta('snapshot-testing-stamp');
      var busy = 0;
      var title = document.querySelector('h1');
      var status = document.getElementById('served-status');
      var gone = document.getElementById('artifacts-gone');
      var showPending = function (pending) {
        title.textContent = pending === 0 ? 'No pending snapshot failures'
          : pending + ' pending snapshot failure' + (pending === 1 ? '' : 's');
        document.documentElement.setAttribute('data-pending', String(pending));
      };
      var decide = function (decision, entries) {
        if (entries.length === 0) { return; }
        busy += 1;
        entries.forEach(function (entry) { entry.setAttribute('data-state', 'working'); });
        fetch('/api/resolve', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Snapshot-Testing-Token': token },
          body: JSON.stringify({
            decision: decision,
            ids: entries.map(function (entry) { return entry.getAttribute('data-id'); })
          })
        }).then(function (response) {
          if (!response.ok) {
            return response.text().then(function (text) { throw new Error(text); });
          }
          return response.json();
        }).then(function (result) {
          stamp = result.stamp;
          result.outcomes.forEach(function (outcome) {
            var entry = entries.filter(function (candidate) {
              return candidate.getAttribute('data-id') === outcome.id;
            })[0];
            if (!entry) { return; }
            entry.setAttribute('data-state', outcome.resolved ? decision + 'ed' : 'failed');
            if (decision === 'accept' && outcome.resolved) {
              entry.setAttribute('data-state', 'accepted');
            }
            entry.querySelector('.outcome').textContent = outcome.message;
            if (outcome.resolved) {
              entry.querySelectorAll('button.decide').forEach(function (button) {
                button.disabled = true;
              });
            }
          });
          showPending(result.pending);
        }).catch(function (error) {
          entries.forEach(function (entry) {
            entry.setAttribute('data-state', 'failed');
            entry.querySelector('.outcome').textContent = String(error.message || error);
          });
        }).then(function () { busy -= 1; });
      };
      document.querySelectorAll('.entry').forEach(function (entry) {
        entry.querySelectorAll('button.decide').forEach(function (button) {
          button.addEventListener('click', function () {
            decide(button.getAttribute('data-decision'), [entry]);
          });
        });
      });
      var all = document.getElementById('accept-all');
      if (all) {
        all.addEventListener('click', function () {
          var shown = Array.prototype.filter.call(document.querySelectorAll('.entry'),
            function (entry) {
              var state = entry.getAttribute('data-state');
              return entry.offsetParent !== null && (state === null || state === 'failed');
            });
          decide('accept', shown);
        });
      }
      var poll = function () {
        if (busy > 0) { return; }
        fetch('/api/state', { cache: 'no-store' }).then(function (response) {
          return response.json();
        }).then(function (state) {
          if (busy > 0) { return; }
          if (state.missingFolders.length > 0) {
            gone.hidden = false;
            gone.textContent = 'The artifacts folder ' + state.missingFolders.join(', ')
              + ' no longer exists (deleted, or a new test run is starting). This page '
              + 'reloads when it is back.';
            document.documentElement.setAttribute('data-artifacts', 'missing');
          } else if (state.stamp !== stamp) {
            location.reload();
          }
        }).catch(function () {
          status.textContent = 'The server has stopped: the buttons no longer work.';
          document.documentElement.setAttribute('data-server', 'stopped');
        });
      };
      setInterval(poll, 1000);
      document.documentElement.setAttribute('data-served', 'ready');
    })();
    """
}
