import Foundation
import RunRecord

/// The process-wide settings behind the deprecated globals; `nil` until someone sets them.
package final class GlobalConfiguration: @unchecked Sendable {
  /// The one process-wide instance. A task-local only so that tests can give a task a private
  /// instance instead of mutating the one that parallel tests share.
  @TaskLocal package static var shared = GlobalConfiguration()

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
  get {
    let resolved = try? resolveRecordMode(
      argument: nil,
      scoped: SnapshotTestingConfiguration.current?.record,
      global: GlobalConfiguration.shared.record,
      environment: RunEnvironment.current
    )
    return resolved?.mode ?? .missing
  }
  set { GlobalConfiguration.shared.record = newValue }
}

/// The diff tool in effect here: the current scope's, else the global one, else `.default`.
/// Setting it sets the global diff tool.
@_spi(Internals)
public var _diffTool: SnapshotTestingConfiguration.DiffTool {
  get {
    SnapshotTestingConfiguration.current?.diffTool ?? GlobalConfiguration.shared.diffTool
      ?? .default
  }
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
  get {
    let resolved = try? resolveRecordMode(
      argument: nil,
      scoped: nil,
      global: GlobalConfiguration.shared.record,
      environment: RunEnvironment.current
    )
    return resolved?.mode ?? .missing
  }
  set { GlobalConfiguration.shared.record = newValue }
}

/// The global diff tool's storage: the one set through the deprecated globals, else `.default`.
@_spi(Internals)
public var __diffTool: SnapshotTestingConfiguration.DiffTool {
  get { GlobalConfiguration.shared.diffTool ?? .default }
  set { GlobalConfiguration.shared.diffTool = newValue }
}
