#ifndef CLIBPNG_ROW_FILTERS_H
#define CLIBPNG_ROW_FILTERS_H

// PNG's row filters (None, Sub, Up, Average, Paeth) and the ways of choosing one for each row.
// Plain C over packed scanlines; neither libpng nor a compressor is called here.

#include <stddef.h>
#include <stdint.h>

/// How each row's filter is chosen. The first five use one filter for every row; the others pick
/// per row by a score of the filtered bytes, the smallest winning (ties go to the lower filter).
typedef enum {
  ROW_FILTER_NONE = 0,
  ROW_FILTER_SUB = 1,
  ROW_FILTER_UP = 2,
  ROW_FILTER_AVERAGE = 3,
  ROW_FILTER_PAETH = 4,
  /// The sum of the bytes read as signed (|b| for b < 128, 256 − b above): small residuals win.
  ROW_CHOICE_MINIMUM_SUM = 5,
  /// The Shannon entropy of the row's byte histogram: few distinct, frequent values win.
  ROW_CHOICE_ENTROPY = 6,
  /// The number of distinct pairs of neighbouring bytes: what repeats, LZ77 finds.
  ROW_CHOICE_BIGRAMS = 7,
  ROW_CHOICE_COUNT = 8,
} row_choice;

/// Scratch memory for filtering one image; `row_filters_make` allocates it.
typedef struct {
  size_t row_bytes;
  /// One filtered row for each of the five filters, `row_bytes` each.
  uint8_t *candidates;
  /// A row of zeros: the row above the first.
  uint8_t *zero_row;
  /// One bit for each pair of bytes, for `ROW_CHOICE_BIGRAMS`.
  uint8_t *pair_seen;
} row_filters;

/// Allocates the scratch for rows of `row_bytes` bytes. Returns 0 when memory runs out (nothing
/// is then left allocated), else 1; `row_filters_free` must then be called.
int row_filters_make(size_t row_bytes, row_filters *filters);

void row_filters_free(row_filters *filters);

/// Writes `row_count` rows of `row_bytes` bytes, from `first_row` on, of the image at `rows`
/// (packed scanlines, one after the other) into `output` as PNG's filtered image data: for each
/// row a filter type byte, then the row filtered against the row above it in the image.
/// `bytes_per_pixel` is that of the colour type and depth, at least 1. O(`row_count` ×
/// `row_bytes`), five times that for the choices that score each filter.
void row_filters_apply(
    row_filters *filters, row_choice choice, const uint8_t *rows, uint32_t first_row,
    uint32_t row_count, size_t bytes_per_pixel, uint8_t *output);

#endif
