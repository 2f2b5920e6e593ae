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
