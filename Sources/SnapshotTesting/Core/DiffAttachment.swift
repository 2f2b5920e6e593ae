import Foundation

/// A file that explains a difference: attached to the test and written beside the failed snapshot.
public enum DiffAttachment {
  /// An XCTest attachment. Kept for source compatibility; on Linux it carries its data only.
  @available(*, deprecated, message: "Use '.data(_:name:)'")
  case xcTest(XCTAttachment)
  /// Raw bytes with a file name, such as `"difference.png"`.
  case data(Data, name: String)
}

#if !canImport(ObjectiveC)
  /// A stand-in for XCTest's attachment type, which swift-corelibs-xctest does not have.
  ///
  /// It exists so that code written against the deprecated `Diffing(toData:fromData:diff:)`
  /// initialiser compiles on Linux. Its data is reported like a ``DiffAttachment/data(_:name:)``.
  public struct XCTAttachment {
    /// The attached bytes.
    public var data: Data
    /// The uniform type identifier given at creation, if any.
    public var uniformTypeIdentifier: String?
    /// A name for the attachment; used as its file name when it is written.
    public var name: String?

    /// Creates an attachment from bytes.
    public init(data: Data) {
      self.data = data
    }

    /// Creates an attachment from bytes with a uniform type identifier.
    public init(data: Data, uniformTypeIdentifier: String) {
      self.data = data
      self.uniformTypeIdentifier = uniformTypeIdentifier
    }
  }
#endif
