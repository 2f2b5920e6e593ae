#include "CZlib.h"

#include <limits.h>
#include <stdlib.h>
#include <zlib.h>

struct czlib_inflater {
  z_stream stream;
};

czlib_inflater *czlib_inflater_open(int window_bits) {
  czlib_inflater *inflater = calloc(1, sizeof *inflater);
  if (inflater == NULL) return NULL;
  if (inflateInit2(&inflater->stream, window_bits) != Z_OK) {
    free(inflater);
    return NULL;
  }
  return inflater;
}

void czlib_inflater_close(czlib_inflater *inflater) {
  if (inflater == NULL) return;
  inflateEnd(&inflater->stream);
  free(inflater);
}

int czlib_inflater_reset(czlib_inflater *inflater) {
  return inflateReset(&inflater->stream) == Z_OK ? 0 : -1;
}

czlib_status czlib_inflate(czlib_inflater *inflater, const uint8_t *input, size_t input_count,
                           uint8_t *output, size_t output_count, size_t *consumed,
                           size_t *produced) {
  z_stream *stream = &inflater->stream;
  // zlib counts in `uInt`: larger spans are given a piece at a time by the caller's loop.
  uInt in = input_count > UINT_MAX ? UINT_MAX : (uInt)input_count;
  uInt out = output_count > UINT_MAX ? UINT_MAX : (uInt)output_count;
  stream->next_in = (Bytef *)input;
  stream->avail_in = in;
  stream->next_out = output;
  stream->avail_out = out;
  int result = inflate(stream, Z_NO_FLUSH);
  *consumed = in - stream->avail_in;
  *produced = out - stream->avail_out;
  stream->next_in = NULL;
  stream->next_out = NULL;
  switch (result) {
  case Z_OK: return CZLIB_PROGRESS;
  case Z_STREAM_END: return CZLIB_END;
  case Z_BUF_ERROR: return CZLIB_NEEDS_INPUT;
  case Z_NEED_DICT: return CZLIB_NEEDS_DICTIONARY;
  case Z_MEM_ERROR: return CZLIB_OUT_OF_MEMORY;
  default: return CZLIB_DATA_ERROR;
  }
}

const char *czlib_message(const czlib_inflater *inflater) { return inflater->stream.msg; }
