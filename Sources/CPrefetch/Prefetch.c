// The module's only function is inline, in include/CPrefetch.h; SwiftPM wants a source file for
// every C target.
#include "CPrefetch.h"
