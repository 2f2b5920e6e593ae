// Renders UpstreamTextCorpus with upstream swift-snapshot-testing and writes one reference file
// per case into the folder given as the first argument.
import Foundation
import SnapshotTesting

let folder = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : ".")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
var seen = Set<String>()
for textCase in UpstreamTextCorpus.cases {
  precondition(seen.insert(textCase.name).inserted, "duplicate case \(textCase.name)")
  try textCase.render().write(to: folder.appendingPathComponent(textCase.fileName))
}
print("wrote \(seen.count) cases")
