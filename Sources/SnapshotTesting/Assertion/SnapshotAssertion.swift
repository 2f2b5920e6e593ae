import Foundation
import Testing

/// Where an assertion was written and how it was configured.
struct AssertionContext {
  var name: String?
  var record: SnapshotTestingConfiguration.Record?
  var snapshotDirectory: String?
  var timeout: TimeInterval
  var fileID: String
  var filePath: String
  var testName: String
  var line: UInt
  var column: UInt

  var sourceLocation: SourceLocation {
    safeSourceLocation(fileID: fileID, filePath: filePath, line: Int(line), column: Int(column))
  }
}

/// The environment variables the assertion reads, read one by one (cheaper than building the
/// whole environment dictionary on every assertion).
package func snapshotEnvironment() -> [String: String] {
  if let override = SnapshotEnvironment.override { return override }
  var environment: [String: String] = [:]
  for key in [
    "SNAPSHOT_TESTING_RECORD", "CI", "SNAPSHOT_ARTIFACTS", "SNAPSHOT_TESTING_REFERENCE_DIR",
    ReferenceUsageLog.environmentKey,
  ] {
    if let value = getenv(key) { environment[key] = String(cString: value) }
  }
  return environment
}

/// Lets tests run assertions under a given environment without mutating the process's, which
/// parallel tests would race on.
package enum SnapshotEnvironment {
  @TaskLocal package static var override: [String: String]?
}

