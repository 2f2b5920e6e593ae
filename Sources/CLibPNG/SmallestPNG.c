// The smallest encoding: the pixels in each colour type they fit, their rows filtered in several
// ways, compressed by libdeflate, and the smallest written as IHDR, [PLTE], [tRNS], IDAT, IEND.
// libpng is not called: the chunks are written here, their CRCs by zlib's crc32.
// It holds about three times the filtered data at once (the filtered rows and two streams, in
// buffers of libdeflate_zlib_compress_bound). Every allocation goes through clibpng_allocate, so
// tests can fail each in turn, and the search's buffers are freed in one place, search_free, on
// every path.

#include "Allocation.h"
#include "CLibPNG.h"
#include "ErrorHandling.h"
#include "PixelReduction.h"
#include "RowFilters.h"

#include <libdeflate.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/// Filtered data up to this size is compressed at libdeflate's strongest level (12) for every
/// choice of filters, and the smallest kept: at most a few milliseconds each.
#define SMALL_DATA_BYTES ((size_t)64 << 10)
/// Larger data ranks the choices at `RANKING_LEVEL`, a few times faster than level 12 on the
/// flat colours of screenshots (where libdeflate's strongest levels are slowest), whole up to
/// `WHOLE_RANKING_BYTES` and on bands of rows (about an eighth of the image) above; the best is
/// then compressed at `final_level`, and the next too when its estimate is within
/// `RANKING_MARGIN` of the best.
#define RANKING_LEVEL 8
#define WHOLE_RANKING_BYTES ((size_t)4 << 20)
#define RANKING_MARGIN 0.01
/// Level 12 costs about twice level 11 for 1–2% less; above this size the encoding would take
/// longer than oxipng's at its level 2, so level 11 is used.
#define LEVEL_12_LIMIT ((size_t)4 << 20)
/// On very repetitive data (flat screenshots) libdeflate's blocks can cost more than zlib's: the
/// winner is then also compressed with zlib at level 9, which is fast there, and the smaller kept.
/// That is when libdeflate shrank it at least `ZLIB_RATIO` times, or when it is at most
/// `SMALL_DATA_BYTES` × 16.
#define ZLIB_RATIO 32
/// The most bytes an IDAT chunk holds here; any larger stream is split.
#define IDAT_CHUNK_LIMIT ((size_t)1 << 30)

/// One colour type's rows as PNG stores them: packed below 8 bits, one row after the other.
typedef struct {
  const reduced_image *image;
  const uint8_t *rows;
  uint8_t *owned_rows;
  size_t row_bytes;
  size_t bytes_per_pixel;
  /// The bytes of every chunk but IDAT: signature, IHDR, PLTE, tRNS, IEND.
  size_t other_chunks;
} packed_image;

static size_t other_chunk_bytes(const reduced_image *image) {
  size_t size = 8 + 25 + 12;
  if (image->colour_type == REDUCTION_PALETTE) {
    size += 12 + 3 * (size_t)image->palette_size;
    if (image->translucent_entries > 0) size += 12 + (size_t)image->translucent_entries;
  } else if (image->has_colour_key) {
    size += 12 + (image->colour_type == REDUCTION_GRAY ? 2 : 6);
  }
  return size;
}

/// Packs `image`'s samples into rows. Returns 0 when memory runs out (nothing is then owned).
static int pack_image(
    const reduced_image *image, uint32_t width, uint32_t height, packed_image *packed) {
  memset(packed, 0, sizeof *packed);
  packed->image = image;
  packed->other_chunks = other_chunk_bytes(image);
  size_t bits = (size_t)image->channels * (size_t)image->bit_depth;
  packed->row_bytes = ((size_t)width * bits + 7) / 8;
  packed->bytes_per_pixel = bits < 8 ? 1 : bits / 8;
  if (image->bit_depth == 8) {
    packed->rows = image->samples;
    return 1;
  }
  // Below 8 bits there is one channel (gray or palette); samples go in from the high bits.
  uint8_t *rows = clibpng_allocate(packed->row_bytes * height);
  if (rows == NULL) return 0;
  int depth = image->bit_depth;
  for (uint32_t y = 0; y < height; y++) {
    const uint8_t *samples = image->samples + (size_t)width * y;
    uint8_t *row = rows + packed->row_bytes * y;
    memset(row, 0, packed->row_bytes);
    for (uint32_t x = 0; x < width; x++) {
      size_t bit = (size_t)x * (size_t)depth;
      row[bit / 8] |= (uint8_t)(samples[x] << (8 - depth - (int)(bit % 8)));
    }
  }
  packed->rows = rows;
  packed->owned_rows = rows;
  return 1;
}

