// hiredis, the C client of Redis (Debian's libhiredis-dev), for the Redis session store.
// Debian installs it under /usr/include/hiredis; no pkg-config flags are needed.
#ifndef CHIREDIS_SHIM_H
#define CHIREDIS_SHIM_H

#include <hiredis/hiredis.h>

#endif
