// Encoding through libpng's writer into memory, at fixed settings or searching for the smallest
// file zlib gives (the encoding before SmallestPNG.c's, kept so that tests and benchmarks can
// compare).
// Every libpng call is made under the setjmp of the function that makes it.

#include "CLibPNG.h"
#include "ErrorHandling.h"
#include "PixelReduction.h"

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// MARK: Writing one PNG

/// A trial that would not be the smallest: it was stopped once it reached the best size so far.
#define TRIAL_NOT_SMALLER 100

/// Where libpng writes: a growing buffer that gives up at `limit` bytes.
typedef struct {
  // First, so that libpng's error pointer can be the sink itself.
  message_buffer error;
  uint8_t *bytes;
  size_t size;
  size_t capacity;
  size_t limit;
  int reached_limit;
} memory_sink;

static void write_to_memory(png_structp png, png_bytep source, size_t length) {
  memory_sink *sink = (memory_sink *)png_get_io_ptr(png);
  if (length >= sink->limit - sink->size) {
    // Not an error: the trial cannot win, so it stops here instead of compressing the rest.
    sink->reached_limit = 1;
    png_error(png, "the trial is not smaller");
  }
  if (length > sink->capacity - sink->size) {
    size_t capacity = sink->capacity;
    while (length > capacity - sink->size) {
      capacity = capacity < 4096 ? 4096 : capacity * 2;
    }
    uint8_t *bytes = realloc(sink->bytes, capacity);
    if (bytes == NULL) {
      png_error(png, "out of memory");
    }
    sink->bytes = bytes;
    sink->capacity = capacity;
  }
  memcpy(sink->bytes + sink->size, source, length);
  sink->size += length;
}

static void flush_nothing(png_structp png) { (void)png; }

/// zlib and filter settings of one encoding.
typedef struct {
  int level;
  /// zlib's memLevel, or 0 for libpng's default (8).
  int memory_level;
  int strategy;
  /// A mask of `CLIBPNG_FILTER_*` values.
  int filters;
  /// Whether the pixel data goes into one IDAT chunk (up to 1 MiB) rather than 8 KiB ones.
  int large_chunks;
} encoding_settings;