// MARK: Writing the file

static void put_u32(uint8_t *at, uint32_t value) {
  at[0] = (uint8_t)(value >> 24);
  at[1] = (uint8_t)(value >> 16);
  at[2] = (uint8_t)(value >> 8);
  at[3] = (uint8_t)value;
}

/// Writes a chunk at `at` (which has room for `length` + 12 bytes); returns the byte after it.
static uint8_t *put_chunk(uint8_t *at, const char type[4], const uint8_t *data, size_t length) {
  put_u32(at, (uint32_t)length);
  memcpy(at + 4, type, 4);
  if (length > 0) memcpy(at + 8, data, length);
  uLong crc = crc32(0L, Z_NULL, 0);
  // zlib's crc32 takes a uInt length: at most 2^30 here (IDAT_CHUNK_LIMIT).
  crc = crc32(crc, at + 4, (uInt)(length + 4));
  put_u32(at + 8 + length, (uint32_t)crc);
  return at + 12 + length;
}

/// The whole file for `packed` with `stream` (a zlib stream) as its pixel data, in a `malloc`ed
/// buffer of `*size` bytes; NULL when memory runs out.
static uint8_t *write_file(
    const packed_image *packed, uint32_t width, uint32_t height, const uint8_t *stream,
    size_t stream_size, size_t *size) {
  const reduced_image *image = packed->image;
  size_t chunks = stream_size / IDAT_CHUNK_LIMIT + (stream_size % IDAT_CHUNK_LIMIT != 0);
  size_t total = packed->other_chunks + 12 * chunks + stream_size;
  uint8_t *file = clibpng_allocate(total);
  if (file == NULL) return NULL;
  static const uint8_t signature[8] = {137, 'P', 'N', 'G', '\r', '\n', 26, '\n'};
  memcpy(file, signature, 8);
  uint8_t header[13];
  put_u32(header, width);
  put_u32(header + 4, height);
  header[8] = (uint8_t)image->bit_depth;
  header[9] = (uint8_t)image->colour_type;
  // Compression, filter method 0 (adaptive, five types) and no interlacing.
  header[10] = 0;
  header[11] = 0;
  header[12] = 0;
  uint8_t *at = put_chunk(file + 8, "IHDR", header, 13);
  if (image->colour_type == REDUCTION_PALETTE) {
    uint8_t colours[3 * REDUCTION_MAX_PALETTE];
    uint8_t alphas[REDUCTION_MAX_PALETTE];
    for (int index = 0; index < image->palette_size; index++) {
      memcpy(colours + 3 * index, image->palette[index], 3);
      alphas[index] = image->palette[index][3];
    }
    at = put_chunk(at, "PLTE", colours, 3 * (size_t)image->palette_size);
    if (image->translucent_entries > 0) {
      at = put_chunk(at, "tRNS", alphas, (size_t)image->translucent_entries);
    }
  } else if (image->has_colour_key) {
    uint8_t key[6];
    if (image->colour_type == REDUCTION_GRAY) {
      key[0] = (uint8_t)(image->key_gray >> 8);
      key[1] = (uint8_t)image->key_gray;
      at = put_chunk(at, "tRNS", key, 2);
    } else {
      for (int channel = 0; channel < 3; channel++) {
        key[2 * channel] = (uint8_t)(image->key_rgb[channel] >> 8);
        key[2 * channel + 1] = (uint8_t)image->key_rgb[channel];
      }
      at = put_chunk(at, "tRNS", key, 6);
    }
  }
  for (size_t offset = 0; offset < stream_size; offset += IDAT_CHUNK_LIMIT) {
    size_t length = stream_size - offset < IDAT_CHUNK_LIMIT ? stream_size - offset
                                                             : IDAT_CHUNK_LIMIT;
    at = put_chunk(at, "IDAT", stream + offset, length);
  }
  at = put_chunk(at, "IEND", NULL, 0);
  *size = (size_t)(at - file);
  return file;
}

// MARK: The search

/// One way to encode: a packed colour type and a choice of row filters, with its size.
typedef struct {
  int image;
  row_choice choice;
  size_t size;
} trial;

