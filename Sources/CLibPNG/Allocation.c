#include "Allocation.h"
#include "CLibPNG.h"

#include <stdlib.h>

// Per thread, so that tests running in parallel never make each other's allocations fail.
// Negative: never fail.
static _Thread_local int allocations_left = -1;

void clibpng_test_fail_allocation_after(int count) { allocations_left = count; }

int clibpng_allocation_should_fail(void) {
  if (allocations_left < 0) return 0;
  if (allocations_left == 0) {
    // Only the one allocation fails; the paths that free what came before run as in real life.
    allocations_left = -1;
    return 1;
  }
  allocations_left--;
  return 0;
}

void *clibpng_allocate(size_t size) {
  if (clibpng_allocation_should_fail()) return NULL;
  return malloc(size);
}
