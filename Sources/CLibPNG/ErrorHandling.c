#include "ErrorHandling.h"

#include <stdio.h>

// Every libpng error lands in `clibpng_record_error`, which copies libpng's message and jumps back
// to the setjmp of the C function that made the call. Nothing returns to Swift through a longjmp.

void clibpng_record_error(png_structp png, png_const_charp message) {
  message_buffer *buffer = (message_buffer *)png_get_error_ptr(png);
  if (buffer != NULL) {
    snprintf(buffer->message, sizeof buffer->message, "%s", message ? message : "unknown error");
  }
  png_longjmp(png, 1);
}

void clibpng_ignore_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;
}

void clibpng_copy_message(clibpng_error *error, const char *message) {
  if (error != NULL) {
    snprintf(error->message, sizeof error->message, "%s", message);
  }
}
