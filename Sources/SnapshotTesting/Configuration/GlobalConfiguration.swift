import Foundation
import RunRecord

/// The process-wide settings behind the deprecated globals; `nil` until someone sets them.
package final class GlobalConfiguration: @unchecked Sendable {
  /// The one process-wide instance, or the private one a test bound for its task (``Private``)
  /// instead of mutating the one that parallel tests share.
  package static var shared: GlobalConfiguration {
    TestHooks.value(Private.self) ?? processWide
  }

  private static let processWide = GlobalConfiguration()

  /// A test's own instance, bound through `TestHooks`.
  package enum Private: TestHookKey {
    package typealias Value = GlobalConfiguration
  }

  /// Runs `operation` with a fresh instance, so that the deprecated globals it sets stay in it.
  package static func withPrivateInstance<R>(operation: () throws -> R) rethrows -> R {
    try TestHooks.with(Private.self, GlobalConfiguration(), operation: operation)
  }

  /// Runs the asynchronous `operation` with a fresh instance.
  package static func withPrivateInstance<R>(operation: () async throws -> R) async rethrows -> R {
    try await TestHooks.with(Private.self, GlobalConfiguration(), operation: operation)
  }

  private let lock = NSLock()
  private var _record: SnapshotTestingConfiguration.Record?
  private var _diffTool: SnapshotTestingConfiguration.DiffTool?

  package var record: SnapshotTestingConfiguration.Record? {
    get { lock.withLock { _record } }
    set { lock.withLock { _record = newValue } }
  }

  var diffTool: SnapshotTestingConfiguration.DiffTool? {
    get { lock.withLock { _diffTool } }
    set { lock.withLock { _diffTool = newValue } }
  }
}

/// The record mode in effect here: the current scope's, else the global one, else
/// `SNAPSHOT_TESTING_RECORD`, else `.missing`. Setting it sets the global mode.
@_spi(Internals)
public var _record: SnapshotTestingConfiguration.Record {
  get { (try? resolveSettings().record.get())?.mode ?? .missing }
  set { GlobalConfiguration.shared.record = newValue }
}

/// The diff tool in effect here: the current scope's, else the global one, else `.default`.
/// Setting it sets the global diff tool.
@_spi(Internals)
public var _diffTool: SnapshotTestingConfiguration.DiffTool {
  get { resolveSettings().diffTool }
  set { GlobalConfiguration.shared.diffTool = newValue }
}

/// Whether assertions record every snapshot (`true`) or only missing ones (`false`).
@available(
  *,
  deprecated,
  message:
    "Use 'withSnapshotTesting' to customize the record mode. See the documentation for more information."
)
public var isRecording: Bool {
  get { _record == .all }
  set { _record = newValue ? .all : .missing }
}

/// The same as ``isRecording``, under the name the original articles used: `record = true`.
@available(
  *,
  deprecated,
  message:
    "Use 'withSnapshotTesting' to customize the record mode. See the documentation for more information."
)
public var record: Bool {
  get { _record == .all }
  set { _record = newValue ? .all : .missing }
}

/// The diff tool used by failure messages.
@available(
  *,
  deprecated,
  message:
    "Use 'withSnapshotTesting' to customize the diff tool. See the documentation for more information."
)
public var diffTool: SnapshotTestingConfiguration.DiffTool {
  get { _diffTool }
  set { _diffTool = newValue }
}

/// The global record mode's storage: the value set through the deprecated globals, else
/// `SNAPSHOT_TESTING_RECORD`, else `.missing`. Unlike ``_record`` it ignores scopes.
@_spi(Internals)
public var __record: SnapshotTestingConfiguration.Record {
  get { (try? resolveSettings(configuration: nil).record.get())?.mode ?? .missing }
  set { GlobalConfiguration.shared.record = newValue }
}

/// The global diff tool's storage: the one set through the deprecated globals, else `.default`.
@_spi(Internals)
public var __diffTool: SnapshotTestingConfiguration.DiffTool {
  get { GlobalConfiguration.shared.diffTool ?? .default }
  set { GlobalConfiguration.shared.diffTool = newValue }
}
