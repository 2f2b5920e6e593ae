#ifndef CLIBPNG_PIXEL_REDUCTION_H
#define CLIBPNG_PIXEL_REDUCTION_H

// Which PNG colour types can hold a set of 8-bit RGBA pixels exactly, and the pixels converted to
// one of them. Plain C over the pixel buffer; libpng is not called here.

#include <stddef.h>
#include <stdint.h>

/// PNG's colour types, as IHDR spells them.
enum {
  REDUCTION_GRAY = 0,
  REDUCTION_RGB = 2,
  REDUCTION_PALETTE = 3,
  REDUCTION_GRAY_ALPHA = 4,
  REDUCTION_RGBA = 6,
};

/// The distinct colours are counted up to this many; one more means "more than a palette holds".
#define REDUCTION_MAX_PALETTE 256
#define REDUCTION_SLOTS 1024

/// What one pass over the pixels found out.
typedef struct {
  /// Every alpha is 255.
  int is_opaque;
  /// Every pixel, transparent ones included, has red = green = blue.
  int is_gray;
  /// Alpha is only ever 0 or 255, every transparent pixel has the same red, green and blue
  /// (`key`), and no opaque pixel has those: a tRNS colour key then gives back every byte.
  int has_colour_key;
  uint8_t key[3];
  /// The number of distinct RGBA values, or `REDUCTION_MAX_PALETTE + 1` when there are more.
  int colour_count;
  /// The distinct values (`0xRRGGBBAA`) in order of first appearance, when there are few enough.
  uint32_t colours[REDUCTION_MAX_PALETTE];
  /// For a gray image, the smallest bit depth (1, 2, 4 or 8) whose samples, widened to 8 bits by
  /// repeating their bits as decoders do, give every gray value; 0 otherwise.
  int gray_depth;
  /// An open-addressing set of the colours: a slot holds an index into `colours`, or -1.
  uint32_t slot_colours[REDUCTION_SLOTS];
  int16_t slot_entries[REDUCTION_SLOTS];
} pixel_census;

/// Looks at every pixel once. O(n); at most a few hash probes for a pixel unlike its left neighbour.
void pixel_census_take(const uint8_t *rgba, size_t pixel_count, pixel_census *census);

/// The smallest bit depth that holds `count` palette indices: 1, 2, 4 or 8.
int reduction_palette_depth(int count);

/// The colour types worth trying for pixels with this census, best guess first, into `types`;
/// returns how many (1 or 2). Gray at the palette's depth or less is never larger than a palette
/// (same bits a pixel, no PLTE chunk), so then only gray is listed.
int reduction_candidate_types(const pixel_census *census, int types[2]);

/// Pixels in one PNG colour type, one sample a byte (libpng packs depths below 8).
typedef struct {
  int colour_type;
  int bit_depth;
  /// Bytes a pixel in `samples`: 1 (gray, palette), 2 (gray and alpha), 3 (RGB) or 4 (RGBA).
  int channels;
  /// `pixel_count * channels` bytes; for RGBA the caller's pixels themselves.
  const uint8_t *samples;
  /// What `reduced_image_free` releases: `samples` unless they are the caller's.
  uint8_t *owned_samples;
  /// Palette entries (red, green, blue, alpha); the translucent ones come first, so that the tRNS
  /// chunk lists just them.
  int palette_size;
  int translucent_entries;
  uint8_t palette[REDUCTION_MAX_PALETTE][4];
  /// For gray and RGB: the transparent colour in the image's sample range.
  int has_colour_key;
  uint16_t key_gray;
  uint16_t key_rgb[3];
} reduced_image;

/// Converts `rgba` to `colour_type` (one the census allows) at the smallest bit depth that holds
/// it. Returns 0 when memory runs out, else 1; `reduced_image_free` must then be called.
int reduced_image_make(
    const uint8_t *rgba, size_t pixel_count, const pixel_census *census, int colour_type,
    reduced_image *image);

void reduced_image_free(reduced_image *image);

#endif
