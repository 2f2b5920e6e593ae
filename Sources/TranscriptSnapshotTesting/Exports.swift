// One import is enough: the assertion, `.http`, and the swift-log and swift-distributed-tracing
// types a test hands its work (`Logger`, `Tracer`) and calls on them (`info`, `withSpan`).
@_exported import HTTPSnapshotTesting
@_exported import Logging
@_exported import SnapshotTesting
@_exported import Tracing
