import Foundation

/// Which of the package's tests one test process ran, read from the arguments `swift test` gave
/// it, and proven only as far as those arguments prove it.
///
/// `swift test` starts an XCTest process with no argument for the whole XCTest suite, or with
/// the list of selected tests as its first argument (`Module.Class/testA,Module.Class/testB`; one
/// test per worker under `--parallel`), and a Swift Testing process with its own options
/// (`--testing-library swift-testing`, with `--filter` and `--skip` when given). Names are those
/// of `swift test list`: `Module.Class/testA` for XCTest, `Module.Suite/test()` and
/// `Module.test()` for Swift Testing.
enum TestSelection: Equatable, Sendable {
  /// Not a test run: `swift test list` and other listings start the test binary too.
  case listing
  /// Every XCTest test.
  case allXCTest
  /// The XCTest tests named, or those of the classes or modules named.
  case xctest([String])
  /// The Swift Testing tests the filters select; every one when both lists are empty.
  case swiftTesting(filters: [String], skips: [String])
  /// Arguments this reading does not understand: the process proves no test ran.
  case unknown

  init(arguments: [String]) {
    let options = Array(arguments.dropFirst())
    let listingOptions = ["--list-tests", "--experimental-list-tests", "--dump-tests-json"]
    if options.contains(where: listingOptions.contains) {
      self = .listing
      return
    }
    if let library = Self.values(of: "--testing-library", in: options).last {
      guard library == "swift-testing" else {
        self = .unknown
        return
      }
      self = .swiftTesting(
        filters: Self.values(of: "--filter", in: options),
        skips: Self.values(of: "--skip", in: options)
      )
      return
    }
    switch options.count {
    case 0: self = .allXCTest
    case 1 where !options[0].hasPrefix("-"):
      self = .xctest(options[0].split(separator: ",").map(String.init))
    default: self = .unknown
    }
  }

  /// Whether every test of the kind this process runs ran, with nothing filtered out.
  var isWholeSuite: Bool {
    switch self {
    case .allXCTest: true
    case .swiftTesting(let filters, let skips): filters.isEmpty && skips.isEmpty
    case .listing, .xctest, .unknown: false
    }
  }

  /// Whether the process ran `test`, a name as `swift test list` prints it. A Swift Testing test's
  /// name ends with its parenthesised parameters; an XCTest test's does not.
  func ran(_ test: String) -> Bool {
    let isSwiftTesting = test.hasSuffix(")")
    switch self {
    case .listing, .unknown:
      return false
    case .allXCTest:
      return !isSwiftTesting
    case .xctest(let specifiers):
      return !isSwiftTesting
        && specifiers.contains { test == $0 || test.hasPrefix($0 + "/") || test.hasPrefix($0 + ".") }
    case .swiftTesting(let filters, let skips):
      guard isSwiftTesting else { return false }
      let filter = SwiftTestingFilter(filters: filters, skips: skips)
      return filter.provesRun(of: test)
    }
  }

  /// How a message names what the process was given.
  var summary: String {
    switch self {
    case .listing: "a test listing"
    case .allXCTest: "every XCTest test"
    case .xctest(let tests): tests.joined(separator: ", ")
    case .swiftTesting(let filters, let skips):
      isWholeSuite
        ? "every Swift Testing test"
        : "the Swift Testing tests of "
          + (filters.map { "--filter \($0)" } + skips.map { "--skip \($0)" })
          .joined(separator: " ")
    case .unknown: "arguments this tool does not understand"
    }
  }

  /// Every value of `option` in `options`, spelled `--option value` or `--option=value`.
  private static func values(of option: String, in options: [String]) -> [String] {
    var values: [String] = []
    var index = options.startIndex
    while index < options.endIndex {
      let argument = options[index]
      if argument == option, index + 1 < options.endIndex {
        values.append(options[index + 1])
        index += 2
        continue
      }
      if argument.hasPrefix(option + "=") {
        values.append(String(argument.dropFirst(option.count + 1)))
      }
      index += 1
    }
    return values
  }
}

/// Swift Testing's `--filter` and `--skip`, evaluated so that a test counts as run only when it
/// surely ran.
///
/// Swift Testing matches each pattern (a Swift regular expression, anywhere in the text) against
/// a test's identifier, which begins with the name `swift test list` prints and goes on with the
/// test's source location (`Module.Suite/test()/File.swift:12:4`); a suite that matches selects
/// its tests. This tool knows only the name, so it errs on the side of keeping references:
///
/// - a test is selected by `--filter` only when a pattern matches its name both alone and with a
///   location after it (a pattern anchored at the name's end, `test\(\)$`, matches the first
///   only, and may select nothing);
/// - a test is skipped by `--skip` when a pattern matches its name, the name with a location, or
///   the name of a suite or module holding it; a pattern with a `:` (which only a location could
///   match) skips every test, as does a pattern that is not a valid regular expression.
struct SwiftTestingFilter {
  var filters: [String]
  var skips: [String]

  /// Stands for the unknown location: no name holds a control character, and a pattern that
  /// matches the name followed by it does not depend on the name ending there.
  private static let location = "/\u{1}"

  func provesRun(of test: String) -> Bool {
    let selected =
      filters.isEmpty
      || filters.contains { pattern in
        guard let regex = try? Regex(pattern) else { return false }
        return test.contains(regex) && (test + Self.location).contains(regex)
      }
    guard selected else { return false }
    let containers = Self.containers(of: test)
    return !skips.contains { pattern in
      guard !pattern.contains(":"), let regex = try? Regex(pattern) else { return true }
      return ([test, test + Self.location, test + "/File.swift"] + containers).contains {
        $0.contains(regex)
      }
    }
  }

  /// The names of the module and the suites that hold `test`: `Module`, `Module.Outer`,
  /// `Module.Outer/Inner` for `Module.Outer/Inner/test()`.
  static func containers(of test: String) -> [String] {
    let parts = test.split(separator: "/", omittingEmptySubsequences: false)
    var names: [String] = []
    if let first = parts.first, let dot = first.firstIndex(of: ".") {
      names.append(String(first[..<dot]))
    }
    for count in stride(from: 1, to: parts.count, by: 1) {
      names.append(parts[..<count].joined(separator: "/"))
    }
    return names
  }
}
