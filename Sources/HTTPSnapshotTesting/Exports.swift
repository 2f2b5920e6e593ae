// Code that imports HTTPSnapshotTesting calls `assertSnapshot` and builds the values it snapshots
// (`HTTPRequest`, `HTTPResponse`, `HTTPFields`) without a second import. HTTPTypes is re-exported
// because every public initialiser of `HTTPMessage` takes one of its types; a package that also
// writes `import HTTPTypes` still needs swift-http-types among its dependencies (see HTTPSnapshots).
@_exported import HTTPTypes
@_exported import SnapshotTesting
