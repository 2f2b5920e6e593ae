import InlineSnapshotTesting
import Testing

@Test func ifAmongArguments() {
    assertInlineSnapshot(
        of: value,
#if DEBUG
        as: .dump
#else
        as: .description
#endif
    ) {
        """
        1
        """
    }
}
