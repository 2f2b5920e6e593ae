/// `text` as one word for a POSIX shell: unchanged when it is plain, else in single quotes.
package func shellQuoted(_ text: String) -> String {
  let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,@%+")
  if !text.isEmpty && text.allSatisfy(plain.contains) { return text }
  return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
}
