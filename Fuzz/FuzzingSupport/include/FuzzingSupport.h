#ifndef FUZZING_SUPPORT_H
#define FUZZING_SUPPORT_H

// The entry point of the fuzzing harnesses in Fuzz/.
//
// Each harness is an executable whose main.swift calls `fuzzing_support_run` with its test
// function, instead of defining `LLVMFuzzerTestOneInput` and linking libFuzzer's `main`: SwiftPM
// names an executable's entry point after its module on Linux, so libFuzzer's own `main` cannot
// be used.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Runs libFuzzer (`LLVMFuzzerRunDriver`) with the process's arguments on `test_one_input`, which
/// returns 0, or -1 for an input that must not be added to the corpus. Returns libFuzzer's exit
/// status.
int fuzzing_support_run(
    int argc, char **argv, int (*test_one_input)(const uint8_t *data, size_t size));

#ifdef __cplusplus
}
#endif

#endif
