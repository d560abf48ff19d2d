// The prefetch hint is inline, in the header; a C target needs one source file.
#include "CPrefetch.h"
