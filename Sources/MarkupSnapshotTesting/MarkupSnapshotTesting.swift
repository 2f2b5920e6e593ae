// HTML and XML as canonical, indented text. A module of its own so that the core's compile time
// does not grow with a parser most users never call; it re-exports the core, so one import is
// enough.
@_exported import SnapshotTesting
