#include "CExpat.h"

#include <expat.h>
#include <limits.h>

cexpat_verdict cexpat_check(const uint8_t *bytes, size_t count) {
  cexpat_verdict verdict = {0, XML_ERROR_NO_MEMORY, 0, 0, -1, "out of memory"};
  if (count > INT_MAX) {
    verdict.message = "too long";
    return verdict;
  }
  // An explicit encoding overrides the declaration's: the package reads only UTF-8.
  XML_Parser parser = XML_ParserCreate("UTF-8");
  if (parser == NULL) return verdict;
  if (XML_Parse(parser, (const char *)bytes, (int)count, 1) == XML_STATUS_OK) {
    verdict.well_formed = 1;
    verdict.code = 0;
    verdict.message = "";
  } else {
    enum XML_Error code = XML_GetErrorCode(parser);
    verdict.code = (int)code;
    verdict.line = (unsigned long)XML_GetCurrentLineNumber(parser);
    verdict.column = (unsigned long)XML_GetCurrentColumnNumber(parser) + 1;
    verdict.byte_index = (long)XML_GetCurrentByteIndex(parser);
    verdict.message = XML_ErrorString(code);
  }
  XML_ParserFree(parser);
  return verdict;
}
