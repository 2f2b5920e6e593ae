import Foundation
import SnapshotTesting
import Testing
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// Code written the way upstream's README and documentation write it (with Linux types standing
// in for UIKit ones), compiled against this package with a plain `import SnapshotTesting`. If a
// public name, label, default or generic constraint differed, this file would not compile.

public final class LegacyView {
  var title = "Hello"
  var subviews: [String] = ["label", "button"]
  init() {}
}

public final class LegacyViewController {
  let view = LegacyView()
  init() {}
}

struct User: Codable {
  var bio: String
  var id: Int
  var name: String
}

extension Snapshotting where Value == LegacyView, Format == String {
  // The README's "pullback" example, with a text format standing in for UIImage.
  public static let outline: Snapshotting = Snapshotting<String, String>.lines.pullback { view in
    ([view.title] + view.subviews).joined(separator: "\n")
  }
}

extension Snapshotting where Value == LegacyViewController, Format == String {
  public static let outline: Snapshotting = Snapshotting<LegacyView, String>
    .outline
    .pullback { viewController in viewController.view }
}

public final class DeferredRenderer: @unchecked Sendable {
  init() {}
  /// Stands in for a platform API (like `WKWebView.takeSnapshot`) that calls back later.
  func takeSnapshot(completion: @escaping (String?, Error?) -> Void) {
    nonisolated(unsafe) let completion = completion
    DispatchQueue.global().async { completion("rendered", nil) }
  }
}

extension Snapshotting where Value == DeferredRenderer, Format == String {
  // The "asyncPullback" example.
  public static let rendered: Snapshotting = Snapshotting<String, String>
    .lines
    .asyncPullback { renderer in
      Async { callback in
        renderer.takeSnapshot { text, error in
          callback(text ?? "")
        }
      }
    }

  // The "async initialization" example.
  public static let renderedViaInit = Snapshotting(
    pathExtension: "txt",
    diffing: .lines,
    asyncSnapshot: { renderer in
      Async { callback in
        renderer.takeSnapshot { text, error in
          callback(text ?? "")
        }
      }
    }
  )
}

extension SnapshotTestingConfiguration.DiffTool {
  // From the 1.17 migration guide.
  static let compare = Self {
    "compare \"\($0)\" \"\($1)\" png: | open -f -a Preview.app"
  }
}

// A custom Diffing with the deprecated initialiser that returns XCTAttachments.
@available(*, deprecated)
let legacyDiffing = Diffing<String>(
  toData: { Data($0.utf8) },
  fromData: { String(decoding: $0, as: UTF8.self) },
  diff: { old, new in
    old == new ? nil : ("changed", [XCTAttachment(data: Data(new.utf8))])
  }
)

@Suite(.snapshots(record: .never, diffTool: .ksdiff))
struct UpstreamAPICompatibilityTests {
  @Test func pulledBackStrategiesSnapshot() {
    assertSnapshot(of: LegacyViewController(), as: .outline)
  }

  @Test func asynchronousStrategiesSnapshot() {
    assertSnapshot(of: DeferredRenderer(), as: .rendered)
    assertSnapshot(of: DeferredRenderer(), as: .renderedViaInit)
  }

  @Test func readmeTextStrategies() {
    let user = User(bio: "Blobbed around the world.", id: 1, name: "Blobby")
    assertSnapshot(of: user, as: .json)
    assertSnapshot(of: user, as: .plist)
    assertSnapshot(of: user, as: .dump)

    var request = URLRequest(url: URL(string: "http://localhost:8080/account")!)
    request.httpMethod = "POST"
    request.addValue(#"pf_session={"userId":"1"}"#, forHTTPHeaderField: "Cookie")
    request.httpBody = Data("email=blob%40pointfree.co&name=Blob".utf8)
    assertSnapshot(of: request, as: .raw)
  }

  @Test func recordingOneSnapshotAndScopes() {
    withSnapshotTesting(record: .all) {
      let message = verifySnapshot(
        of: "x",
        as: .lines,
        snapshotDirectory: FileManager.default.temporaryDirectory
          .appendingPathComponent("compat-\(UUID().uuidString)").path
      )
      #expect(message?.contains("Record mode") == true)
    }
  }

  @available(*, deprecated)
  @Test func deprecatedDiffingStillReportsItsAttachments() throws {
    let result = try #require(legacyDiffing.diffV2("a", "b"))
    #expect(result.0 == "changed")
    #expect(result.1.count == 1)
  }

  @Test func migratedDiffToolRenders() {
    #expect(
      SnapshotTestingConfiguration.DiffTool.compare(currentFilePath: "a", failedFilePath: "b")
        == #"compare "a" "b" png: | open -f -a Preview.app"#
    )
  }
}

/// The pre-1.17 globals, as the migration guide shows them. Compiled, not run: they mutate
/// process-wide state that parallel tests share.
@available(*, deprecated)
func legacyGlobalsCompile() {
  isRecording = true
  diffTool = "ksdiff"
  defer {
    isRecording = false
    diffTool = nil
  }
  record = true
  assertSnapshot(matching: "value", as: .lines)
  _ = verifySnapshot(matching: "value", as: .lines, named: "legacy", record: true)
}
