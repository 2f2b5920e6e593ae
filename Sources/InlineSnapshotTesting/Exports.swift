// Code that imports InlineSnapshotTesting uses `Snapshotting` and the text strategies without a
// second import, as with upstream.
@_exported import SnapshotTesting
