#include "PixelReduction.h"

#include <stdlib.h>
#include <string.h>

static uint32_t pack(const uint8_t *pixel) {
  return (uint32_t)pixel[0] << 24 | (uint32_t)pixel[1] << 16 | (uint32_t)pixel[2] << 8 | pixel[3];
}

static size_t slot_for(uint32_t colour) {
  return (size_t)((colour * 0x9E3779B1u) >> 22) & (REDUCTION_SLOTS - 1);
}

/// The entry of `colour` in the census, adding it while there is room; -1 when the set is full
/// and the colour is new.
static int find_or_add(pixel_census *census, uint32_t colour) {
  size_t slot = slot_for(colour);
  while (census->slot_entries[slot] >= 0) {
    if (census->slot_colours[slot] == colour) {
      return census->slot_entries[slot];
    }
    slot = (slot + 1) & (REDUCTION_SLOTS - 1);
  }
  if (census->colour_count >= REDUCTION_MAX_PALETTE) {
    census->colour_count = REDUCTION_MAX_PALETTE + 1;
    return -1;
  }
  int entry = census->colour_count++;
  census->colours[entry] = colour;
  census->slot_colours[slot] = colour;
  census->slot_entries[slot] = (int16_t)entry;
  return entry;
}

static int lookup(const pixel_census *census, uint32_t colour) {
  size_t slot = slot_for(colour);
  while (census->slot_entries[slot] >= 0) {
    if (census->slot_colours[slot] == colour) {
      return census->slot_entries[slot];
    }
    slot = (slot + 1) & (REDUCTION_SLOTS - 1);
  }
  return -1;
}

void pixel_census_take(const uint8_t *rgba, size_t pixel_count, pixel_census *census) {
  memset(census, 0, sizeof *census);
  memset(census->slot_entries, 0xff, sizeof census->slot_entries);
  int opaque = 1, gray = 1, key_possible = 1, has_transparent = 0;
  uint8_t key[3] = {0, 0, 0};
  uint8_t gray_seen[256] = {0};
  uint32_t previous = 0;
  for (size_t index = 0; index < pixel_count; index++) {
    const uint8_t *pixel = rgba + index * 4;
    uint32_t colour = pack(pixel);
    // Screenshots are mostly runs of one colour: a pixel like its left neighbour adds nothing.
    if (index > 0 && colour == previous) {
      continue;
    }
    previous = colour;
    uint8_t alpha = pixel[3];
    if (alpha != 255) {
      opaque = 0;
      if (alpha != 0) {
        key_possible = 0;
      } else if (!has_transparent) {
        has_transparent = 1;
        memcpy(key, pixel, 3);
      } else if (memcmp(key, pixel, 3) != 0) {
        key_possible = 0;
      }
    }
    if (pixel[0] != pixel[1] || pixel[1] != pixel[2]) {
      gray = 0;
    } else {
      gray_seen[pixel[0]] = 1;
    }
    if (census->colour_count <= REDUCTION_MAX_PALETTE) {
      (void)find_or_add(census, colour);
    }
  }

  int colour_key = !opaque && key_possible && has_transparent;
  if (colour_key) {
    // The key must not also be the colour of an opaque pixel, which would turn transparent.
    uint32_t opaque_key = (uint32_t)key[0] << 24 | (uint32_t)key[1] << 16 | (uint32_t)key[2] << 8 | 255;
    if (census->colour_count <= REDUCTION_MAX_PALETTE) {
      colour_key = lookup(census, opaque_key) < 0;
    } else {
      for (size_t index = 0; index < pixel_count && colour_key; index++) {
        colour_key = pack(rgba + index * 4) != opaque_key;
      }
    }
  }
  census->is_opaque = opaque;
  census->is_gray = gray;
  census->has_colour_key = colour_key;
  memcpy(census->key, key, 3);
  census->gray_depth = 0;
  if (gray) {
    // A depth-d sample widens to 8 bits as a multiple of 255 / (2^d - 1).
    int fits1 = 1, fits2 = 1, fits4 = 1;
    for (int value = 0; value < 256; value++) {
      if (!gray_seen[value]) continue;
      fits1 &= value == 0 || value == 255;
      fits2 &= value % 85 == 0;
      fits4 &= value % 17 == 0;
    }
    census->gray_depth = fits1 ? 1 : fits2 ? 2 : fits4 ? 4 : 8;
  }
}

/// The colour types worth trying for pixels with this census, best guess first; returns how many.
int reduction_candidate_types(const pixel_census *census, int types[2]) {
  int count = 0;
  int palette = census->colour_count <= REDUCTION_MAX_PALETTE;
  int palette_depth = palette ? reduction_palette_depth(census->colour_count) : 8;
  int plain_gray = census->is_gray && (census->is_opaque || census->has_colour_key);
  // Gray at the palette's depth or less is never larger: same bits a pixel, no PLTE chunk.
  if (plain_gray && (!palette || census->gray_depth <= palette_depth)) {
    types[count++] = REDUCTION_GRAY;
    return count;
  }
  if (palette) types[count++] = REDUCTION_PALETTE;
  if (plain_gray) {
    types[count++] = REDUCTION_GRAY;
  } else if (census->is_gray) {
    types[count++] = REDUCTION_GRAY_ALPHA;
  } else if (census->is_opaque || census->has_colour_key) {
    types[count++] = REDUCTION_RGB;
  } else {
    types[count++] = REDUCTION_RGBA;
  }
  return count;
}