/// The assertion pipeline: name → locate the reference → snapshot → compare → record or report.
///
/// Returns `nil` when the snapshot matches, else the failure message. Files that explain the
/// failure are written to the artifacts folder and attached to the running Swift Testing test.
func runSnapshotAssertion<Value, Format>(
  of value: () throws -> Value,
  as strategy: Snapshotting<Value, Format>,
  context: AssertionContext
) -> String? {
  let environment = snapshotEnvironment()
  let recordMode: ResolvedRecordMode
  do {
    recordMode = try resolveRecordMode(
      argument: context.record,
      scoped: SnapshotTestingConfiguration.current?.record,
      global: GlobalConfiguration.shared.record,
      environment: environment
    )
  } catch {
    return error.description
  }

  let location: ReferenceLocation
  do {
    location = try locateReference(
      filePath: context.filePath,
      testName: context.testName,
      identifier: context.name,
      counter: {
        let folder = context.snapshotDirectory ?? context.filePath
        return SnapshotCounter.current.next(for: "\(folder)|\(context.testName)")
      },
      pathExtension: strategy.pathExtension,
      snapshotDirectory: context.snapshotDirectory,
      referenceRoot: environment["SNAPSHOT_TESTING_REFERENCE_DIR"]
    )
  } catch {
    return error.description
  }
  let referenceURL = location.referenceURL
  let displayTestName = sanitizePathComponent(context.testName)
  let artifactsRoot = artifactsRootPath(environment)
  // Computed once: a matching assertion needs it twice, and `URL.path` is not cheap.
  let referencePath = referenceURL.path
  ReferenceUsageLog.note(referencePath, environment: environment)

  let snapshot: Format
  do {
    let subject = try value()
    snapshot = try awaitSnapshot(
      strategy.snapshot(subject),
      timeout: context.timeout,
      referenceURL: referenceURL
    )
  } catch let error as SnapshotTimeoutError {
    return error.description
  } catch {
    return """
      Could not produce the value to snapshot for "\(referenceURL.path)": the expression threw \
      \(error).
      """
  }

  let diffing = strategy.diffing
  let snapshotData = diffing.toData(snapshot)

  /// The reference now holds this snapshot (it matched, or was recorded): no failure is pending.
  func settled() {
    FailureRecord.clear(referencePath: referencePath, artifactsRoot: artifactsRoot)
  }

  func record(_ note: String) -> String {
    do {
      try SnapshotFileStore.write(snapshotData, to: referenceURL)
    } catch {
      return error.description
    }
    settled()
    recordAttachments(
      [FailureAttachment(name: location.fileName, data: snapshotData)],
      sourceLocation: context.sourceLocation
    )
    return """
      \(note) Recorded the snapshot: …

      open "\(referenceURL.absoluteString)"

      Re-run "\(displayTestName)" to compare against the new reference.
      """
  }

  /// Saves the new snapshot (and the diff's files) as artifacts and records the failure for
  /// review tools; returns the message with any problem doing so appended.
  func fail(
    _ kind: FailureRecord.Kind,
    diffAttachments: [DiffAttachment],
    message: (URL) -> String
  ) -> String {
    var notes: [String] = []
    let artifacts = writeArtifacts(
      snapshotData: snapshotData,
      diffAttachments: diffAttachments,
      location: location,
      artifactsRoot: artifactsRootURL(artifactsRoot),
      notes: &notes
    )
    recordAttachments(artifacts.attachments, sourceLocation: context.sourceLocation)
    var text = message(artifacts.failedSnapshotURL)
    for note in notes { text += "\n\n\(note)" }
    let failure = FailureRecord(
      kind: kind,
      testName: context.testName,
      testFilePath: context.filePath,
      line: Int(context.line),
      snapshotName: context.name,
      referencePath: referenceURL.path,
      failedSnapshotPath: artifacts.failedSnapshotURL.path,
      attachmentPaths: artifacts.attachmentURLs.map(\.path),
      message: text,
      recordedAt: Date().timeIntervalSince1970
    )
    do {
      try failure.save(artifactsRoot: artifactsRootURL(artifactsRoot))
    } catch {
      text += "\n\nThe failure could not be recorded for review. \(error.description)"
    }
    return text
  }

  if recordMode.mode == .all {
    return record(#"Record mode is "all", so every snapshot is recorded and fails."#)
  }

  let referenceData: Data
  do {
    switch try SnapshotFileStore.read(referenceURL) {
    case .present(let data):
      referenceData = data
    case .missing:
      if recordMode.mode == .never {
        return fail(.missing, diffAttachments: []) { _ in
          """
          No reference was found at "\(referenceURL.path)". Nothing was recorded because the \
          record mode is "never".
          """
        }
      }
      guard recordMode.writesMissingReferences else {
        return fail(.missing, diffAttachments: []) { failedSnapshotURL in
          """
          No reference was found at "\(referenceURL.path)". It was not recorded because this is \
          a CI run (the CI environment variable is set) and no record mode is configured: a \
          retried job must never pass on a reference it wrote itself.

          Record the snapshot locally and commit it, or set SNAPSHOT_TESTING_RECORD=missing to \
          record on CI on purpose. The new snapshot was saved to "\(failedSnapshotURL.path)".
          """
        }
      }
      return record("No reference was found on disk.")
    }
  } catch {
    return error.description
  }

  // The bytes that would be recorded are the reference's bytes: the snapshot is what was recorded.
  // Checked first because it costs one memory compare, against decoding the reference and running
  // the format's comparison.
  if referenceData == snapshotData {
    settled()
    return nil
  }

  let reference = diffing.fromData(referenceData)
  // A text reference that is not UTF-8 would otherwise decode to replacement characters and fail
  // with a confusing diff; a custom text encoding that round-trips is left alone.
  if Format.self == String.self, String(validatingUTF8Data: referenceData) == nil,
    diffing.toData(reference) != referenceData
  {
    return SnapshotFileError.notUTF8(referenceURL).description
  }
  guard let (difference, diffAttachments) = diffing.diffV2(reference, snapshot) else {
    settled()
    return nil
  }

  var headline =
    context.name.map { #"Snapshot "\#($0)" does not match reference."# }
    ?? "Snapshot does not match reference."
  var recordingProblem: String?
  if recordMode.mode == .failed {
    do {
      try SnapshotFileStore.write(snapshotData, to: referenceURL)
      headline += " A new snapshot was automatically recorded."
    } catch {
      recordingProblem = error.description
    }
  }
  let message = fail(.mismatch, diffAttachments: diffAttachments) { failedSnapshotURL in
    let diffTool =
      SnapshotTestingConfiguration.current?.diffTool ?? GlobalConfiguration.shared.diffTool
      ?? .default
    var text = """
      \(headline)

      \(diffTool(currentFilePath: referenceURL.path, failedFilePath: failedSnapshotURL.path))

      \(difference.trimmingCharacters(in: .whitespacesAndNewlines))
      """
    if let recordingProblem { text += "\n\n\(recordingProblem)" }
    if referenceData.isEmpty {
      text += """
        \n\nThe reference "\(referenceURL.path)" is empty (0 bytes); it may have been truncated.
        """
    }
    return text
  }
  // Re-recorded: the failure is reported but nothing is left to review.
  if recordMode.mode == .failed && recordingProblem == nil { settled() }
  return message
}

/// The folder failed snapshots go to: `SNAPSHOT_ARTIFACTS`, or the temporary folder.
package func artifactsRootURL(_ environment: [String: String]) -> URL {
  artifactsRootURL(artifactsRootPath(environment))
}

/// The artifacts root as configured: `SNAPSHOT_ARTIFACTS`, or the temporary folder. Kept as a
/// path until a failure needs the `URL`: a matching assertion only needs the path.
func artifactsRootPath(_ environment: [String: String]) -> String {
  environment["SNAPSHOT_ARTIFACTS"].flatMap { $0.isEmpty ? nil : $0 } ?? NSTemporaryDirectory()
}

func artifactsRootURL(_ path: String) -> URL {
  URL(fileURLWithPath: path, isDirectory: true)
}

/// Writes the failed snapshot and the diff's files under the artifacts folder
/// (`SNAPSHOT_ARTIFACTS`, or the temporary folder), in a subfolder named after the test file.
private func writeArtifacts(
  snapshotData: Data,
  diffAttachments: [DiffAttachment],
  location: ReferenceLocation,
  artifactsRoot: URL,
  notes: inout [String]
) -> (failedSnapshotURL: URL, attachmentURLs: [URL], attachments: [FailureAttachment]) {
  let folder = artifactsRoot.appendingPathComponent(location.testFileName, isDirectory: true)
  let failedSnapshotURL = folder.appendingPathComponent(location.fileName, isDirectory: false)
  var attachments = [FailureAttachment(name: location.fileName, data: snapshotData)]
  var files = [(failedSnapshotURL, snapshotData)]
  for (index, diffAttachment) in diffAttachments.enumerated() {
    let (data, name) = diffAttachment.fileContents
    let fileName = "\(location.baseName).\(name.map(sanitizeFileName) ?? "attachment-\(index + 1)")"
    attachments.append(FailureAttachment(name: fileName, data: data))
    files.append((folder.appendingPathComponent(fileName, isDirectory: false), data))
  }
  for (url, data) in files {
    do {
      try SnapshotFileStore.write(data, to: url)
    } catch {
      notes.append("The failure's artifact could not be saved. \(error.description)")
    }
  }
  return (failedSnapshotURL, files.dropFirst().map(\.0), attachments)
}

/// Keeps an attachment's own file name but never lets it leave the artifacts folder.
private func sanitizeFileName(_ name: String) -> String {
  let safe = name.replacingOccurrences(of: "/", with: "-")
  return safe.isEmpty || safe == "." || safe == ".." ? "attachment" : safe
}

extension String {
  /// Decodes UTF-8, or `nil` when the bytes are not valid UTF-8.
  init?(validatingUTF8Data data: Data) {
    guard let decoded = String(validating: data, as: UTF8.self) else { return nil }
    self = decoded
  }
}
