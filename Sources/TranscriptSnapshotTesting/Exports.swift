// One import gives the strategy, `assertSnapshot` and `.http`.
@_exported import HTTPSnapshotTesting
@_exported import SnapshotTesting
