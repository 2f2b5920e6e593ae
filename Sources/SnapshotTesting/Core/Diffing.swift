import Foundation
import RunRecord

/// How values of a snapshot format are stored on disk and compared.
///
/// ```swift
/// let exact = Diffing<String>.diff(
///   toData: { Data($0.utf8) },
///   fromData: { String(decoding: $0, as: UTF8.self) },
///   diffV2: { old, new in old == new ? nil : ("They differ.", []) }
/// )
/// ```
///
/// It is `@unchecked Sendable` so that strategies can be declared as `static let`.
public struct Diffing<Value>: @unchecked Sendable {
  /// Encodes a value into the bytes of a reference file.
  public var toData: (Value) -> Data

  /// Decodes a reference file's bytes into a value.
  public var fromData: (Data) -> Value

  /// Compares a reference (first) with a new value (second): `nil` when they match, otherwise a
  /// description of the difference and files that help to see it.
  public var diffV2: (Value, Value) -> (String, [DiffAttachment])?

  /// How review tools show this format's failures; `nil` lets the assertion infer it (text for
  /// `String`, else data). Only the package's own strategies know better.
  package var reviewKind: FailureRecord.Kind?

  /// Set by formats whose encoding costs more than decoding a reference and comparing values
  /// (images): the engine then decides a match that way, without `toData`, and encodes the
  /// value only to write a file. It runs this instead, on every assertion where `toData` would
  /// have run, so that the strategy can still report a problem with the value
  /// (``UnavailableSnapshot``) or warn (``SnapshotWarning``) each time.
  package var encodesOnlyToWrite: ((Value) -> Void)?

  /// What each attachment the comparison makes is, by its name (`"difference.patch"`: a patch);
  /// an attachment not named here is a plain attachment.
  package var attachmentRoles: [String: FailureRecord.Role] = [:]

  /// Set by formats whose reference is a folder (`.directory`): ``toData`` gives the bytes of a
  /// ``FolderContents``, which the engine reads and writes as a folder of files.
  package var storesFolder = false

  /// For a format that stores a folder: whether the folder at a URL holds exactly this value,
  /// found without reading either whole. The engine asks it first; `false` sends the assertion
  /// down the ordinary path (read the reference, decide), which also says why it could not match.
  package var matchesFolder: ((Value, URL) -> Bool)?

  /// The comparison in its older shape, returning XCTest attachments.
  @available(*, deprecated, message: "Use 'diffV2'")
  public var diff: (Value, Value) -> (String, [XCTAttachment])? {
    get {
      let diffV2 = self.diffV2
      return { old, new in
        diffV2(old, new).map { message, attachments in
          (message, attachments.map(\.asXCTAttachment))
        }
      }
    }
    set {
      self.diffV2 = { old, new in
        newValue(old, new).map { message, attachments in
          (message, attachments.map { .xcTest($0) })
        }
      }
    }
  }

  /// Creates a diffing from its three functions.
  ///
  /// - Parameters:
  ///   - toData: Encodes a value for the disk.
  ///   - fromData: Decodes a value from the disk.
  ///   - diffV2: Returns `nil` for a match, else a message and attachments.
  public static func diff(
    toData: @escaping (_ value: Value) -> Data,
    fromData: @escaping (_ data: Data) -> Value,
    diffV2: @escaping (_ lhs: Value, _ rhs: Value) -> (String, [DiffAttachment])?
  ) -> Self {
    Self(toData: toData, fromData: fromData, diffV2: diffV2)
  }

  init(
    toData: @escaping (Value) -> Data,
    fromData: @escaping (Data) -> Value,
    diffV2: @escaping (Value, Value) -> (String, [DiffAttachment])?
  ) {
    self.toData = toData
    self.fromData = fromData
    self.diffV2 = diffV2
  }

  /// Creates a diffing whose comparison returns XCTest attachments.
  @available(*, deprecated, message: "Use 'Diffing.diff'")
  public init(
    toData: @escaping (_ value: Value) -> Data,
    fromData: @escaping (_ data: Data) -> Value,
    diff: @escaping (_ lhs: Value, _ rhs: Value) -> (String, [XCTAttachment])?
  ) {
    self.init(toData: toData, fromData: fromData) { old, new in
      diff(old, new).map { message, attachments in (message, attachments.map { .xcTest($0) }) }
    }
  }
}

extension DiffAttachment {
  @available(*, deprecated)
  var asXCTAttachment: XCTAttachment {
    switch self {
    case .xcTest(let attachment):
      return attachment
    case .data(let data, let name):
      var attachment = XCTAttachment(data: data)
      attachment.name = name
      return attachment
    }
  }

  /// The bytes and a file name to write or attach.
  var fileContents: (data: Data, name: String?) {
    switch self {
    case .data(let data, let name):
      return (data, name)
    case .xcTest(let attachment):
      return (attachment.data, attachment.name)
    }
  }
}
