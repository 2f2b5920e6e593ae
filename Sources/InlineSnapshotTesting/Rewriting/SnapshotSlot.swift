/// Where a call keeps, or would keep, the closure an ``InlineSnapshotSyntaxDescriptor`` names.
///
/// The descriptor's offset counts from the call's first trailing closure. Closures passed last
/// inside the parentheses count as trailing closures too, so a negative position relative to the
/// parentheses' end means one of them.
enum SnapshotSlot {
  /// A closure argument inside the parentheses.
  case argument(ScannedCall.Argument, ScannedCall.Closure)
  /// The unlabelled first trailing closure.
  case trailingClosure(ScannedCall.Closure)
  /// A labelled trailing closure after the first.
  case additionalClosure(ScannedCall.LabeledClosure)
  /// No first trailing closure yet.
  case missingTrailingClosure
  /// No labelled closure for the snapshot yet; one belongs before the labelled closure at
  /// `index`, or at the end when `index` is their count.
  case missingAdditionalClosure(index: Int)

  /// The closure the slot holds, if any.
  var closure: ScannedCall.Closure? {
    switch self {
    case .argument(_, let closure), .trailingClosure(let closure): return closure
    case .additionalClosure(let element): return element.closure
    case .missingTrailingClosure, .missingAdditionalClosure: return nil
    }
  }

  /// Finds the slot of `call` that `descriptor` describes.
  ///
  /// A labelled trailing closure whose label the descriptor names is taken wherever it stands, so
  /// that closures the helper writes in another order, or removes, do not shift it.
  init(
    of call: ScannedCall,
    descriptor: InlineSnapshotSyntaxDescriptor,
    line: Int
  ) throws(InlineSnapshotRewriteError) {
    let arguments = call.arguments
    var firstClosureArgument = arguments.count
    while firstClosureArgument > 0, arguments[firstClosureArgument - 1].closure != nil {
      firstClosureArgument -= 1
    }
    let position = firstClosureArgument + descriptor.trailingClosureOffset
    if position < arguments.count {
      guard position >= firstClosureArgument, position >= 0,
        let closure = arguments[position].closure
      else {
        throw .negativeOffset(line: line, offset: descriptor.trailingClosureOffset)
      }
      self = .argument(arguments[position], closure)
      return
    }
    let additionalIndex = position - arguments.count - 1
    guard additionalIndex >= 0 else {
      self = call.trailingClosure.map { .trailingClosure($0) } ?? .missingTrailingClosure
      return
    }
    let additional = call.additionalTrailingClosures
    if additionalIndex < additional.count, descriptor.names(additional[additionalIndex].label) {
      self = .additionalClosure(additional[additionalIndex])
    } else if let named = additional.first(where: { descriptor.names($0.label) }) {
      self = .additionalClosure(named)
    } else {
      self = .missingAdditionalClosure(index: min(additionalIndex, additional.count))
    }
  }
}

/// The line of the snapshot closure `descriptor` names at the call at `callLine`/`callColumn`, or
/// `nil` when the call or the closure is not there.
func snapshotClosureLine(
  in parsed: ParsedSource,
  callLine: Int,
  callColumn: Int,
  syntaxDescriptor: InlineSnapshotSyntaxDescriptor
) throws(InlineSnapshotRewriteError) -> Int? {
  guard let call = parsed.call(line: callLine, column: callColumn) else { return nil }
  let slot = try SnapshotSlot(of: call, descriptor: syntaxDescriptor, line: callLine)
  let start: Int
  switch slot {
  case .argument(let argument, _): start = argument.start
  case .trailingClosure(let closure): start = closure.start
  case .additionalClosure(let element): start = element.start
  case .missingTrailingClosure, .missingAdditionalClosure: return nil
  }
  return parsed.line(of: start)
}

/// The text a closure returns when its body is a single string literal without interpolation.
func literalText(of closure: ScannedCall.Closure) -> String? {
  closure.literalText
}
