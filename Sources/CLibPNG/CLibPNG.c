#include "CLibPNG.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

// Every libpng error lands in `record_error`, which copies libpng's message and jumps back to the
// setjmp of the C function that made the call. Nothing here returns to Swift through a longjmp.

typedef struct {
  char message[256];
} message_buffer;

static void record_error(png_structp png, png_const_charp message) {
  message_buffer *buffer = (message_buffer *)png_get_error_ptr(png);
  if (buffer != NULL) {
    snprintf(buffer->message, sizeof buffer->message, "%s", message ? message : "unknown error");
  }
  png_longjmp(png, 1);
}

// Warnings (a damaged ancillary chunk, an unknown profile) do not stop decoding and are not shown.
static void ignore_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;
}

static void copy_message(clibpng_error *error, const char *message) {
  if (error != NULL) {
    snprintf(error->message, sizeof error->message, "%s", message);
  }
}

// MARK: Decoding

struct clibpng_decoder {
  // First, so that libpng's error pointer can be the decoder itself.
  message_buffer error;
  png_structp png;
  png_infop info;
  const uint8_t *data;
  size_t size;
  size_t offset;
  uint32_t width;
  uint32_t height;
  png_bytep *rows;
  int has_read_pixels;
};

static void read_from_memory(png_structp png, png_bytep destination, size_t length) {
  clibpng_decoder *decoder = (clibpng_decoder *)png_get_io_ptr(png);
  if (length > decoder->size - decoder->offset) {
    png_error(png, "the data ends early (truncated file)");
  }
  memcpy(destination, decoder->data + decoder->offset, length);
  decoder->offset += length;
}

clibpng_status clibpng_decoder_create(
    const uint8_t *data, size_t size, uint32_t max_side, uint64_t max_pixels,
    clibpng_decoder **result, uint32_t *width, uint32_t *height, clibpng_error *error) {
  *result = NULL;
  if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
    copy_message(error, "the PNG signature is missing");
    return CLIBPNG_ERROR_LIBPNG;
  }
  clibpng_decoder *decoder = calloc(1, sizeof *decoder);
  if (decoder == NULL) {
    copy_message(error, "out of memory");
    return CLIBPNG_ERROR_OUT_OF_MEMORY;
  }
  decoder->data = data;
  decoder->size = size;
  decoder->png = png_create_read_struct(
      PNG_LIBPNG_VER_STRING, &decoder->error, record_error, ignore_warning);
  if (decoder->png == NULL) {
    free(decoder);
    copy_message(error, "libpng could not start (out of memory or a version mismatch)");
    return CLIBPNG_ERROR_OUT_OF_MEMORY;
  }
  decoder->info = png_create_info_struct(decoder->png);
  if (decoder->info == NULL) {
    clibpng_decoder_destroy(decoder);
    copy_message(error, "out of memory");
    return CLIBPNG_ERROR_OUT_OF_MEMORY;
  }
  if (setjmp(png_jmpbuf(decoder->png))) {
    copy_message(error, decoder->error.message);
    clibpng_decoder_destroy(decoder);
    return CLIBPNG_ERROR_LIBPNG;
  }
  png_set_read_fn(decoder->png, decoder, read_from_memory);
  png_read_info(decoder->png, decoder->info);

  // Checked before png_read_update_info, which allocates the row buffers, and before the caller
  // allocates the pixels.
  uint32_t w = png_get_image_width(decoder->png, decoder->info);
  uint32_t h = png_get_image_height(decoder->png, decoder->info);
  *width = w;
  *height = h;
  if (w > max_side || h > max_side || (uint64_t)w * (uint64_t)h > max_pixels) {
    copy_message(error, "the image is larger than the limits");
    clibpng_decoder_destroy(decoder);
    return CLIBPNG_ERROR_TOO_LARGE;
  }

  int color_type = png_get_color_type(decoder->png, decoder->info);
  int bit_depth = png_get_bit_depth(decoder->png, decoder->info);
  int has_transparency_chunk = png_get_valid(decoder->png, decoder->info, PNG_INFO_tRNS) != 0;
  if (color_type == PNG_COLOR_TYPE_PALETTE) {
    png_set_palette_to_rgb(decoder->png);
  }
  if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) {
    png_set_expand_gray_1_2_4_to_8(decoder->png);
  }
  if (has_transparency_chunk) {
    png_set_tRNS_to_alpha(decoder->png);
  }
  if (bit_depth == 16) {
    // Rounds to the nearest 8-bit value, unlike png_set_strip_16 which keeps the high byte.
    png_set_scale_16(decoder->png);
  }
  if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
    png_set_gray_to_rgb(decoder->png);
  }
  if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_transparency_chunk) {
    png_set_filler(decoder->png, 0xff, PNG_FILLER_AFTER);
  }
  png_set_interlace_handling(decoder->png);
  png_read_update_info(decoder->png, decoder->info);
  if (png_get_rowbytes(decoder->png, decoder->info) != (size_t)w * 4) {
    copy_message(error, "the image could not be converted to 8-bit RGBA");
    clibpng_decoder_destroy(decoder);
    return CLIBPNG_ERROR_LIBPNG;
  }
  decoder->width = w;
  decoder->height = h;
  *result = decoder;
  return CLIBPNG_OK;
}

