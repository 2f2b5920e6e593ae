import Foundation
import Testing

@testable import RunRecord

@Suite struct RunEnvironmentTests {
  @Test func everyKeyIsReadAndNothingElse() {
    var asked: [String] = []
    let environment = RunEnvironment.reading { name in
      asked.append(name)
      return "value of \(name)"
    }
    #expect(asked == RunEnvironment.Key.allCases.map(\.rawValue))
    for key in RunEnvironment.Key.allCases {
      #expect(environment[key] == "value of \(key.rawValue)")
    }
  }

  @Test func anEmptyValueCountsAsUnset() {
    let environment = RunEnvironment.reading { $0 == "SNAPSHOT_ARTIFACTS" ? "" : nil }
    #expect(environment[.artifacts] == nil)
    #expect(ArtifactsFolder(environment).rootPath == NSTemporaryDirectory())
  }

  @Test func anOverrideReplacesTheProcessEnvironment() {
    RunEnvironment.withOverride([.artifacts: "/override"]) {
      #expect(RunEnvironment.current == [.artifacts: "/override"])
      #expect(RunEnvironment.current[.continuousIntegration] == nil)
    }
  }

  @Test(arguments: [
    ("1", true), ("true", true), ("yes", true), ("0", false), ("false", false), ("NO", false),
    ("", false),
  ])
  func continuousIntegrationIsReadFromCI(_ value: String, _ expected: Bool) {
    #expect(RunEnvironment([.continuousIntegration: value]).isContinuousIntegration == expected)
  }
}
