// A small program for the command snapshot tests: each first argument is one behaviour a real
// command-line tool has (printing, colours, reading input, sleeping, starting a child).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes all of `text` with the system call, unbuffered, so that what was printed before a
/// sleep or a signal is already in the pipe.
func emit(_ text: String, to descriptor: Int32) {
  let bytes = Array(text.utf8)
  var offset = 0
  while offset < bytes.count {
    let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    if written <= 0 { exit(1) }
    offset += written
  }
}

func out(_ text: String) { emit(text, to: 1) }
func err(_ text: String) { emit(text, to: 2) }

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "greet":
  // greet --name NAME
  let name = arguments.count >= 3 && arguments[1] == "--name" ? arguments[2] : "world"
  out("Hello, \(name)!\n")
case "report":
  // Both streams and a failing status, as a tool reporting an error does.
  out("checked 3 files\n")
  err("error: missing file 'b.txt'\n")
  exit(3)
case "args":
  // Each argument on a line of its own, between brackets, so spaces and newlines show.
  for argument in arguments.dropFirst() { out("[\(argument)]\n") }
case "env":
  for name in arguments.dropFirst() {
    let value = getenv(name).map { String(validatingCString: $0) ?? "(not UTF-8)" } ?? "(unset)"
    out("\(name)=\(value)\n")
  }
case "pwd":
  var buffer = [CChar](repeating: 0, count: 4096)
  if getcwd(&buffer, buffer.count) != nil {
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    out(String(decoding: bytes, as: UTF8.self) + "\n")
  }
case "colors":
  let escape = "\u{1B}["
  out("\(escape)1mbold\(escape)0m \(escape)3mitalic\(escape)23m \(escape)4munder\(escape)24m\n")
  out("\(escape)31mred\(escape)39m \(escape)92mbright green\(escape)0m ")
  out("\(escape)7minverse\(escape)27m\n")
  out("\(escape)38;5;208morange\(escape)0m ")
  out("\(escape)48;5;236;38;2;255;105;180mpink on grey\(escape)0m\n")
  out("<a & b>\n")
case "escapes":
  // Sequences that are not SGR, or malformed, around plain words.
  out("one\u{1B}[2Ktwo\u{1B}]0;title\u{07}three\u{1B}[?25lfour\u{1B}(Bfive\n")
  out("six\u{1B}[31;seven\u{1B}[38;5;999meight\u{1B}[38;2;1mnine\u{1B}")
case "no-newline":
  out("partial")
case "stdin":
  // Reads all of standard input and prints it in capitals.
  var input: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = read(0, &buffer, buffer.count)
    if count <= 0 { break }
    input += buffer[0..<count]
  }
  out("read: " + String(decoding: input, as: UTF8.self).uppercased())
case "sleep":
  sleep(UInt32(arguments.dropFirst().first.flatMap { UInt32($0) } ?? 60))
case "spawn-child":
  // Starts a child that sleeps, prints its process id, then sleeps itself: a timeout must end
  // both.
  var pid: pid_t = 0
  let path = CommandLine.arguments[0]
  let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), strdup("sleep"), strdup("60"), nil]
  #if canImport(Darwin)
    let environment = _NSGetEnviron().pointee
  #else
    let environment = environ
  #endif
  guard posix_spawn(&pid, path, nil, nil, argv, environment) == 0 else { exit(2) }
  out("child \(pid)\n")
  sleep(60)
case "flood":
  // flood MEGABYTES: that many MiB of lines to standard output.
  let megabytes = arguments.dropFirst().first.flatMap { Int($0) } ?? 1
  let line = String(repeating: "x", count: 63) + "\n"
  let block = String(repeating: line, count: 1024)
  for _ in 0..<(megabytes * 16) { out(block) }
case "colour-flood":
  // colour-flood KILOBYTES: coloured lines, about that many KiB.
  let kilobytes = arguments.dropFirst().first.flatMap { Int($0) } ?? 1
  var index = 0
  var written = 0
  while written < kilobytes * 1024 {
    let line = "\u{1B}[3\(index % 8)mline \(index)\u{1B}[0m \u{1B}[1mbold\u{1B}[22m text\n"
    out(line)
    written += line.utf8.count
    index += 1
  }
default:
  err(
    "usage: CommandFixture greet|report|args|env|pwd|colors|escapes|stdin|sleep|spawn-child|flood\n"
  )
  exit(64)
}