static int compare_trials(const void *left, const void *right) {
  const trial *a = left, *b = right;
  if (a->size != b->size) return a->size < b->size ? -1 : 1;
  // Ties keep the order the candidates were listed in, so the choice is deterministic.
  if (a->image != b->image) return a->image - b->image;
  return (int)a->choice - (int)b->choice;
}

/// Everything the search allocates, freed in one place.
typedef struct {
  uint32_t width;
  uint32_t height;
  reduced_image images[2];
  int image_count;
  packed_image packed[2];
  int packed_count;
  row_filters filters[2];
  int filters_count;
  uint8_t *filtered;
  uint8_t *stream;
  uint8_t *best_stream;
  size_t stream_capacity;
  struct libdeflate_compressor *final_compressor;
  struct libdeflate_compressor *ranking_compressor;
} search;

static void search_free(search *state) {
  for (int index = 0; index < state->filters_count; index++) {
    row_filters_free(&state->filters[index]);
  }
  for (int index = 0; index < state->packed_count; index++) {
    free(state->packed[index].owned_rows);
  }
  for (int index = 0; index < state->image_count; index++) {
    reduced_image_free(&state->images[index]);
  }
  free(state->filtered);
  free(state->stream);
  free(state->best_stream);
  libdeflate_free_compressor(state->final_compressor);
  libdeflate_free_compressor(state->ranking_compressor);
}

static struct libdeflate_compressor *make_compressor(int level) {
  if (clibpng_allocation_should_fail()) return NULL;
  return libdeflate_alloc_compressor(level);
}

static int final_level(size_t data_size) { return data_size <= LEVEL_12_LIMIT ? 12 : 11; }

static size_t data_size(const search *state, int image) {
  return (state->packed[image].row_bytes + 1) * state->height;
}

/// Filters the rows of `candidate` into `state->filtered` and compresses them into
/// `state->stream` with `compressor`; returns the stream's size (0 never happens: the bound is
/// room enough).
static size_t compress_trial(
    search *state, trial candidate, struct libdeflate_compressor *compressor) {
  packed_image *packed = &state->packed[candidate.image];
  row_filters_apply(
      &state->filters[candidate.image], candidate.choice, packed->rows, 0, state->height,
      packed->bytes_per_pixel, state->filtered);
  return libdeflate_zlib_compress(
      compressor, state->filtered, data_size(state, candidate.image), state->stream,
      state->stream_capacity);
}

/// The size of the file `candidate` would give, estimated from bands of rows spread over the
/// image (16 or fewer rows in every 8 bands' worth) compressed at the ranking level.
static size_t estimate_trial(search *state, trial candidate) {
  packed_image *packed = &state->packed[candidate.image];
  uint32_t band = state->height / 64;
  band = band < 2 ? 2 : band > 16 ? 16 : band;
  uint32_t sampled = 0;
  for (uint32_t y = 0; y < state->height; y += band * 8) {
    uint32_t rows = state->height - y < band ? state->height - y : band;
    row_filters_apply(
        &state->filters[candidate.image], candidate.choice, packed->rows, y, rows,
        packed->bytes_per_pixel, state->filtered + (packed->row_bytes + 1) * sampled);
    sampled += rows;
  }
  size_t size = libdeflate_zlib_compress(
      state->ranking_compressor, state->filtered, (packed->row_bytes + 1) * sampled,
      state->stream, state->stream_capacity);
  return packed->other_chunks + (size_t)((double)size * state->height / sampled);
}

static void keep_stream(search *state, size_t *best_size, size_t size) {
  uint8_t *swap = state->best_stream;
  state->best_stream = state->stream;
  state->stream = swap;
  *best_size = size;
}

/// Compresses `candidate` whole; keeps its stream when it is smaller than `*winner`'s.
static int final_trial(
    search *state, trial candidate, struct libdeflate_compressor *compressor, trial *winner,
    size_t *best_size, clibpng_error *error) {
  size_t size = compress_trial(state, candidate, compressor);
  if (size == 0) {
    clibpng_copy_message(error, "the compressor had no room for the pixel data");
    return 0;
  }
  candidate.size = state->packed[candidate.image].other_chunks + size;
  if (compare_trials(&candidate, winner) < 0) {
    *winner = candidate;
    keep_stream(state, best_size, size);
  }
  return 1;
}

static voidpf zlib_allocate(voidpf opaque, uInt items, uInt size) {
  (void)opaque;
  if (size != 0 && items > SIZE_MAX / size) return Z_NULL;
  return clibpng_allocate((size_t)items * size);
}

