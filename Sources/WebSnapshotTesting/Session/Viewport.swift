/// The size a page renders at, in CSS pixels, at device scale 1.
struct Viewport: Equatable, Sendable {
  var width: Int
  var height: Int

  /// The command that sets it.
  var command: (String, [String: Any]) {
    (
      "Emulation.setDeviceMetricsOverride",
      ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false]
    )
  }
}
