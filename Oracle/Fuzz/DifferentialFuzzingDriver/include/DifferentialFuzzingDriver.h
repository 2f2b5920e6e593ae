#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer's driver with `test_one_input` as the target, as its own `main` would.
int differential_fuzzing_run(
    int argc, char **argv, int (*test_one_input)(const uint8_t *data, size_t size));

/// libFuzzer's own mutation of `data`, for a custom mutator to fall back on.
size_t differential_fuzzing_mutate(uint8_t *data, size_t size, size_t max_size);
