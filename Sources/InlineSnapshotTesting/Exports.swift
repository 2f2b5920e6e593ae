// Code that imports InlineSnapshotTesting uses `Snapshotting` and the text strategies without a
// second import, as with upstream, and `.customDump` too: the module depends on
// SnapshotTestingCustomDump, whose strategy an inline snapshot often uses, so a user's test sees it
// without naming that product.
@_exported import SnapshotTesting
@_exported import SnapshotTestingCustomDump
