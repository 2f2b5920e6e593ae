/// The JavaScript the package runs in a page, each an expression for `Runtime.evaluate`.
enum PageScripts {
  /// Hides the caret and scrollbars, lays the page out, waits for its fonts, fast-forwards
  /// finite animations and transitions to their end, resets infinite ones to their start and
  /// pauses them, then waits for two animation frames (so that what was changed has been
  /// painted).
  static let settle = """
    (async () => {
      const root = document.documentElement;
      if (root) {
        const svg = root.namespaceURI === 'http://www.w3.org/2000/svg';
        const style = svg
          ? document.createElementNS('http://www.w3.org/2000/svg', 'style')
          : document.createElement('style');
        style.textContent = '*, *::before, *::after { caret-color: transparent !important; }'
          + ' ::-webkit-scrollbar { display: none !important; }'
          + ' html { scrollbar-width: none !important; }';
        (document.head || root).appendChild(style);
        // Style and layout now, so that every web font the page uses is loading before
        // `fonts.ready` is asked: with the headless shell's frames on demand no frame has run
        // since the HTML was written.
        root.getBoundingClientRect();
      }
      if (document.fonts) { await document.fonts.ready; }
      const settleAnimations = () => {
        for (const animation of document.getAnimations()) {
          const timing = animation.effect ? animation.effect.getComputedTiming() : null;
          if (timing && Number.isFinite(timing.endTime)) {
            animation.finish();
          } else {
            animation.pause();
            animation.currentTime = 0;
          }
        }
      };
      settleAnimations();
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      settleAnimations();
      return true;
    })()
    """

  /// Replaces the page's document with `html`, parsed as a navigation would parse it (its
  /// doctype decides the rendering mode, its scripts run); the `load` event follows.
  static func replaceDocument(with html: String) -> String {
    "document.open(); document.write(\(javaScriptString(html))); document.close(); 0"
  }

  /// The HTTP status of the page's own response (0 for a file).
  static let navigationStatus = """
    (() => {
      const entry = performance.getEntriesByType('navigation')[0];
      return entry && typeof entry.responseStatus === 'number' ? entry.responseStatus : 0;
    })()
    """

  /// `{error}` when the document is not SVG (with the XML parser's message), else the root
  /// element's `{width, height}` in CSS pixels.
  static let svgCheck = """
    (() => {
      const failure = document.querySelector('parsererror');
      if (failure) {
        const text = (failure.textContent || '').replace(/\\s+/g, ' ').trim();
        return { error: text || 'the XML parser gave no message' };
      }
      const root = document.documentElement;
      if (!root || root.namespaceURI !== 'http://www.w3.org/2000/svg' || root.localName !== 'svg') {
        const name = root ? root.localName : 'nothing';
        return { error: 'the root element is <' + name + '>, not an SVG <svg> element' };
      }
      const box = root.getBoundingClientRect();
      return { width: box.width, height: box.height };
    })()
    """

  /// The boxes, in document coordinates, of the first element `selector` matches (`first`
  /// true) or of all of them; `{error}` for a selector that does not parse.
  static func boxes(of selector: String, first: Bool) -> String {
    let literal = javaScriptString(selector)
    return """
      (() => {
        let elements;
        try {
          elements = \(first ? "[document.querySelector(\(literal))].filter(Boolean)" : "Array.from(document.querySelectorAll(\(literal)))");
        } catch (error) {
          return { error: String(error && error.message || error) };
        }
        return {
          boxes: elements.map((element) => {
            const box = element.getBoundingClientRect();
            return { x: box.left + window.scrollX, y: box.top + window.scrollY,
                     width: box.width, height: box.height };
          })
        };
      })()
      """
  }

  /// How far the page is scrolled, `{x, y}` in CSS pixels.
  static let scrollOffset = "({ x: window.scrollX, y: window.scrollY })"

  /// The size of the whole document, at least the viewport's.
  static let documentSize = """
    (() => {
      const root = document.documentElement;
      const body = document.body;
      const width = Math.max(root ? root.scrollWidth : 0, body ? body.scrollWidth : 0, window.innerWidth);
      const height = Math.max(root ? root.scrollHeight : 0, body ? body.scrollHeight : 0, window.innerHeight);
      return { width, height };
    })()
    """

  /// `text` as a JavaScript string literal.
  static func javaScriptString(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\u{2028}", "\u{2029}": result += "\\u\(String(scalar.value, radix: 16))"
      default:
        if scalar.value < 0x20 {
          result +=
            "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
            + String(scalar.value, radix: 16)
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
