#ifndef DIRECT_LIBPNG_H
#define DIRECT_LIBPNG_H
#include <stddef.h>
#include <stdint.h>

/// Encodes RGBA8 at zlib level 2, no filter, default strategy (how ImageSnapshotTesting wrote
/// references before it looked for the smallest file). Returns the encoded size, or 0 on failure;
/// the buffer is freed before returning.
size_t direct_encode_rgba(const uint8_t *rgba, uint32_t width, uint32_t height);

/// Encodes RGBA8 with a zlib level (0-9), a mask of PNG_FILTER_* values and a zlib strategy; a
/// negative value keeps libpng's default (level 6; adaptive filtering and the filtered strategy
/// for RGBA). Returns the encoded size, or 0 on failure. When `output` is not NULL it receives the
/// `malloc`ed bytes, which the caller frees.
size_t direct_encode_rgba_with(
    const uint8_t *rgba, uint32_t width, uint32_t height, int level, int filters, int strategy,
    uint8_t **output);

/// Decodes a PNG into `rgba` (width * height * 4 bytes) with the same transformations as
/// ImageSnapshotTesting. Returns 1 on success.
int direct_decode_rgba(const uint8_t *data, size_t size, uint8_t *rgba, size_t capacity);
#endif
