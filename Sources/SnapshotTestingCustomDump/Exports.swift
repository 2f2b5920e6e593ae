// Code that imports SnapshotTestingCustomDump uses `assertSnapshot` and `Snapshotting` without a
// second import, as with the package's other products.
@_exported import SnapshotTesting
