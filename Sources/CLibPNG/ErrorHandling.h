#ifndef CLIBPNG_ERROR_HANDLING_H
#define CLIBPNG_ERROR_HANDLING_H

// Shared by the decoder and the writer; not part of the module's interface.

#include "CLibPNG.h"

#include <png.h>

/// Where libpng's message lands. Each libpng struct's error pointer points at one of these, and
/// it is the first member of the state that owns the struct.
typedef struct {
  char message[256];
} message_buffer;

/// libpng's error callback: copies the message into the error pointer's `message_buffer` and
/// jumps back to the setjmp of the C function that made the call. Never returns.
void clibpng_record_error(png_structp png, png_const_charp message);

/// libpng's warning callback. Warnings (a damaged ancillary chunk, an unknown profile) do not stop
/// decoding and are not shown.
void clibpng_ignore_warning(png_structp png, png_const_charp message);

/// Copies `message` into `error` (when not NULL), truncating it to fit.
void clibpng_copy_message(clibpng_error *error, const char *message);

#endif
