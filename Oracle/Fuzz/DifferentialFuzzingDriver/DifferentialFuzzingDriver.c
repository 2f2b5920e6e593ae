#include "DifferentialFuzzingDriver.h"

// Both in libFuzzer (`-sanitize=fuzzer`).
extern int LLVMFuzzerRunDriver(
    int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size));
extern size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

int differential_fuzzing_run(
    int argc, char **argv, int (*test_one_input)(const uint8_t *data, size_t size)) {
  return LLVMFuzzerRunDriver(&argc, &argv, test_one_input);
}

size_t differential_fuzzing_mutate(uint8_t *data, size_t size, size_t max_size) {
  return LLVMFuzzerMutate(data, size, max_size);
}
