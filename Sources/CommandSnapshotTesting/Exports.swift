// Code that imports CommandSnapshotTesting calls `assertSnapshot(of: command, as: .output)`
// without a second import, as InlineSnapshotTesting does.
@_exported import SnapshotTesting
