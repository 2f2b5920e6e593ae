// Code that imports WebSnapshotTesting calls `assertSnapshot` and names the image tolerances
// (`precision:`, `perceptualPrecision:`) and `Bitmap` without a second import; the image module
// brings `SnapshotTesting` with it.
@_exported import ImageSnapshotTesting
@_exported import SnapshotTesting
