/// An invoice, the kind of value whose text and JSON a team wants to keep stable.
public struct Invoice: Codable, Sendable {
  public struct Line: Codable, Sendable {
    public var item: String
    public var quantity: Int
    public var cents: Int
  }

  public var number: Int
  public var customer: String
  public var lines: [Line]

  public var totalCents: Int { lines.reduce(0) { $0 + $1.quantity * $1.cents } }

  /// The invoice as printed for the customer.
  public var printed: String {
    var text = "Invoice #\(number) for \(customer)\n"
    for line in lines {
      text += "  \(line.quantity) × \(line.item) @ \(format(line.cents))\n"
    }
    text += "Total: \(format(totalCents))\n"
    return text
  }

  /// The invoice as the web page a server would send: a heading, a table and a button.
  public var html: String {
    let rows = lines.map { line in
      "<tr><td>\(line.item)</td><td>\(line.quantity)</td><td>\(format(line.cents))</td></tr>"
    }.joined(separator: "\n")
    return """
      <!doctype html>
      <html lang="en"><head><title>Invoice #\(number)</title><style>
        body { font: 16px sans-serif; margin: 24px; color: #222; }
        table { border-collapse: collapse; width: 100%; }
        td, th { border-bottom: 1px solid #ccc; padding: 6px; text-align: left; }
        tfoot td { font-weight: bold; }
        button { margin-top: 16px; padding: 8px 20px; background: #2a6; color: white; border: 0; }
      </style></head>
      <body>
        <h1>Invoice #\(number)</h1>
        <p>For \(customer)</p>
        <table>
          <thead><tr><th>Item</th><th>Quantity</th><th>Price</th></tr></thead>
          <tbody>
      \(rows)
          </tbody>
          <tfoot><tr><td>Total</td><td></td><td>\(format(totalCents))</td></tr></tfoot>
        </table>
        <button>Pay</button>
      </body></html>
      """
  }

  /// A sample invoice; `changed` alters one line, as a regression would.
  public static func sample(changed: Bool) -> Invoice {
    Invoice(
      number: 42,
      customer: "Blob Inc.",
      lines: [
        Line(item: "Snapshot review", quantity: 2, cents: 12_500),
        Line(item: "Linux CI minutes", quantity: changed ? 1_300 : 1_200, cents: 8),
        Line(item: "Coffee", quantity: 3, cents: 350),
      ]
    )
  }
}

private func format(_ cents: Int) -> String {
  let remainder = cents % 100
  return "$\(cents / 100).\(remainder < 10 ? "0" : "")\(remainder)"
}
