#ifndef C_PROCESS_START_H
#define C_PROCESS_START_H

// Implemented in Swift by SnapshotTesting (`@_cdecl`): describes the test process in the usage
// log that SNAPSHOT_TESTING_USED_REFERENCES names. Called once, as the process loads.
void snapshot_testing_process_started(int argc, char **argv);

#endif
