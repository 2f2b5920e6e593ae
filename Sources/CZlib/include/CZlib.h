// zlib's inflate behind a small C interface, so that Swift never lays out a `z_stream`: the
// HTTP module's `ZlibStream` owns one inflater and is its only caller.
#ifndef CZLIB_H
#define CZLIB_H

#include <stddef.h>
#include <stdint.h>

typedef struct czlib_inflater czlib_inflater;

/// What one call of `czlib_inflate` ended with.
typedef enum {
  /// Input was read or output written; call again.
  CZLIB_PROGRESS = 0,
  /// The stream (one gzip member, one zlib stream, raw DEFLATE data) ended.
  CZLIB_END = 1,
  /// Nothing could be done: the input ended inside the stream.
  CZLIB_NEEDS_INPUT = 2,
  /// A zlib stream that needs a preset dictionary.
  CZLIB_NEEDS_DICTIONARY = 3,
  /// Data the format does not allow, or a checksum that does not match (`czlib_message`).
  CZLIB_DATA_ERROR = 4,
  CZLIB_OUT_OF_MEMORY = 5,
} czlib_status;

/// An inflater for `window_bits` as zlib's `inflateInit2` reads it (15 + 16: gzip; 15: zlib;
/// -15: raw DEFLATE), or NULL when zlib cannot make one.
czlib_inflater *czlib_inflater_open(int window_bits);

void czlib_inflater_close(czlib_inflater *inflater);

/// Starts the next stream (a gzip body's next member) with the same format.
int czlib_inflater_reset(czlib_inflater *inflater);

/// Decodes from `input` into `output`, telling how many bytes of each it used.
czlib_status czlib_inflate(czlib_inflater *inflater, const uint8_t *input, size_t input_count,
                           uint8_t *output, size_t output_count, size_t *consumed,
                           size_t *produced);

/// zlib's description of the last error, or NULL.
const char *czlib_message(const czlib_inflater *inflater);

#endif
