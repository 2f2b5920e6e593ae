#ifndef CLIBPNG_ALLOCATION_H
#define CLIBPNG_ALLOCATION_H

// The allocator of the smallest encoding, with a seam through which tests make an allocation
// fail (`clibpng_test_fail_allocation_after`). Not part of the module's interface.

#include <stddef.h>

/// `malloc`, unless this thread's countdown of allocations left has reached zero: then NULL.
void *clibpng_allocate(size_t size);

/// Whether the next allocation should fail, counting it down like `clibpng_allocate`: for memory
/// that a library allocates itself (libdeflate's compressors).
int clibpng_allocation_should_fail(void);

#endif