/// Writes `image` as a PNG into `sink`, which starts empty. Returns `CLIBPNG_OK` with the bytes
/// in `sink->bytes` (the caller frees them), `TRIAL_NOT_SMALLER` once the output reaches
/// `sink->limit` bytes, or an error; on anything but `CLIBPNG_OK` the sink holds nothing.
/// `rows` points at the `height` rows to write, one sample a byte.
static int write_image_rows(
    const reduced_image *image, uint32_t width, uint32_t height, png_bytep *rows,
    encoding_settings settings, memory_sink *sink, clibpng_error *error) {
  png_structp png = png_create_write_struct(
      PNG_LIBPNG_VER_STRING, &sink->error, clibpng_record_error, clibpng_ignore_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (png == NULL || info == NULL) {
    png_destroy_write_struct(&png, &info);
    clibpng_copy_message(error, "out of memory");
    return CLIBPNG_ERROR_OUT_OF_MEMORY;
  }
  if (setjmp(png_jmpbuf(png))) {
    int status = sink->reached_limit ? TRIAL_NOT_SMALLER : CLIBPNG_ERROR_LIBPNG;
    if (status != TRIAL_NOT_SMALLER) {
      clibpng_copy_message(error, sink->error.message);
    }
    png_destroy_write_struct(&png, &info);
    free(sink->bytes);
    sink->bytes = NULL;
    sink->size = 0;
    return status;
  }
  png_set_write_fn(png, sink, write_to_memory, flush_nothing);
  png_set_IHDR(
      png, info, width, height, image->bit_depth, image->colour_type, PNG_INTERLACE_NONE,
      PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (image->colour_type == REDUCTION_PALETTE) {
    png_color colours[REDUCTION_MAX_PALETTE];
    png_byte alphas[REDUCTION_MAX_PALETTE];
    for (int index = 0; index < image->palette_size; index++) {
      colours[index].red = image->palette[index][0];
      colours[index].green = image->palette[index][1];
      colours[index].blue = image->palette[index][2];
      alphas[index] = image->palette[index][3];
    }
    png_set_PLTE(png, info, colours, image->palette_size);
    if (image->translucent_entries > 0) {
      png_set_tRNS(png, info, alphas, image->translucent_entries, NULL);
    }
  } else if (image->has_colour_key) {
    png_color_16 key;
    memset(&key, 0, sizeof key);
    key.gray = image->key_gray;
    key.red = image->key_rgb[0];
    key.green = image->key_rgb[1];
    key.blue = image->key_rgb[2];
    png_set_tRNS(png, info, NULL, 0, &key);
  }
  png_set_compression_level(png, settings.level);
  if (settings.memory_level > 0) {
    png_set_compression_mem_level(png, settings.memory_level);
  }
  png_set_compression_strategy(png, settings.strategy);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, settings.filters);
  if (settings.large_chunks) {
    // Each IDAT chunk costs 12 bytes; data that compresses to less than 1 MiB takes one.
    size_t packed = ((size_t)width * (size_t)(image->channels * image->bit_depth) + 7) / 8;
    size_t data_size = (packed + 1) * (size_t)height + 1024;
    size_t buffer_size = data_size < 8192 ? 8192 : data_size > (1u << 20) ? (1u << 20) : data_size;
    png_set_compression_buffer_size(png, buffer_size);
  }
  png_write_info(png, info);
  if (image->bit_depth < 8) {
    png_set_packing(png);
  }
  png_write_image(png, rows);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  return CLIBPNG_OK;
}

/// `write_image_rows` for the whole image; `rows` has room for `height` row pointers.
static int write_image(
    const reduced_image *image, uint32_t width, uint32_t height, png_bytep *rows,
    encoding_settings settings, memory_sink *sink, clibpng_error *error) {
  size_t row_bytes = (size_t)width * (size_t)image->channels;
  for (uint32_t y = 0; y < height; y++) {
    rows[y] = (png_bytep)(image->samples + row_bytes * y);
  }
  return write_image_rows(image, width, height, rows, settings, sink, error);
}

static int check_size(uint32_t width, uint32_t height, clibpng_error *error) {
  if (width == 0 || height == 0) {
    clibpng_copy_message(error, "an image must be at least 1×1 pixel");
    return 0;
  }
  if ((uint64_t)width * (uint64_t)height > SIZE_MAX / 4) {
    clibpng_copy_message(error, "the image is too large to encode");
    return 0;
  }
  return 1;
}

// MARK: Fixed settings

clibpng_status clibpng_encode_rgba(
    const uint8_t *rgba, uint32_t width, uint32_t height, int compression_level, int filters,
    int zlib_strategy, uint8_t **output, size_t *output_size, clibpng_error *error) {
  *output = NULL;
  *output_size = 0;
  if (!check_size(width, height, error)) {
    return CLIBPNG_ERROR_USAGE;
  }
  png_bytep *rows = malloc(sizeof(png_bytep) * height);
  if (rows == NULL) {
    clibpng_copy_message(error, "out of memory");
    return CLIBPNG_ERROR_OUT_OF_MEMORY;
  }
  reduced_image image;
  memset(&image, 0, sizeof image);
  image.colour_type = REDUCTION_RGBA;
  image.bit_depth = 8;
  image.channels = 4;
  image.samples = rgba;
  memory_sink sink;
  memset(&sink, 0, sizeof sink);
  sink.limit = SIZE_MAX;
  encoding_settings settings = {compression_level, 0, zlib_strategy, filters, 0};
  int status = write_image(&image, width, height, rows, settings, &sink, error);
  free(rows);
  if (status != CLIBPNG_OK) {
    return (clibpng_status)status;
  }
  *output = sink.bytes;
  *output_size = sink.size;
  return CLIBPNG_OK;
}

// MARK: The smallest file libpng and zlib write (before libdeflate; kept for comparisons)

/// Below this many pixels every trial is cheap, and all of them run on the whole image.
#define SMALL_IMAGE_PIXELS (256 * 256)
/// Close estimates are both tried on the whole image: within this fraction of the best.
#define ESTIMATE_MARGIN 0.03

/// One way to encode: a colour type (an index into the reduced images) and zlib settings.
typedef struct {
  int image;
  int filters;
  int strategy;
  size_t estimate;
} trial;

/// The encoder's state across trials: the reduced images, row pointers, and the smallest file.
typedef struct {
  uint32_t width;
  uint32_t height;
  png_bytep *rows;
  reduced_image images[2];
  int image_count;
  memory_sink best;
} search;

/// Encodes the whole image with `candidate`; keeps the file if it is the smallest so far.
static int run_trial(search *state, trial candidate, clibpng_error *error) {
  memory_sink sink;
  memset(&sink, 0, sizeof sink);
  sink.limit = state->best.size;
  encoding_settings settings = {9, 9, candidate.strategy, candidate.filters, 1};
  int outcome = write_image(
      &state->images[candidate.image], state->width, state->height, state->rows, settings, &sink,
      error);
  if (outcome == TRIAL_NOT_SMALLER) {
    return CLIBPNG_OK;
  }
  if (outcome == CLIBPNG_OK) {
    free(state->best.bytes);
    state->best = sink;
  }
  return outcome;
}

/// The bytes of the IDAT chunks in a PNG file written here, their headers and CRCs included.
static size_t idat_bytes(const uint8_t *png, size_t size) {
  size_t total = 0;
  size_t offset = 8;
  while (size - offset >= 12) {
    size_t length = (size_t)png[offset] << 24 | (size_t)png[offset + 1] << 16 |
                    (size_t)png[offset + 2] << 8 | png[offset + 3];
    if (length > size - offset - 12) break;
    if (memcmp(png + offset + 4, "IDAT", 4) == 0) total += length + 12;
    offset += length + 12;
  }
  return total;
}

/// The size of `candidate` on bands of rows spread over the image, about an eighth of it: a
/// level-9 trial on the whole image costs eight times as much, and the ranking rarely differs.
static int estimate(search *state, trial *candidate, clibpng_error *error) {
  const reduced_image *image = &state->images[candidate->image];
  size_t row_bytes = (size_t)state->width * (size_t)image->channels;
  uint32_t band = state->height / 64;
  band = band < 2 ? 2 : band > 16 ? 16 : band;
  uint32_t count = 0;
  for (uint32_t y = 0; y < state->height; y++) {
    if (y % (band * 8) < band) {
      state->rows[count++] = (png_bytep)(image->samples + row_bytes * y);
    }
  }
  memory_sink sink;
  memset(&sink, 0, sizeof sink);
  sink.limit = SIZE_MAX;
  encoding_settings settings = {9, 9, candidate->strategy, candidate->filters, 1};
  int outcome = write_image_rows(image, state->width, count, state->rows, settings, &sink, error);
  if (outcome == CLIBPNG_OK) {
    // The pixel data scales with the rows; the other chunks (a palette) do not.
    size_t data = idat_bytes(sink.bytes, sink.size);
    candidate->estimate =
        sink.size - data + (size_t)((double)data * state->height / (count == 0 ? 1 : count));
  }
  free(sink.bytes);
  return outcome;
}

static int compare_estimates(const void *left, const void *right) {
  const trial *a = left, *b = right;
  if (a->estimate != b->estimate) return a->estimate < b->estimate ? -1 : 1;
  // Ties keep the order the candidates were listed in, so the choice is deterministic.
  return a->image != b->image ? a->image - b->image : a->filters - b->filters;
}

static int find_smallest(search *state, size_t pixel_count, clibpng_error *error) {
  int status = CLIBPNG_OK;
  if (pixel_count <= SMALL_IMAGE_PIXELS) {
    // Every colour type with filters off and adaptive, each under zlib's default and filtered
    // strategies: 4 trials a type.
    for (int image = 0; image < state->image_count && status == CLIBPNG_OK; image++) {
      const trial trials[] = {
          {image, CLIBPNG_FILTER_NONE, CLIBPNG_ZLIB_DEFAULT_STRATEGY, 0},
          {image, CLIBPNG_FILTER_NONE, CLIBPNG_ZLIB_FILTERED, 0},
          {image, CLIBPNG_FILTER_ALL, CLIBPNG_ZLIB_DEFAULT_STRATEGY, 0},
          {image, CLIBPNG_FILTER_ALL, CLIBPNG_ZLIB_FILTERED, 0},
      };
      for (int index = 0; index < 4 && status == CLIBPNG_OK; index++) {
        status = run_trial(state, trials[index], error);
      }
    }
    return status;
  }
  // Larger images: estimate each colour type with filters off (zlib's default strategy, which
  // suits unfiltered rows) and adaptive (the filtered strategy, which suits filtered ones), then
  // encode the best and any within the margin.
  trial candidates[4];
  int count = 0;
  for (int image = 0; image < state->image_count; image++) {
    candidates[count++] = (trial){image, CLIBPNG_FILTER_NONE, CLIBPNG_ZLIB_DEFAULT_STRATEGY, 0};
    candidates[count++] = (trial){image, CLIBPNG_FILTER_ALL, CLIBPNG_ZLIB_FILTERED, 0};
  }
  for (int index = 0; index < count && status == CLIBPNG_OK; index++) {
    status = estimate(state, &candidates[index], error);
  }
  if (status != CLIBPNG_OK) return status;
  qsort(candidates, (size_t)count, sizeof candidates[0], compare_estimates);
  double cutoff = (double)candidates[0].estimate * (1 + ESTIMATE_MARGIN);
  for (int index = 0; index < count && status == CLIBPNG_OK; index++) {
    if (index > 0 && (double)candidates[index].estimate > cutoff) break;
    status = run_trial(state, candidates[index], error);
  }
  return status;
}

clibpng_status clibpng_encode_smallest_libpng(
    const uint8_t *rgba, uint32_t width, uint32_t height, uint8_t **output, size_t *output_size,
    clibpng_error *error) {
  *output = NULL;
  *output_size = 0;
  if (!check_size(width, height, error)) {
    return CLIBPNG_ERROR_USAGE;
  }
  size_t pixel_count = (size_t)width * height;
  search state;
  memset(&state, 0, sizeof state);
  state.width = width;
  state.height = height;
  state.best.size = SIZE_MAX;
  pixel_census *census = malloc(sizeof *census);
  state.rows = malloc(sizeof(png_bytep) * height);
  int status = CLIBPNG_OK;
  if (census == NULL || state.rows == NULL) {
    status = CLIBPNG_ERROR_OUT_OF_MEMORY;
  } else {
    pixel_census_take(rgba, pixel_count, census);
    int types[2];
    int type_count = reduction_candidate_types(census, types);
    for (int index = 0; index < type_count && status == CLIBPNG_OK; index++) {
      if (!reduced_image_make(rgba, pixel_count, census, types[index], &state.images[index])) {
        status = CLIBPNG_ERROR_OUT_OF_MEMORY;
      }
      state.image_count = index + 1;
    }
  }
  if (status == CLIBPNG_ERROR_OUT_OF_MEMORY) {
    clibpng_copy_message(error, "out of memory");
  } else {
    status = find_smallest(&state, pixel_count, error);
  }
  for (int index = 0; index < state.image_count; index++) {
    reduced_image_free(&state.images[index]);
  }
  free(census);
  free(state.rows);
  if (status != CLIBPNG_OK) {
    free(state.best.bytes);
    return (clibpng_status)status;
  }
  *output = state.best.bytes;
  *output_size = state.best.size;
  return CLIBPNG_OK;
}
