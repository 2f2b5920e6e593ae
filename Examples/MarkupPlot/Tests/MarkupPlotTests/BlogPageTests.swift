import MarkupSnapshotTesting
import Plot
import Testing

/// A blog post page as Plot renders it (one line), snapshotted as canonical HTML.
@Suite struct BlogPageTests {
  static func page(title: String, tags: [String]) -> HTML {
    HTML(
      .head(.title(title), .meta(.charset(.utf8)), .stylesheet("/styles.css")),
      .body(
        .header(.a(.href("/"), .text("My Site"))),
        .article(
          .h1(.text(title)),
          .p("Hello, ", .strong("world"), " & friends."),
          .ul(.forEach(tags) { .li(.a(.href("/tags/\($0)"), .text($0))) })
        ),
        .form(
          .action("/subscribe"),
          .input(.type(.hidden), .name("csrf"), .value("8f3a9c")),
          .input(.type(.email), .name("email"))
        )
      )
    )
  }

  @Test func blogPost() {
    assertSnapshot(
      of: Self.page(title: "First post", tags: ["swift", "testing"]).render(),
      as: .html(redacting: [.attribute("value", of: "input[name=csrf]")])
    )
  }
}
