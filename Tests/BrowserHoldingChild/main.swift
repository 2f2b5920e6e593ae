import Foundation
import ImageSnapshotTesting
import WebSnapshotTesting

// The child process of `BrowserLifecycleTests`' kill tests: starts the shared browser through a
// web snapshot and waits to be killed with SIGKILL. A program of its own rather than a test of
// the bundle run with a filter, so that no entry point shows up as a skipped test in a normal
// run.
//
//     BrowserHoldingChild hold|start READY
//
// `hold` takes a snapshot (so the browser runs and has answered), then creates READY; `start`
// creates READY first, then starts the browser. Both then sleep for two minutes.

let arguments = CommandLine.arguments
guard arguments.count == 3, ["hold", "start"].contains(arguments[1]) else {
  FileHandle.standardError.write(Data("usage: BrowserHoldingChild hold|start READY\n".utf8))
  exit(2)
}
let ready = URL(fileURLWithPath: arguments[2])

/// Takes one 10×10 snapshot of a white page, waiting up to a minute for it.
func snapshot() {
  let page = WebPage(html: "<!doctype html><body style=\"margin:0;background:#fff\"></body>")
  let done = DispatchSemaphore(value: 0)
  Snapshotting<WebPage, Bitmap>.image(width: 10, height: 10).snapshot(page).run { _ in
    done.signal()
  }
  _ = done.wait(timeout: .now() + 60)
}

if arguments[1] == "hold" { snapshot() }
_ = FileManager.default.createFile(atPath: ready.path, contents: Data())
if arguments[1] == "start" { snapshot() }
Thread.sleep(forTimeInterval: 120)
