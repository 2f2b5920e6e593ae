#ifndef CLIBPNG_H
#define CLIBPNG_H

// A libpng binding that never lets a longjmp escape into Swift.
//
// libpng reports errors by calling longjmp, which would skip Swift's cleanup and corrupt its
// state. Every libpng call therefore happens inside the C functions below: each one sets up
// setjmp and an error callback, and returns a status code with libpng's message instead.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The outcome of a call: `CLIBPNG_OK`, or the kind of failure, with a message in the error.
typedef enum {
  CLIBPNG_OK = 0,
  /// libpng rejected the data; the message holds its reason.
  CLIBPNG_ERROR_LIBPNG = 1,
  /// The header announces an image larger than the caller's limits.
  CLIBPNG_ERROR_TOO_LARGE = 2,
  /// Memory could not be allocated.
  CLIBPNG_ERROR_OUT_OF_MEMORY = 3,
  /// The caller passed a buffer of the wrong size or a call out of order.
  CLIBPNG_ERROR_USAGE = 4,
} clibpng_status;

/// libpng's reason for a failure, NUL-terminated.
typedef struct {
  char message[256];
} clibpng_error;

/// A PNG being decoded from memory. Opaque; create with `clibpng_decoder_create`.
typedef struct clibpng_decoder clibpng_decoder;

/// Starts decoding `size` bytes at `data` (which must stay valid until destroyed) and reads the
/// header. A palette image whose PLTE chunk holds more than 256 colours (or is not a whole number
/// of colours), or whose bit depth is not 1, 2, 4 or 8, is refused with a message that says so. Images wider or taller than `max_side`, or with more than `max_pixels` pixels, are
/// refused with `CLIBPNG_ERROR_TOO_LARGE` before any pixel memory is allocated.
/// `*width` and `*height` are set once the header is read, also when it is too large.
/// On success `*decoder` must be released with `clibpng_decoder_destroy`.
clibpng_status clibpng_decoder_create(
    const uint8_t *data, size_t size, uint32_t max_side, uint64_t max_pixels,
    clibpng_decoder **decoder, uint32_t *width, uint32_t *height, clibpng_error *error);

/// Like `clibpng_decoder_create`, but the pixels are read as 16-bit RGBA at full depth: 16-bit
/// samples as they are, smaller ones widened the way viewers widen them (an 8-bit 0xAB becomes
/// 0xABAB, after 1, 2 and 4-bit gray become 8-bit by the same repetition). `optimize` compares
/// files this way, so that no low byte of a 16-bit file can be lost unnoticed.
clibpng_status clibpng_decoder_create_rgba16(
    const uint8_t *data, size_t size, uint32_t max_side, uint64_t max_pixels,
    clibpng_decoder **decoder, uint32_t *width, uint32_t *height, clibpng_error *error);

/// Decodes every pixel as RGBA with straight alpha into `rgba`, which holds
/// `width * height * 4` bytes (`capacity`); `width * height * 8` bytes of big-endian 16-bit
/// samples for a decoder from `clibpng_decoder_create_rgba16`. Palettes, transparency chunks,
/// gray, 16-bit and interlaced images are all converted; gamma and colour-space chunks are
/// ignored.
clibpng_status clibpng_decoder_read_rgba(
    clibpng_decoder *decoder, uint8_t *rgba, size_t capacity, clibpng_error *error);

/// Releases a decoder; `NULL` is allowed.
void clibpng_decoder_destroy(clibpng_decoder *decoder);

/// Encodes 8-bit RGBA pixels (rows of `width * 4` bytes, no padding) as a PNG.
///
/// The output depends only on the pixels and the settings: no time or text chunk is written.
/// `compression_level` is zlib's (0-9), `filters` a mask of libpng's `PNG_FILTER_*` values.
/// On success `*output` is a `malloc`ed buffer of `*output_size` bytes that the caller frees.
clibpng_status clibpng_encode_rgba(
    const uint8_t *rgba, uint32_t width, uint32_t height, int compression_level, int filters,
    int zlib_strategy, uint8_t **output, size_t *output_size, clibpng_error *error);

