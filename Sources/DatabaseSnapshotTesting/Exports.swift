// Code that imports DatabaseSnapshotTesting calls `assertSnapshot(of: database, as: .rows(…))`
// without a second import, as the other products allow.
@_exported import SnapshotTesting