static void zlib_free(voidpf opaque, voidpf address) {
  (void)opaque;
  free(address);
}

/// Compresses `state->filtered`, `winner`'s filtered rows, with zlib at level 9 (memLevel 9) and
/// `strategy`, and keeps the stream if it is smaller than `*best_size`. Returns 0 when memory runs
/// out.
static int try_zlib(search *state, trial winner, int strategy, size_t *best_size) {
  z_stream stream;
  memset(&stream, 0, sizeof stream);
  stream.zalloc = zlib_allocate;
  stream.zfree = zlib_free;
  if (deflateInit2(&stream, 9, Z_DEFLATED, 15, 9, strategy) != Z_OK) return 0;
  size_t input = data_size(state, winner.image);
  size_t room = *best_size - 1;
  const size_t step = (size_t)1 << 30;
  uint8_t *next_in = state->filtered;
  stream.next_out = state->stream;
  int result = Z_OK;
  // zlib counts in uInt: the data goes in, and the room out, at most a GiB at a time.
  while (result == Z_OK) {
    if (stream.avail_in == 0 && input > 0) {
      stream.next_in = next_in;
      stream.avail_in = (uInt)(input < step ? input : step);
      next_in += stream.avail_in;
      input -= stream.avail_in;
    }
    if (stream.avail_out == 0) {
      if (room == 0) break;
      stream.avail_out = (uInt)(room < step ? room : step);
      room -= stream.avail_out;
    }
    result = deflate(&stream, input == 0 ? Z_FINISH : Z_NO_FLUSH);
    if (result == Z_BUF_ERROR) result = Z_OK;
  }
  int finished = result == Z_STREAM_END;
  size_t size = (size_t)stream.total_out;
  deflateEnd(&stream);
  if (finished && size < *best_size) keep_stream(state, best_size, size);
  return 1;
}

/// Finds the smallest file; on success `*output` is the file (the caller frees it).
static clibpng_status find_smallest(
    search *state, uint8_t **output, size_t *output_size, clibpng_error *error) {
  size_t largest_data = 0;
  for (int index = 0; index < state->packed_count; index++) {
    if (data_size(state, index) > largest_data) largest_data = data_size(state, index);
  }
  int ranked = largest_data > SMALL_DATA_BYTES;
  // Small data: every choice at level 12 with this compressor. Larger: ranking, then a final one.
  state->ranking_compressor = make_compressor(ranked ? RANKING_LEVEL : 12);
  if (state->ranking_compressor == NULL) {
    clibpng_copy_message(error, "out of memory");
    return CLIBPNG_ERROR_OUT_OF_MEMORY;
  }
  state->stream_capacity =
      libdeflate_zlib_compress_bound(state->ranking_compressor, largest_data);
  state->filtered = clibpng_allocate(largest_data);
  state->stream = state->filtered ? clibpng_allocate(state->stream_capacity) : NULL;
  state->best_stream = state->stream ? clibpng_allocate(state->stream_capacity) : NULL;
  if (state->best_stream == NULL) {
    clibpng_copy_message(error, "out of memory");
    return CLIBPNG_ERROR_OUT_OF_MEMORY;
  }

  trial trials[2 * ROW_CHOICE_COUNT];
  int count = 0;
  for (int image = 0; image < state->packed_count; image++) {
    for (int choice = 0; choice < ROW_CHOICE_COUNT; choice++) {
      trials[count++] = (trial){image, (row_choice)choice, 0};
    }
  }
  size_t best_size = 0;
  trial winner = {0, ROW_FILTER_NONE, SIZE_MAX};
  if (!ranked) {
    for (int index = 0; index < count; index++) {
      if (!final_trial(
              state, trials[index], state->ranking_compressor, &winner, &best_size, error)) {
        return CLIBPNG_ERROR_USAGE;
      }
    }
  } else {
    int whole = largest_data <= WHOLE_RANKING_BYTES;
    for (int index = 0; index < count; index++) {
      if (whole) {
        size_t size = compress_trial(state, trials[index], state->ranking_compressor);
        trials[index].size = state->packed[trials[index].image].other_chunks + size;
      } else {
        trials[index].size = estimate_trial(state, trials[index]);
      }
    }
    qsort(trials, (size_t)count, sizeof trials[0], compare_trials);
    state->final_compressor = make_compressor(final_level(data_size(state, trials[0].image)));
    if (state->final_compressor == NULL) {
      clibpng_copy_message(error, "out of memory");
      return CLIBPNG_ERROR_OUT_OF_MEMORY;
    }
    if (libdeflate_zlib_compress_bound(state->final_compressor, largest_data) >
        state->stream_capacity) {
      clibpng_copy_message(error, "the compressor had no room for the pixel data");
      return CLIBPNG_ERROR_USAGE;
    }
    double cutoff = (double)trials[0].size * (1 + RANKING_MARGIN);
    for (int index = 0; index < 2 && index < count; index++) {
      if (index > 0 && (double)trials[index].size > cutoff) break;
      if (!final_trial(state, trials[index], state->final_compressor, &winner, &best_size, error)) {
        return CLIBPNG_ERROR_USAGE;
      }
    }
  }
  size_t winner_data = data_size(state, winner.image);
  int small = winner_data <= SMALL_DATA_BYTES * 16;
  if (best_size <= winner_data / ZLIB_RATIO || small) {
    packed_image *packed = &state->packed[winner.image];
    row_filters_apply(
        &state->filters[winner.image], winner.choice, packed->rows, 0, state->height,
        packed->bytes_per_pixel, state->filtered);
    // Both of zlib's strategies when the data is small; else the one libpng would use.
    int filtered = winner.choice != ROW_FILTER_NONE;
    static const int strategies[2] = {Z_DEFAULT_STRATEGY, Z_FILTERED};
    for (int index = 0; index < 2; index++) {
      int strategy = strategies[index];
      if (!small && strategy != (filtered ? Z_FILTERED : Z_DEFAULT_STRATEGY)) continue;
      if (!try_zlib(state, winner, strategy, &best_size)) {
        clibpng_copy_message(error, "out of memory");
        return CLIBPNG_ERROR_OUT_OF_MEMORY;
      }
    }
  }
  uint8_t *file = write_file(
      &state->packed[winner.image], state->width, state->height, state->best_stream, best_size,
      output_size);
  if (file == NULL) {
    clibpng_copy_message(error, "out of memory");
    return CLIBPNG_ERROR_OUT_OF_MEMORY;
  }
  *output = file;
  return CLIBPNG_OK;
}

