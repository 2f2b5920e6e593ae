#ifndef CEXPAT_H
#define CEXPAT_H

// libexpat's verdict on a document, for the XML differential harness (Fuzz/FuzzXML). Only the
// fuzzing build has this target (SNAPSHOT_TESTING_FUZZ); it needs Debian's libexpat1-dev.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Where and why expat found a document not well-formed.
typedef struct {
  /// 1 when expat accepts the whole document, 0 otherwise.
  int well_formed;
  /// expat's `enum XML_Error`, 0 when well-formed.
  int code;
  /// The error's line (from 1) and column (from 1; expat counts characters from 0).
  unsigned long line;
  unsigned long column;
  /// The error's byte offset in the input.
  long byte_index;
  /// expat's description of `code` (a static string).
  const char *message;
} cexpat_verdict;

/// Parses `count` bytes as one complete document, read as UTF-8 whatever the XML declaration
/// says, with expat's defaults otherwise: no namespace processing, internal entities expanded,
/// external entities and parameter entities not read.
cexpat_verdict cexpat_check(const uint8_t *bytes, size_t count);

#ifdef __cplusplus
}
#endif

#endif
