#include "RowFilters.h"
#include "Allocation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int row_filters_make(size_t row_bytes, row_filters *filters) {
  memset(filters, 0, sizeof *filters);
  filters->row_bytes = row_bytes;
  if (row_bytes > SIZE_MAX / 5) return 0;
  filters->candidates = clibpng_allocate(row_bytes * 5);
  filters->zero_row = filters->candidates ? clibpng_allocate(row_bytes) : NULL;
  filters->pair_seen = filters->zero_row ? clibpng_allocate(65536 / 8) : NULL;
  if (filters->pair_seen == NULL) {
    row_filters_free(filters);
    return 0;
  }
  memset(filters->zero_row, 0, row_bytes);
  return 1;
}

void row_filters_free(row_filters *filters) {
  free(filters->candidates);
  free(filters->zero_row);
  free(filters->pair_seen);
  memset(filters, 0, sizeof *filters);
}

static uint8_t paeth_predictor(int left, int above, int above_left) {
  int estimate = left + above - above_left;
  int to_left = abs(estimate - left);
  int to_above = abs(estimate - above);
  int to_above_left = abs(estimate - above_left);
  if (to_left <= to_above && to_left <= to_above_left) return (uint8_t)left;
  if (to_above <= to_above_left) return (uint8_t)above;
  return (uint8_t)above_left;
}

/// Filters `row` (whose row above is `above`) with `type` into `output`, `count` bytes.
static void filter_row(
    int type, const uint8_t *row, const uint8_t *above, size_t count, size_t bpp,
    uint8_t *output) {
  size_t lead = bpp < count ? bpp : count;
  switch (type) {
    case ROW_FILTER_NONE:
      memcpy(output, row, count);
      break;
    case ROW_FILTER_SUB:
      memcpy(output, row, lead);
      for (size_t i = bpp; i < count; i++) output[i] = (uint8_t)(row[i] - row[i - bpp]);
      break;
    case ROW_FILTER_UP:
      for (size_t i = 0; i < count; i++) output[i] = (uint8_t)(row[i] - above[i]);
      break;
    case ROW_FILTER_AVERAGE:
      for (size_t i = 0; i < lead; i++) output[i] = (uint8_t)(row[i] - (above[i] >> 1));
      for (size_t i = bpp; i < count; i++) {
        output[i] = (uint8_t)(row[i] - ((row[i - bpp] + above[i]) >> 1));
      }
      break;
    default:
      // Paeth: with no pixel to the left, the predictor is the byte above.
      for (size_t i = 0; i < lead; i++) output[i] = (uint8_t)(row[i] - above[i]);
      for (size_t i = bpp; i < count; i++) {
        output[i] = (uint8_t)(row[i] - paeth_predictor(row[i - bpp], above[i], above[i - bpp]));
      }
      break;
  }
}

static uint64_t minimum_sum_score(const uint8_t *bytes, size_t count) {
  uint64_t sum = 0;
  for (size_t i = 0; i < count; i++) sum += bytes[i] < 128 ? bytes[i] : 256 - bytes[i];
  return sum;
}

/// The row's entropy in bits (its histogram's), scaled to an integer so that scores compare
/// exactly and the choice does not depend on how floating point rounds a tie.
static uint64_t entropy_score(const uint8_t *bytes, size_t count) {
  uint32_t histogram[256];
  memset(histogram, 0, sizeof histogram);
  for (size_t i = 0; i < count; i++) histogram[bytes[i]]++;
  // count × H = count × log2(count) − Σ c × log2(c).
  double bits = count > 0 ? (double)count * log2((double)count) : 0;
  for (int value = 0; value < 256; value++) {
    uint32_t c = histogram[value];
    if (c > 1) bits -= (double)c * log2((double)c);
  }
  return (uint64_t)llround(bits * 1024);
}

static uint64_t bigram_score(uint8_t *pair_seen, const uint8_t *bytes, size_t count) {
  memset(pair_seen, 0, 65536 / 8);
  uint64_t distinct = 0;
  for (size_t i = 1; i < count; i++) {
    unsigned pair = (unsigned)bytes[i - 1] << 8 | bytes[i];
    uint8_t bit = (uint8_t)(1u << (pair & 7));
    if ((pair_seen[pair >> 3] & bit) == 0) {
      pair_seen[pair >> 3] |= bit;
      distinct++;
    }
  }
  return distinct;
}

void row_filters_apply(
    row_filters *filters, row_choice choice, const uint8_t *rows, uint32_t first_row,
    uint32_t row_count, size_t bytes_per_pixel, uint8_t *output) {
  size_t count = filters->row_bytes;
  const uint8_t *above = first_row > 0 ? rows + count * (first_row - 1) : filters->zero_row;
  for (uint32_t y = 0; y < row_count; y++) {
    const uint8_t *row = rows + count * (first_row + y);
    uint8_t *line = output + (count + 1) * y;
    if (choice < ROW_CHOICE_MINIMUM_SUM) {
      line[0] = (uint8_t)choice;
      filter_row((int)choice, row, above, count, bytes_per_pixel, line + 1);
    } else {
      int best = 0;
      uint64_t best_score = UINT64_MAX;
      for (int type = 0; type < 5; type++) {
        uint8_t *candidate = filters->candidates + count * (size_t)type;
        filter_row(type, row, above, count, bytes_per_pixel, candidate);
        uint64_t score = choice == ROW_CHOICE_MINIMUM_SUM ? minimum_sum_score(candidate, count)
                         : choice == ROW_CHOICE_ENTROPY
                             ? entropy_score(candidate, count)
                             : bigram_score(filters->pair_seen, candidate, count);
        if (score < best_score) {
          best_score = score;
          best = type;
        }
      }
      line[0] = (uint8_t)best;
      memcpy(line + 1, filters->candidates + count * (size_t)best, count);
    }
    above = row;
  }
}
