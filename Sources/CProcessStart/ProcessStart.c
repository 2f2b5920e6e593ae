// A load-time hook: `snapshot-testing prune` needs every test process of a run described in the
// usage log, including those that never reach a snapshot assertion (a `swift test --parallel`
// worker whose one test has none, or one that crashes before its first), and Swift has no code
// that runs as a module loads. Nothing happens unless SNAPSHOT_TESTING_USED_REFERENCES is set.
#include <stdlib.h>

#include "CProcessStart.h"

#if defined(__ELF__) || defined(__APPLE__)
// glibc, musl and dyld pass the program's arguments to constructors. Elsewhere the log starts
// at the first snapshot assertion.
__attribute__((constructor)) static void process_start(int argc, char **argv, char **envp) {
  (void)envp;
  const char *folder = getenv("SNAPSHOT_TESTING_USED_REFERENCES");
  if (folder != NULL && folder[0] != '\0') {
    snapshot_testing_process_started(argc, argv);
  }
}
#endif
