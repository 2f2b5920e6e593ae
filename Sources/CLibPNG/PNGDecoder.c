// Decoding: libpng's reader from memory, converting every PNG to 8-bit RGBA (or, for the lossless
// check of `optimize`, to 16-bit RGBA). Every libpng call is
// made under the setjmp of the function that makes it.

#include "CLibPNG.h"
#include "ErrorHandling.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  // 4 for 8-bit RGBA, 8 for 16-bit RGBA.
  size_t bytes_per_pixel;
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

static uint32_t read_big_endian(const uint8_t *bytes) {
  return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

// libpng's own messages for a palette it cannot use are terse ("PLTE: invalid", "Invalid color
// type/bit depth combination"). A palette image's header and PLTE chunk are checked here first,
// so that the reason names the palette. Chunks are only walked, never decoded; anything this does
// not recognise is left for libpng to report.
static int check_palette(const uint8_t *data, size_t size, clibpng_error *error) {
  // Signature (8), IHDR's length and type (8), then width, height, depth and colour type.
  if (size < 8 + 8 + 10 || memcmp(data + 12, "IHDR", 4) != 0 || data[25] != PNG_COLOR_TYPE_PALETTE) {
    return 1;
  }
  int depth = data[24];
  if (depth != 1 && depth != 2 && depth != 4 && depth != 8) {
    char message[160];
    snprintf(
        message, sizeof message,
        "a palette image has a bit depth of 1, 2, 4 or 8, but the header says %d", depth);
    clibpng_copy_message(error, message);
    return 0;
  }
  size_t offset = 8;
  while (size - offset >= 8) {
    uint32_t length = read_big_endian(data + offset);
    const uint8_t *type = data + offset + 4;
    if (memcmp(type, "IDAT", 4) == 0 || memcmp(type, "IEND", 4) == 0) {
      return 1;
    }
    if (memcmp(type, "PLTE", 4) == 0 && (length == 0 || length > 3 * 256 || length % 3 != 0)) {
      char message[160];
      if (length % 3 != 0) {
        snprintf(
            message, sizeof message,
            "the palette (PLTE chunk) is %u bytes long, not a whole number of 3-byte colours",
            length);
      } else {
        snprintf(
            message, sizeof message,
            "the palette (PLTE chunk) claims %u colours, but a palette holds 1 to 256", length / 3);
      }
      clibpng_copy_message(error, message);
      return 0;
    }
    // Length, type, data and CRC; a length past the end is left for libpng to call truncated.
    if ((uint64_t)length + 12 > (uint64_t)(size - offset)) {
      return 1;
    }
    offset += (size_t)length + 12;
  }
  return 1;
}

static clibpng_status create_decoder(
    const uint8_t *data, size_t size, uint32_t max_side, uint64_t max_pixels, int sixteen_bits,
    clibpng_decoder **result, uint32_t *width, uint32_t *height, clibpng_error *error);

clibpng_status clibpng_decoder_create(
    const uint8_t *data, size_t size, uint32_t max_side, uint64_t max_pixels,
    clibpng_decoder **result, uint32_t *width, uint32_t *height, clibpng_error *error) {
  return create_decoder(data, size, max_side, max_pixels, 0, result, width, height, error);
}

clibpng_status clibpng_decoder_create_rgba16(
    const uint8_t *data, size_t size, uint32_t max_side, uint64_t max_pixels,
    clibpng_decoder **result, uint32_t *width, uint32_t *height, clibpng_error *error) {
  return create_decoder(data, size, max_side, max_pixels, 1, result, width, height, error);
}

static clibpng_status create_decoder(
    const uint8_t *data, size_t size, uint32_t max_side, uint64_t max_pixels, int sixteen_bits,
    clibpng_decoder **result, uint32_t *width, uint32_t *height, clibpng_error *error) {
  *result = NULL;
  if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
    clibpng_copy_message(error, "the PNG signature is missing");
    return CLIBPNG_ERROR_LIBPNG;
  }
  if (!check_palette(data, size, error)) {
    return CLIBPNG_ERROR_LIBPNG;
  }
  clibpng_decoder *decoder = calloc(1, sizeof *decoder);
  if (decoder == NULL) {
    clibpng_copy_message(error, "out of memory");
    return CLIBPNG_ERROR_OUT_OF_MEMORY;
  }
  decoder->data = data;
  decoder->size = size;
  decoder->png = png_create_read_struct(
      PNG_LIBPNG_VER_STRING, &decoder->error, clibpng_record_error, clibpng_ignore_warning);
  if (decoder->png == NULL) {
    free(decoder);
    clibpng_copy_message(error, "libpng could not start (out of memory or a version mismatch)");
    return CLIBPNG_ERROR_OUT_OF_MEMORY;
  }
  decoder->info = png_create_info_struct(decoder->png);
  if (decoder->info == NULL) {
    clibpng_decoder_destroy(decoder);
    clibpng_copy_message(error, "out of memory");
    return CLIBPNG_ERROR_OUT_OF_MEMORY;
  }
  if (setjmp(png_jmpbuf(decoder->png))) {
    clibpng_copy_message(error, decoder->error.message);
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
    clibpng_copy_message(error, "the image is larger than the limits");
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
  if (sixteen_bits) {
    // Widens 8-bit samples by repeating them (0xAB becomes 0xABAB), as viewers do.
    png_set_expand_16(decoder->png);
  } else if (bit_depth == 16) {
    // Rounds to the nearest 8-bit value, unlike png_set_strip_16 which keeps the high byte.
    png_set_scale_16(decoder->png);
  }
  if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
    png_set_gray_to_rgb(decoder->png);
  }
  if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_transparency_chunk) {
    png_set_filler(decoder->png, sixteen_bits ? 0xffff : 0xff, PNG_FILLER_AFTER);
  }
  png_set_interlace_handling(decoder->png);
  png_read_update_info(decoder->png, decoder->info);
  decoder->bytes_per_pixel = sixteen_bits ? 8 : 4;
  if (png_get_rowbytes(decoder->png, decoder->info) != (size_t)w * decoder->bytes_per_pixel) {
    clibpng_copy_message(
        error, sixteen_bits ? "the image could not be converted to 16-bit RGBA"
                            : "the image could not be converted to 8-bit RGBA");
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
  size_t row_bytes = (size_t)decoder->width * decoder->bytes_per_pixel;
  if (decoder->has_read_pixels || capacity != row_bytes * decoder->height) {
    clibpng_copy_message(error, "the pixel buffer does not fit the image");
    return CLIBPNG_ERROR_USAGE;
  }
  decoder->has_read_pixels = 1;
  decoder->rows = malloc(sizeof(png_bytep) * (decoder->height == 0 ? 1 : decoder->height));
  if (decoder->rows == NULL) {
    clibpng_copy_message(error, "out of memory");
    return CLIBPNG_ERROR_OUT_OF_MEMORY;
  }
  for (uint32_t y = 0; y < decoder->height; y++) {
    decoder->rows[y] = rgba + row_bytes * y;
  }
  if (setjmp(png_jmpbuf(decoder->png))) {
    clibpng_copy_message(error, decoder->error.message);
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
