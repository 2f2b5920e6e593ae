#ifndef C_PROCESS_START_H
#define C_PROCESS_START_H

#include <stdbool.h>

// Implemented in Swift by SnapshotTesting (`@_cdecl`), called by the hooks in ProcessStart.c.

// Describes the test process in the usage log that SNAPSHOT_TESTING_USED_REFERENCES names.
// Called once, as the process loads, when that variable is set.
void snapshot_testing_process_started(void);

// Starts watching XCTest's test cases, before the first one starts. Called once, as the process
// loads.
void snapshot_testing_process_loaded(void);

// Whether the process must exit with a failing status: a snapshot assertion failed where no test
// could be told of it. Called once, by the last exit handler.
bool snapshot_testing_process_exiting(void);

#endif
