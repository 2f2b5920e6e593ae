extension Snapshotting where Value: CaseIterable, Format == String {
  /// Snapshots a function by feeding it every case of its input type, one CSV line per case.
  ///
  /// Each line is `"input","output"`: the input as `String(describing:)` renders it, the output
  /// as `witness` renders it. Neither is escaped, so a multi-line output spans several lines.
  ///
  /// ```swift
  /// assertSnapshot(
  ///   of: { (direction: Direction) in direction.rotatedLeft },
  ///   as: Snapshotting<Direction, String>.func(into: .description)
  /// )
  /// ```
  ///
  /// records `__Snapshots__/…/test.1.csv`:
  ///
  /// ```csv
  /// "up","left"
  /// "down","right"
  /// ```
  ///
  /// - Parameter witness: The strategy that renders the function's output.
  /// - Returns: A strategy on functions from `Value`, with a `.csv` reference.
  public static func `func`<A>(into witness: Snapshotting<A, Format>) -> Snapshotting<
    (Value) -> A, Format
  > {
    var strategy = SimplySnapshotting<String>.lines.asyncPullback { (function: (Value) -> A) in
      let pairs = Value.allCases.map { input in (input: input, output: function(input)) }
      return Async<String> { callback in
        var rows: [String] = []
        // Runs the witness on each case in turn, since a witness may call back later.
        func renderRow(_ index: Int) {
          guard index < pairs.count else {
            callback(rows.joined(separator: "\n"))
            return
          }
          let (input, output) = pairs[index]
          witness.snapshot(output).run { output in
            rows.append("\"\(input)\",\"\(output)\"")
            renderRow(index + 1)
          }
        }
        renderRow(0)
      }
    }
    strategy.pathExtension = "csv"
    return strategy
  }
}