/// Encodes 8-bit RGBA pixels (rows of `width * 4` bytes, no padding) as the smallest PNG this
/// shim finds that decodes to exactly the same bytes.
///
/// The colour type is the smallest the pixels allow: gray (1, 2, 4 or 8 bits, with a tRNS colour
/// key when the only transparency is one fully transparent gray that no opaque pixel has), a
/// palette (1, 2, 4 or 8 bits, its translucent entries first so that the tRNS chunk stops after
/// them) when there are at most 256 colours, gray with alpha, RGB (with a colour key) or RGBA;
/// when a palette and another type are both possible, both are tried. For each, the rows are
/// filtered eight ways (each of the five filters on every row, and a per-row choice by the
/// smallest sum of signed bytes, by the smallest entropy and by the fewest distinct byte pairs)
/// and compressed with libdeflate. When every type's filtered data is at most 64 KiB, every way
/// is compressed at level 12 and the smallest kept; above, the ways are ranked at level 8 (the
/// whole data up to 4 MiB, bands of rows making up an eighth of it above) and the best, and the
/// second when within 1%, compressed at level 12 (level 11 above 4 MiB). The winner's rows are
/// also compressed with zlib at level 9 when they are at most 1 MiB (both strategies) or
/// libdeflate shrank them 32 times or more (flat screenshots, where zlib is fast and sometimes
/// smaller); the smaller stream is kept.
///
/// The file is written here, not by libpng: IHDR, PLTE, tRNS, IDAT (one chunk up to 1 GiB) and
/// IEND only, so the output depends only on the pixels and on the versions of libdeflate, zlib
/// and the C library's `log2` (used to rank row filters) it runs with. On
/// success `*output` is a `malloc`ed buffer of `*output_size` bytes that the caller frees.
clibpng_status clibpng_encode_smallest(
    const uint8_t *rgba, uint32_t width, uint32_t height, uint8_t **output, size_t *output_size,
    clibpng_error *error);

/// The smallest PNG libpng and zlib write, as `clibpng_encode_smallest` did before libdeflate:
/// the same colour types, zlib level 9 (memLevel 9), filters off or libpng's adaptive choice,
/// zlib's default or filtered strategy; above 65,536 pixels the choices are ranked on an eighth
/// of the rows first. Kept so that tests and benchmarks can hold the new encoding to it.
clibpng_status clibpng_encode_smallest_libpng(
    const uint8_t *rgba, uint32_t width, uint32_t height, uint8_t **output, size_t *output_size,
    clibpng_error *error);

/// For tests: makes the `count`-th allocation from now of the smallest encoding, on this thread,
/// fail (0: the next one), as if memory had run out; a negative count turns that off. Only one
/// allocation fails, then allocations succeed again.
void clibpng_test_fail_allocation_after(int count);

/// The filter masks accepted by `clibpng_encode_rgba`, mirroring libpng's.
enum {
  CLIBPNG_FILTER_NONE = 0x08,
  CLIBPNG_FILTER_SUB = 0x10,
  CLIBPNG_FILTER_UP = 0x20,
  CLIBPNG_FILTER_AVG = 0x40,
  CLIBPNG_FILTER_PAETH = 0x80,
  CLIBPNG_FILTER_ALL = 0xf8,
};

/// zlib strategies accepted by `clibpng_encode_rgba`, mirroring zlib's.
enum {
  CLIBPNG_ZLIB_DEFAULT_STRATEGY = 0,
  CLIBPNG_ZLIB_FILTERED = 1,
  CLIBPNG_ZLIB_HUFFMAN_ONLY = 2,
  CLIBPNG_ZLIB_RLE = 3,
};

#ifdef __cplusplus
}
#endif

#endif
