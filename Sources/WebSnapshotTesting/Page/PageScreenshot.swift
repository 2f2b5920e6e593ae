import Foundation
import ImageSnapshotTesting

/// Takes the screenshot of a loaded page: the viewport, the whole page, or one element's box,
/// with the masked elements painted over, decoded into a `Bitmap`.
struct PageScreenshot {
  /// The colour masks are painted with: a magenta no page uses by chance.
  static let maskColor = RGBA(red: 255, green: 0, blue: 255)

  var fullPage: Bool
  var element: String?
  var masking: [String]

  /// A box in document coordinates, CSS pixels.
  struct Box: Equatable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double
  }

  func take(_ session: PageSession) async throws(WebSnapshotError) -> Bitmap {
    var clip: Box?
    if let element {
      let boxes = try await Self.boxes(of: element, parameter: "element", first: true, session)
      guard let box = boxes.first else { throw .noMatch(parameter: "element", selector: element) }
      guard box.width >= 1, box.height >= 1 else { throw .emptyElement(selector: element) }
      let x = box.x.rounded(.down)
      let y = box.y.rounded(.down)
      clip = Box(
        x: x,
        y: y,
        width: (box.x + box.width).rounded(.up) - x,
        height: (box.y + box.height).rounded(.up) - y
      )
    } else if fullPage {
      let size = try await session.evaluate(PageScripts.documentSize).evaluatedObject
      guard let width = size?.double("width"), let height = size?.double("height") else {
        throw .malformedReply(method: "Runtime.evaluate", detail: "no document size")
      }
      clip = Box(x: 0, y: 0, width: width.rounded(.up), height: height.rounded(.up))
    }
    var masks: [Box] = []
    for selector in masking {
      let boxes = try await Self.boxes(of: selector, parameter: "masking", first: false, session)
      guard !boxes.isEmpty else { throw .noMatch(parameter: "masking", selector: selector) }
      masks += boxes
    }

    // Encoded for speed: the PNG is decoded at once, its size does not matter.
    var parameters: [String: Any] = ["format": "png", "optimizeForSpeed": true]
    if let clip {
      parameters["clip"] = [
        "x": clip.x, "y": clip.y, "width": clip.width, "height": clip.height, "scale": 1,
      ]
      parameters["captureBeyondViewport"] = true
    }
    let data: Data
    if clip == nil, let frames = session.frames {
      // The viewport, from a frame the headless shell produces for it.
      data = try await frames.screenshot(session)
    } else {
      data = try await session.withFrames { () throws(WebSnapshotError) -> Data in
        try await session.captureScreenshot(parameters)
      }
    }
    var bitmap: Bitmap
    do {
      bitmap = try Bitmap(pngData: data)
    } catch {
      throw .screenshotUnreadable("\(error)")
    }
    // Boxes are in document coordinates; a viewport screenshot starts where the page is
    // scrolled to.
    var origin = clip ?? Box(x: 0, y: 0, width: 0, height: 0)
    if clip == nil, !masks.isEmpty {
      let scroll = try await session.evaluate(PageScripts.scrollOffset).evaluatedObject
      origin.x = scroll?.double("x") ?? 0
      origin.y = scroll?.double("y") ?? 0
    }
    for mask in masks {
      Self.paint(mask, offsetBy: origin, in: &bitmap)
    }
    return bitmap
  }

  /// Paints `box` (document coordinates) with the mask colour, where it falls in `bitmap`.
  static func paint(_ box: Box, offsetBy origin: Box, in bitmap: inout Bitmap) {
    let left = max(0, Int((box.x - origin.x).rounded(.down)))
    let top = max(0, Int((box.y - origin.y).rounded(.down)))
    let right = min(bitmap.width, Int((box.x + box.width - origin.x).rounded(.up)))
    let bottom = min(bitmap.height, Int((box.y + box.height - origin.y).rounded(.up)))
    guard left < right, top < bottom else { return }
    for y in top..<bottom {
      for x in left..<right {
        bitmap[x: x, y: y] = maskColor
      }
    }
  }

  static func boxes(
    of selector: String,
    parameter: String,
    first: Bool,
    _ session: PageSession
  ) async throws(WebSnapshotError) -> [Box] {
    let reply = try await session.evaluate(PageScripts.boxes(of: selector, first: first))
    guard let result = reply.evaluatedObject else {
      throw .malformedReply(method: "Runtime.evaluate", detail: "no boxes for \(selector)")
    }
    if let error = result.string("error") {
      throw .invalidSelector(parameter: parameter, selector: selector, message: error)
    }
    return result.messages("boxes").compactMap { box in
      guard let x = box.double("x"), let y = box.double("y"), let width = box.double("width"),
        let height = box.double("height"), x.isFinite, y.isFinite, width.isFinite, height.isFinite
      else { return nil }
      return Box(x: x, y: y, width: width, height: height)
    }
  }
}
