import Foundation

/// The twelve pages both sides render: four invoices (a table), four dashboards (an inline SVG
/// chart and tiles) and four articles (text). Plain system fonts, no network.
enum Pages {
  static let all: [(name: String, html: String)] =
    (0..<4).map { ("invoice-\($0)", invoice($0)) }
    + (0..<4).map { ("dashboard-\($0)", dashboard($0)) }
    + (0..<4).map { ("article-\($0)", article($0)) }

  static let style = """
    <style>
    body { font: 14px/1.4 sans-serif; margin: 24px; color: #222; }
    table { border-collapse: collapse; width: 100%; }
    th, td { border-bottom: 1px solid #ddd; padding: 6px 8px; text-align: left; }
    td.amount { text-align: right; font-variant-numeric: tabular-nums; }
    .tiles { display: flex; gap: 12px; margin-bottom: 16px; }
    .tile { flex: 1; padding: 12px; border-radius: 8px; background: #f3f6fb; }
    .tile b { display: block; font-size: 22px; }
    article p { margin: 0 0 10px; }
    </style>
    """

  static func invoice(_ seed: Int) -> String {
    let rows = (1...18).map { line in
      let quantity = (line * 7 + seed) % 9 + 1
      let price = Double((line * 131 + seed * 17) % 9000) / 100 + 1
      return """
        <tr><td>\(line)</td><td>Item \(line) of order \(4200 + seed)</td>\
        <td class=amount>\(quantity)</td><td class=amount>\(String(format: "%.2f", price))</td>\
        <td class=amount>\(String(format: "%.2f", price * Double(quantity)))</td></tr>
        """
    }
    return """
      <!doctype html><html lang=en><title>Invoice</title>\(style)
      <h1>Invoice \(4200 + seed)</h1><p>Billed to Example Ltd, 1 Loopback Road</p>
      <table><thead><tr><th>#</th><th>Description</th><th>Qty</th><th>Price</th><th>Total</th>
      </tr></thead><tbody>\(rows.joined())</tbody></table>
      """
  }

  static func dashboard(_ seed: Int) -> String {
    let values = (0..<24).map { 20 + ($0 * 37 + seed * 11) % 150 }
    let bars = values.enumerated().map { index, value in
      "<rect x=\"\(10 + index * 28)\" y=\"\(190 - value)\" width=\"20\" height=\"\(value)\" fill=\"#4a7bd0\"/>"
    }
    let line = values.enumerated().map { "\(20 + $0.offset * 28),\(190 - $0.element / 2)" }
    return """
      <!doctype html><html lang=en><title>Dashboard</title>\(style)
      <h1>Dashboard</h1>
      <div class=tiles><div class=tile>Orders<b>\(1200 + seed * 37)</b></div>
      <div class=tile>Revenue<b>€ \(48_000 + seed * 1234)</b></div>
      <div class=tile>Refunds<b>\(12 + seed)</b></div></div>
      <svg xmlns="http://www.w3.org/2000/svg" width="700" height="200" role="img" aria-label="Orders per hour">
      <rect width="700" height="200" fill="#fff"/>\(bars.joined())
      <polyline points="\(line.joined(separator: " "))" fill="none" stroke="#d0554a" stroke-width="2"/>
      </svg>
      """
  }

  static func article(_ seed: Int) -> String {
    let words = [
      "snapshot", "render", "browser", "pixel", "reference", "server", "template", "page",
      "layout", "colour", "font", "table", "chart", "review", "diff", "linux",
    ]
    let paragraphs = (0..<7).map { paragraph in
      let sentence = (0..<60).map { words[($0 * 5 + paragraph * 3 + seed) % words.count] }
      return "<p>" + sentence.joined(separator: " ") + ".</p>"
    }
    return """
      <!doctype html><html lang=en><title>Article</title>\(style)
      <article><h1>Notes on rendering, part \(seed + 1)</h1>\(paragraphs.joined())</article>
      """
  }
}
