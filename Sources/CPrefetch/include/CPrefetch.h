#ifndef C_PREFETCH_H
#define C_PREFETCH_H

// A hint to the processor that `address` will be read soon, for the image comparison: Swift has
// no prefetch of its own. Inlined into the Swift that calls it; it never faults, wherever it
// points.
static inline void snapshot_testing_prefetch(const void *address) {
  __builtin_prefetch(address, 0, 3);
}

#endif