clibpng_status clibpng_encode_smallest(
    const uint8_t *rgba, uint32_t width, uint32_t height, uint8_t **output, size_t *output_size,
    clibpng_error *error) {
  *output = NULL;
  *output_size = 0;
  if (width == 0 || height == 0) {
    clibpng_copy_message(error, "an image must be at least 1×1 pixel");
    return CLIBPNG_ERROR_USAGE;
  }
  if ((uint64_t)width * (uint64_t)height > SIZE_MAX / 8) {
    clibpng_copy_message(error, "the image is too large to encode");
    return CLIBPNG_ERROR_USAGE;
  }
  size_t pixel_count = (size_t)width * height;
  search state;
  memset(&state, 0, sizeof state);
  state.width = width;
  state.height = height;
  clibpng_status status = CLIBPNG_OK;
  pixel_census *census = clibpng_allocate(sizeof *census);
  if (census == NULL) {
    status = CLIBPNG_ERROR_OUT_OF_MEMORY;
  } else {
    pixel_census_take(rgba, pixel_count, census);
    int types[2];
    int type_count = reduction_candidate_types(census, types);
    for (int index = 0; index < type_count && status == CLIBPNG_OK; index++) {
      if (clibpng_allocation_should_fail() ||
          !reduced_image_make(rgba, pixel_count, census, types[index], &state.images[index])) {
        status = CLIBPNG_ERROR_OUT_OF_MEMORY;
        break;
      }
      state.image_count = index + 1;
      if (!pack_image(&state.images[index], width, height, &state.packed[index])) {
        status = CLIBPNG_ERROR_OUT_OF_MEMORY;
        break;
      }
      state.packed_count = index + 1;
      if (!row_filters_make(state.packed[index].row_bytes, &state.filters[index])) {
        status = CLIBPNG_ERROR_OUT_OF_MEMORY;
        break;
      }
      state.filters_count = index + 1;
    }
    free(census);
  }
  if (status == CLIBPNG_ERROR_OUT_OF_MEMORY) {
    clibpng_copy_message(error, "out of memory");
  } else {
    status = find_smallest(&state, output, output_size, error);
  }
  search_free(&state);
  return status;
}
