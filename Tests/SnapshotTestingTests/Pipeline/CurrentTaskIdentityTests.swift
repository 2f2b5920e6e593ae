import Testing

@testable import SnapshotTesting

/// The identity the snapshot counters tell running tasks apart by.
@Suite struct CurrentTaskIdentityTests {
  @Test func staysTheSameWithinATask() async {
    let before = currentTaskIdentity()
    await Task.yield()
    #expect(before != nil)
    #expect(currentTaskIdentity() == before)
  }

  @Test func differsBetweenTasksAliveAtTheSameTime() async {
    let parent = currentTaskIdentity()
    // The parent waits for the child, so both are alive while the child reads its identity.
    let child = await Task { currentTaskIdentity() }.value
    #expect(child != nil)
    #expect(child != parent)
  }
}
