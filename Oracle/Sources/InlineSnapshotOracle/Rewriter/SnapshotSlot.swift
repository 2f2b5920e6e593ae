import SwiftSyntax

/// Where a call keeps, or would keep, the closure an ``InlineSnapshotSyntaxDescriptor`` names.
///
/// The descriptor's offset counts from the call's first trailing closure. Closures passed last
/// inside the parentheses count as trailing closures too, so a negative position relative to the
/// parentheses' end means one of them.
enum SnapshotSlot {
  /// A closure argument inside the parentheses.
  case argument(LabeledExprSyntax, ClosureExprSyntax)
  /// The unlabelled first trailing closure.
  case trailingClosure(ClosureExprSyntax)
  /// A labelled trailing closure after the first.
  case additionalClosure(MultipleTrailingClosureElementSyntax)
  /// No first trailing closure yet.
  case missingTrailingClosure
  /// No labelled closure for the snapshot yet; one belongs before the labelled closure at
  /// `index`, or at the end when `index` is their count.
  case missingAdditionalClosure(index: Int)

  /// The closure the slot holds, if any.
  var closure: ClosureExprSyntax? {
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
    of call: FunctionCallExprSyntax,
    descriptor: InlineSnapshotSyntaxDescriptor,
    line: Int
  ) throws(InlineSnapshotRewriteError) {
    let arguments = Array(call.arguments)
    var firstClosureArgument = arguments.count
    while firstClosureArgument > 0,
      arguments[firstClosureArgument - 1].expression.is(ClosureExprSyntax.self)
    {
      firstClosureArgument -= 1
    }
    let position = firstClosureArgument + descriptor.trailingClosureOffset
    if position < arguments.count {
      guard position >= firstClosureArgument, position >= 0,
        let closure = arguments[position].expression.as(ClosureExprSyntax.self)
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
    let additional = Array(call.additionalTrailingClosures)
    if additionalIndex < additional.count, descriptor.names(additional[additionalIndex].label.text)
    {
      self = .additionalClosure(additional[additionalIndex])
    } else if let named = additional.first(where: { descriptor.names($0.label.text) }) {
      self = .additionalClosure(named)
    } else {
      self = .missingAdditionalClosure(index: min(additionalIndex, additional.count))
    }
  }
}

/// The line of the snapshot closure `descriptor` names at the call at `callLine`/`callColumn`, or
/// `nil` when the call or the closure is not there.
func snapshotClosureLine(
  in source: String,
  callLine: Int,
  callColumn: Int,
  syntaxDescriptor: InlineSnapshotSyntaxDescriptor
) throws(InlineSnapshotRewriteError) -> Int? {
  let parsed = ParsedSource(source)
  guard let call = parsed.call(line: callLine, column: callColumn) else { return nil }
  let slot = try SnapshotSlot(of: call, descriptor: syntaxDescriptor, line: callLine)
  let node: Syntax
  switch slot {
  case .argument(let argument, _): node = Syntax(argument)
  case .trailingClosure(let closure): node = Syntax(closure)
  case .additionalClosure(let element): node = Syntax(element)
  case .missingTrailingClosure, .missingAdditionalClosure: return nil
  }
  return parsed.line(of: node.positionAfterSkippingLeadingTrivia)
}

/// The text a closure returns when its body is a single string literal without interpolation.
func literalText(of closure: ClosureExprSyntax) -> String? {
  guard closure.statements.count == 1,
    let literal = closure.statements.first?.item.as(StringLiteralExprSyntax.self)
  else { return nil }
  return literal.representedLiteralValue
}
