// `mytool`: a small swift-argument-parser tool, standing in for a user's own command-line tool,
// so that the command snapshot tests (and the guide's example) snapshot what such a tool really
// prints: its help, a usage error, and a question answered on standard input.

import ArgumentParser

@main
struct MyTool: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mytool",
    abstract: "Greets people and deletes drafts.",
    subcommands: [Greet.self, Delete.self]
  )
}

struct Greet: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Greets someone.")

  @Option(help: "Who to greet.")
  var name = "world"

  func run() {
    print("Hello, \(name)!")
  }
}

struct Delete: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Deletes a draft, once confirmed.")

  @Argument(help: "The draft's file name.")
  var file: String

  func run() throws {
    print("Delete \(file)? [y/N] ", terminator: "")
    guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
      print("\nKept \(file).")
      throw ExitCode(1)
    }
    print("\nDeleted \(file).")
  }
}
