import Foundation
import RunRecord

/// Frames on demand, for a page of the headless shell started with begin-frame control: the
/// page draws only when the snapshot asks it to (`HeadlessExperimental.beginFrame`), so that
/// nothing waits for a 60 Hz tick that the snapshot could produce at once.
///
/// Such a page runs no animation frame of its own, so every wait that needs one (the settling
/// script's two `requestAnimationFrame`s, a page that draws in one, the browser's own
/// screenshot) is wrapped in ``drive(_:while:)``, which issues frames back to back, each a frame
/// interval later than the last (never earlier than now), until the wait is over. The
/// viewport's screenshot is taken from a frame produced for it (``screenshot(_:)``).
///
/// Frames are issued one at a time in the whole browser, whatever page they are for: the shell's
/// GPU process ends itself when two overlap ("overlapping IssueExternalBeginFrame"), and the
/// browser with it once that has happened a few times. Pages settling at once take turns at
/// ``Browser/frameGate``.
///
/// The shell may not produce a frame: one that waits on a page's script busy in a loop, or one
/// dated before the page's last, never comes back. Each frame has ``deadline`` seconds, after
/// which the page fails (``WebSnapshotError/frameNotProduced(seconds:)``); an error reply fails
/// it with the error; a screenshot frame without pixels is asked for again, then the browser's
/// own capture is used.
final class PageFrames: @unchecked Sendable {
  /// The frame interval reported to the page: 60 frames a second, as Chromium's own.
  static let interval = 1000.0 / 60

  /// Seconds a frame has to come back.
  static let deadline: Double = 5

  /// Screenshot frames asked for before the browser's own capture is used instead.
  static let screenshotAttempts = 3

  /// Faults the tests provoke in a real browser.
  enum Fault: Sendable, Equatable {
    /// Every frame is asked for with an interval of 0, which the shell refuses with an error.
    case invalidInterval
    /// Screenshot frames are asked for without pixels, as the shell answers one it could not
    /// capture.
    case screenshotsWithoutPixels
  }

  /// A fault and another frame deadline, for the tests (through `TestHooks`).
  enum Faults: TestHookKey {
    typealias Value = (fault: Fault?, deadline: Double?)
  }

  private let gate: PageLimiter
  private let fault: Fault?
  private let frameDeadline: Double
  private let lock = NSLock()
  /// The time of the last frame issued, milliseconds of `CLOCK_MONOTONIC` (the browser's
  /// `TimeTicks`).
  private var lastFrameTime: Double = 0

  /// Frames for a page of a browser whose frames take turns at `gate`.
  init(gate: PageLimiter) {
    self.gate = gate
    let hooks = TestHooks.value(Faults.self)
    fault = hooks?.fault
    frameDeadline = hooks?.deadline ?? Self.deadline
  }

  /// Runs `body` while frames are issued to `session`'s page, one after another, until it
  /// returns. A frame the page does not need (no damage) is followed by a pause of one frame
  /// interval once a few in a row came back empty, so that a page waiting for its fonts or a
  /// server does not keep a processor busy.
  func drive<Output>(
    _ session: PageSession,
    while body: () async throws(WebSnapshotError) -> Output
  ) async throws(WebSnapshotError) -> Output {
    let running = RunningFlag()
    let pump = Task(executorPreference: WebExecutor.shared) { [self] in
      var idleFrames = 0
      while running.isSet {
        do throws(WebSnapshotError) {
          let reply = try await frame(session, screenshot: false)
          idleFrames = reply.bool("hasDamage") == true ? 0 : idleFrames + 1
        } catch {
          // What `body` waits on fails with it (the session keeps its first failure).
          session.fail(error)
          return
        }
        if idleFrames >= 3 {
          try? await Task.sleep(nanoseconds: UInt64(Self.interval * 1_000_000))
        }
      }
    }
    let result: Result<Output, WebSnapshotError>
    do throws(WebSnapshotError) {
      result = .success(try await body())
    } catch {
      result = .failure(error)
    }
    // The frame in flight ends before any other is asked for.
    running.clear()
    await pump.value
    return try result.get()
  }

  /// The viewport's PNG, from a frame produced for it; when the shell gives a frame without
  /// pixels a few times, the browser's own capture, with frames driven while it waits.
  func screenshot(_ session: PageSession) async throws(WebSnapshotError) -> Data {
    for _ in 0..<Self.screenshotAttempts {
      let reply = try await frame(session, screenshot: fault != .screenshotsWithoutPixels)
      if let encoded = reply.string("screenshotData"), let data = Data(base64Encoded: encoded),
        !data.isEmpty
      {
        return data
      }
    }
    return try await drive(session) { () throws(WebSnapshotError) -> Data in
      try await session.captureScreenshot(["format": "png", "optimizeForSpeed": true])
    }
  }

  /// Issues one frame when no other is in flight in the browser, and fails the page if it does
  /// not come back in time. The turn ends with the reply, or with the failure (which fails the
  /// command at once).
  private func frame(
    _ session: PageSession,
    screenshot: Bool
  ) async throws(WebSnapshotError) -> JSONMessage {
    await gate.acquire()
    let reply: Result<JSONMessage, WebSnapshotError>
    do throws(WebSnapshotError) {
      reply = .success(try await issueFrame(session, screenshot: screenshot))
    } catch {
      reply = .failure(error)
    }
    await gate.release()
    return try reply.get()
  }

  private func issueFrame(
    _ session: PageSession,
    screenshot: Bool
  ) async throws(WebSnapshotError) -> JSONMessage {
    var parameters: [String: Any] = [
      "frameTimeTicks": nextFrameTime(),
      "interval": fault == .invalidInterval ? 0 : Self.interval,
    ]
    if screenshot {
      // Encoded for speed: the PNG is decoded at once, its size does not matter.
      parameters["screenshot"] = ["format": "png", "optimizeForSpeed": true]
    }
    let seconds = frameDeadline
    let deadline = Task(executorPreference: WebExecutor.shared) {
      try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
      session.fail(.frameNotProduced(seconds: seconds))
    }
    defer { deadline.cancel() }
    return try await session.send("HeadlessExperimental.beginFrame", parameters)
  }

  /// One frame interval after the last frame, and not before now.
  private func nextFrameTime() -> Double {
    lock.withLock {
      lastFrameTime = max(lastFrameTime + Self.interval, Self.monotonicMilliseconds())
      return lastFrameTime
    }
  }

  /// Milliseconds of the system's monotonic clock, which Chromium's frame times count in (on
  /// Linux `DispatchTime` reads `CLOCK_MONOTONIC`, as Chromium does).
  private static func monotonicMilliseconds() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000
  }
}

/// A flag set at first, cleared once, read from another task.
private final class RunningFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = true

  var isSet: Bool { lock.withLock { value } }

  func clear() { lock.withLock { value = false } }
}

extension PageSession {
  /// Runs `body` with frames driven when the page draws only on demand; else just runs it.
  func withFrames<Output>(
    _ body: () async throws(WebSnapshotError) -> Output
  ) async throws(WebSnapshotError) -> Output {
    guard let frames else { return try await body() }
    return try await frames.drive(self, while: body)
  }

  /// The browser's own capture (`Page.captureScreenshot`) with `parameters`, decoded from
  /// base64.
  func captureScreenshot(_ parameters: [String: Any]) async throws(WebSnapshotError) -> Data {
    let reply = try await send("Page.captureScreenshot", parameters)
    guard let encoded = reply.string("data"), let data = Data(base64Encoded: encoded) else {
      throw .malformedReply(method: "Page.captureScreenshot", detail: "no base64 PNG data")
    }
    return data
  }
}