int reduction_palette_depth(int count) {
  return count <= 2 ? 1 : count <= 4 ? 2 : count <= 16 ? 4 : 8;
}

/// Palette order: translucent entries first (the tRNS chunk then stops after them), each group by
/// value. Sorting by value makes the palette a function of the set of colours alone.
static int compare_entries(const void *left, const void *right) {
  uint32_t a = *(const uint32_t *)left, b = *(const uint32_t *)right;
  int a_opaque = (a & 0xff) == 0xff, b_opaque = (b & 0xff) == 0xff;
  if (a_opaque != b_opaque) return a_opaque - b_opaque;
  return a < b ? -1 : a > b;
}

static int make_palette(
    const uint8_t *rgba, size_t pixel_count, const pixel_census *census, reduced_image *image) {
  int count = census->colour_count;
  uint32_t sorted[REDUCTION_MAX_PALETTE];
  memcpy(sorted, census->colours, sizeof(uint32_t) * (size_t)count);
  qsort(sorted, (size_t)count, sizeof(uint32_t), compare_entries);
  // The census's entry of each colour → its palette index.
  uint8_t index_of_entry[REDUCTION_MAX_PALETTE];
  image->translucent_entries = 0;
  for (int index = 0; index < count; index++) {
    uint32_t colour = sorted[index];
    image->palette[index][0] = (uint8_t)(colour >> 24);
    image->palette[index][1] = (uint8_t)(colour >> 16);
    image->palette[index][2] = (uint8_t)(colour >> 8);
    image->palette[index][3] = (uint8_t)colour;
    if ((colour & 0xff) != 0xff) image->translucent_entries++;
    index_of_entry[lookup(census, colour)] = (uint8_t)index;
  }
  image->palette_size = count;
  uint8_t *samples = malloc(pixel_count);
  if (samples == NULL) return 0;
  uint32_t previous = 0;
  uint8_t previous_index = 0;
  for (size_t index = 0; index < pixel_count; index++) {
    uint32_t colour = pack(rgba + index * 4);
    if (index == 0 || colour != previous) {
      previous = colour;
      previous_index = index_of_entry[lookup(census, colour)];
    }
    samples[index] = previous_index;
  }
  image->owned_samples = samples;
  image->samples = samples;
  return 1;
}

int reduced_image_make(
    const uint8_t *rgba, size_t pixel_count, const pixel_census *census, int colour_type,
    reduced_image *image) {
  memset(image, 0, sizeof *image);
  image->colour_type = colour_type;
  image->bit_depth = 8;
  switch (colour_type) {
  case REDUCTION_PALETTE:
    image->channels = 1;
    image->bit_depth = reduction_palette_depth(census->colour_count);
    return make_palette(rgba, pixel_count, census, image);
  case REDUCTION_RGBA:
    image->channels = 4;
    image->samples = rgba;
    return 1;
  default:
    break;
  }
  int gray = colour_type == REDUCTION_GRAY || colour_type == REDUCTION_GRAY_ALPHA;
  image->channels = colour_type == REDUCTION_GRAY ? 1 : colour_type == REDUCTION_GRAY_ALPHA ? 2 : 3;
  if (colour_type == REDUCTION_GRAY) image->bit_depth = census->gray_depth;
  // 255 / (2^depth - 1): 255, 85, 17 or 1.
  int scale = 255 / ((1 << image->bit_depth) - 1);
  if (colour_type != REDUCTION_GRAY_ALPHA && census->has_colour_key) {
    image->has_colour_key = 1;
    image->key_gray = (uint16_t)(census->key[0] / scale);
    for (int channel = 0; channel < 3; channel++) image->key_rgb[channel] = census->key[channel];
  }
  uint8_t *samples = malloc(pixel_count * (size_t)image->channels);
  if (samples == NULL) return 0;
  uint8_t *out = samples;
  for (size_t index = 0; index < pixel_count; index++) {
    const uint8_t *pixel = rgba + index * 4;
    if (gray) {
      *out++ = (uint8_t)(pixel[0] / scale);
      if (colour_type == REDUCTION_GRAY_ALPHA) *out++ = pixel[3];
    } else {
      *out++ = pixel[0];
      *out++ = pixel[1];
      *out++ = pixel[2];
    }
  }
  image->owned_samples = samples;
  image->samples = samples;
  return 1;
}

void reduced_image_free(reduced_image *image) {
  free(image->owned_samples);
  image->owned_samples = NULL;
  image->samples = NULL;
}