clibpng_status clibpng_decoder_read_rgba(
    clibpng_decoder *decoder, uint8_t *rgba, size_t capacity, clibpng_error *error) {
  size_t row_bytes = (size_t)decoder->width * 4;
  if (decoder->has_read_pixels || capacity != row_bytes * decoder->height) {
    copy_message(error, "the pixel buffer does not fit the image");
    return CLIBPNG_ERROR_USAGE;
  }
  decoder->has_read_pixels = 1;
  decoder->rows = malloc(sizeof(png_bytep) * (decoder->height == 0 ? 1 : decoder->height));
  if (decoder->rows == NULL) {
    copy_message(error, "out of memory");
    return CLIBPNG_ERROR_OUT_OF_MEMORY;
  }
  for (uint32_t y = 0; y < decoder->height; y++) {
    decoder->rows[y] = rgba + row_bytes * y;
  }
  if (setjmp(png_jmpbuf(decoder->png))) {
    copy_message(error, decoder->error.message);
    return CLIBPNG_ERROR_LIBPNG;
  }
  png_read_image(decoder->png, decoder->rows);
  // Reads up to IEND, so that a file cut after its pixel data is still reported as truncated.
  png_read_end(decoder->png, NULL);
  return CLIBPNG_OK;
}

void clibpng_decoder_destroy(clibpng_decoder *decoder) {
  if (decoder == NULL) {
    return;
  }
  if (decoder->png != NULL) {
    png_destroy_read_struct(&decoder->png, decoder->info ? &decoder->info : NULL, NULL);
  }
  free(decoder->rows);
  free(decoder);
}

// MARK: Encoding

typedef struct {
  // First, so that libpng's error pointer can be the encoder itself.
  message_buffer error;
  uint8_t *bytes;
  size_t size;
  size_t capacity;
  png_bytep *rows;
} encoder;

static void write_to_memory(png_structp png, png_bytep source, size_t length) {
  encoder *output = (encoder *)png_get_io_ptr(png);
  if (length > output->capacity - output->size) {
    size_t capacity = output->capacity;
    while (length > capacity - output->size) {
      capacity = capacity < 4096 ? 4096 : capacity * 2;
    }
    uint8_t *bytes = realloc(output->bytes, capacity);
    if (bytes == NULL) {
      png_error(png, "out of memory");
    }
    output->bytes = bytes;
    output->capacity = capacity;
  }
  memcpy(output->bytes + output->size, source, length);
  output->size += length;
}

static void flush_nothing(png_structp png) { (void)png; }

clibpng_status clibpng_encode_rgba(
    const uint8_t *rgba, uint32_t width, uint32_t height, int compression_level, int filters,
    int zlib_strategy, uint8_t **output, size_t *output_size, clibpng_error *error) {
  *output = NULL;
  *output_size = 0;
  if (width == 0 || height == 0) {
    copy_message(error, "an image must be at least 1×1 pixel");
    return CLIBPNG_ERROR_USAGE;
  }
  encoder *state = calloc(1, sizeof *state);
  if (state == NULL) {
    copy_message(error, "out of memory");
    return CLIBPNG_ERROR_OUT_OF_MEMORY;
  }
  png_structp png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, &state->error, record_error, ignore_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  state->rows = malloc(sizeof(png_bytep) * height);
  if (png == NULL || info == NULL || state->rows == NULL) {
    png_destroy_write_struct(&png, &info);
    free(state->rows);
    free(state);
    copy_message(error, "out of memory");
    return CLIBPNG_ERROR_OUT_OF_MEMORY;
  }
  if (setjmp(png_jmpbuf(png))) {
    copy_message(error, state->error.message);
    png_destroy_write_struct(&png, &info);
    free(state->bytes);
    free(state->rows);
    free(state);
    return CLIBPNG_ERROR_LIBPNG;
  }
  png_set_write_fn(png, state, write_to_memory, flush_nothing);
  png_set_IHDR(
      png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
      PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, compression_level);
  png_set_compression_strategy(png, zlib_strategy);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
  png_write_info(png, info);
  size_t row_bytes = (size_t)width * 4;
  for (uint32_t y = 0; y < height; y++) {
    state->rows[y] = (png_bytep)(rgba + row_bytes * y);
  }
  png_write_image(png, state->rows);
  png_write_end(png, NULL);

  png_destroy_write_struct(&png, &info);
  *output = state->bytes;
  *output_size = state->size;
  free(state->rows);
  free(state);
  return CLIBPNG_OK;
}
