// Load-time hooks, because Swift has no code that runs as a module loads:
//
// - `snapshot-testing prune` needs every test process of a run described in the usage log,
//   including those that never reach a snapshot assertion (a `swift test --parallel` worker whose
//   one test has none, or one that crashes before its first). Nothing is written unless
//   SNAPSHOT_TESTING_USED_REFERENCES is set.
// - A snapshot assertion that fails where no test can be told (off the test's task, after the
//   test ended) must still fail the run: XCTest must be watched before its first test starts, and
//   the exit status can only be changed by the last exit handler, which must be installed first.
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "CProcessStart.h"

#if defined(__ELF__) || defined(__APPLE__)
// Exit handlers run in the reverse order of their installation. This one is installed before any
// Swift code runs, so those installed later (inline snapshot rewriting, the usage log's finished
// marker) have all run when it ends the process with a failing status.
static void process_exit(void) {
  if (snapshot_testing_process_exiting()) {
    fflush(NULL);
    _exit(EXIT_FAILURE);
  }
}

// Elsewhere the log starts at the first snapshot assertion, and a failure no test owns is only
// written to standard error.
__attribute__((constructor)) static void process_start(void) {
  atexit(process_exit);
  snapshot_testing_process_loaded();
  const char *folder = getenv("SNAPSHOT_TESTING_USED_REFERENCES");
  if (folder != NULL && folder[0] != '\0') {
    snapshot_testing_process_started();
  }
}
#endif
