// Code that imports ImageSnapshotTesting calls `assertSnapshot(of: bitmap, as: .image)` without a
// second import, as InlineSnapshotTesting does.
@_exported import SnapshotTesting
