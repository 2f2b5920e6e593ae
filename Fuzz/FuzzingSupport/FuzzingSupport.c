#include "FuzzingSupport.h"

// In libFuzzer (`-sanitize=fuzzer`), since LLVM 11.
extern int LLVMFuzzerRunDriver(
    int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size));

int fuzzing_support_run(
    int argc, char **argv, int (*test_one_input)(const uint8_t *data, size_t size)) {
  return LLVMFuzzerRunDriver(&argc, &argv, test_one_input);
}
