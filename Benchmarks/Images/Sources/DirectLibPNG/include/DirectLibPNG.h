#ifndef DIRECT_LIBPNG_H
#define DIRECT_LIBPNG_H
#include <stddef.h>
#include <stdint.h>

/// Encodes RGBA8 at zlib level 2, no filter, default strategy (ImageSnapshotTesting's settings).
/// Returns the encoded size, or 0 on failure; the buffer is freed before returning.
size_t direct_encode_rgba(const uint8_t *rgba, uint32_t width, uint32_t height);

/// Decodes a PNG into `rgba` (width * height * 4 bytes) with the same transformations as
/// ImageSnapshotTesting. Returns 1 on success.
int direct_decode_rgba(const uint8_t *data, size_t size, uint8_t *rgba, size_t capacity);
#endif
