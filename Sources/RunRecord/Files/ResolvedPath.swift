import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `path` as the system would find it: absolute, every symbolic link of its longest existing
/// prefix resolved (with `..` taken after the link, as the kernel does), and `.` and `..` of the
/// rest taken out. A path that names a link to elsewhere resolves to where the link points.
///
/// Tools use it to decide whether a path from a failure record, which may be crafted, lies
/// inside a folder they may touch.
package func resolvedPath(_ path: String) -> String {
  let absolute =
    path.hasPrefix("/")
    ? path : FileManager.default.currentDirectoryPath + "/" + path
  var components = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
  // The longest prefix that exists, resolved by the system.
  var tail: [String] = []
  while true {
    let prefix = "/" + components.joined(separator: "/")
    if let resolved = SystemCalls.resolvedPath(prefix) {
      var result = resolved.split(separator: "/").map(String.init)
      for component in tail.reversed() {
        switch component {
        case ".": continue
        case "..": if !result.isEmpty { result.removeLast() }
        default: result.append(component)
        }
      }
      return "/" + result.joined(separator: "/")
    }
    guard let last = components.popLast() else { return "/" }
    tail.append(last)
  }
}

/// Whether `path` lies strictly inside `folder` (or is the folder itself when `orEqual`), both
/// resolved with ``resolvedPath(_:)``.
package func isInside(_ path: String, folder: String, orEqual: Bool = false) -> Bool {
  let resolved = resolvedPath(path)
  let base = resolvedPath(folder)
  if resolved == base { return orEqual }
  return resolved.hasPrefix(base == "/" ? "/" : base + "/")
}
