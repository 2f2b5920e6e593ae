#include "DirectLibPNG.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint8_t *bytes;
  size_t size, capacity;
} growing;

static void write_bytes(png_structp png, png_bytep data, size_t length) {
  growing *out = png_get_io_ptr(png);
  if (out->size + length > out->capacity) {
    size_t capacity = out->capacity ? out->capacity : 4096;
    while (out->size + length > capacity) capacity *= 2;
    out->bytes = realloc(out->bytes, capacity);
    out->capacity = capacity;
  }
  memcpy(out->bytes + out->size, data, length);
  out->size += length;
}

static void flush_nothing(png_structp png) { (void)png; }

size_t direct_encode_rgba_with(
    const uint8_t *rgba, uint32_t width, uint32_t height, int level, int filters, int strategy,
    uint8_t **output) {
  growing out = {0};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png_create_info_struct(png);
  png_bytep *rows = malloc(sizeof(png_bytep) * height);
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    free(rows);
    free(out.bytes);
    return 0;
  }
  png_set_write_fn(png, &out, write_bytes, flush_nothing);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (level >= 0) png_set_compression_level(png, level);
  if (strategy >= 0) png_set_compression_strategy(png, strategy);
  if (filters >= 0) png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
  png_write_info(png, info);
  for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)rgba + (size_t)y * width * 4;
  png_write_image(png, rows);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  free(rows);
  size_t size = out.size;
  if (output != NULL) {
    *output = out.bytes;
  } else {
    free(out.bytes);
  }
  return size;
}

size_t direct_encode_rgba(const uint8_t *rgba, uint32_t width, uint32_t height) {
  return direct_encode_rgba_with(rgba, width, height, 2, PNG_FILTER_NONE, 0, NULL);
}

typedef struct {
  const uint8_t *data;
  size_t size, offset;
} reader;

static void read_bytes(png_structp png, png_bytep destination, size_t length) {
  reader *in = png_get_io_ptr(png);
  if (length > in->size - in->offset) png_error(png, "truncated");
  memcpy(destination, in->data + in->offset, length);
  in->offset += length;
}

int direct_decode_rgba(const uint8_t *data, size_t size, uint8_t *rgba, size_t capacity) {
  reader in = {data, size, 0};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png_create_info_struct(png);
  png_bytep *rows = NULL;
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    return 0;
  }
  png_set_read_fn(png, &in, read_bytes);
  png_read_info(png, info);
  uint32_t width = png_get_image_width(png, info), height = png_get_image_height(png, info);
  int color_type = png_get_color_type(png, info), depth = png_get_bit_depth(png, info);
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color_type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  int trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  if (trns) png_set_tRNS_to_alpha(png);
  if (depth == 16) png_set_scale_16(png);
  if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA)
    png_set_gray_to_rgb(png);
  if (!(color_type & PNG_COLOR_MASK_ALPHA) && !trns) png_set_filler(png, 0xff, PNG_FILLER_AFTER);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if ((size_t)width * height * 4 != capacity) png_error(png, "size");
  rows = malloc(sizeof(png_bytep) * height);
  for (uint32_t y = 0; y < height; y++) rows[y] = rgba + (size_t)y * width * 4;
  png_read_image(png, rows);
  png_read_end(png, NULL);
  png_destroy_read_struct(&png, &info, NULL);
  free(rows);
  return 1;
}
