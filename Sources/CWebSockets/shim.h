// The parts of libwebsockets 4.1.6 (and of zlib, which its permessage-deflate uses) that Swift
// cannot import on its own.
//
// `static const` values and `static inline` functions in a system-library header are
// compiled by the ClangImporter, so no C target is needed.
#ifndef CWEBSOCKETS_SHIM_H
#define CWEBSOCKETS_SHIM_H

#include <libwebsockets.h>
#include <zlib.h>

// Headroom lws needs in front of every lws_write payload for the frame header.
// LWS_PRE is a function-like macro over a struct, which Swift does not import.
static const size_t CWS_PRE = LWS_PRE;

// A sorted-usec-list timer with a pointer back to its Swift owner. lws hands the timer
// callback only the `lws_sorted_usec_list_t *`, and lws_container_of is a macro.
typedef struct cws_timer {
    lws_sorted_usec_list_t sul;
    void *owner;
} cws_timer_t;

static inline cws_timer_t *cws_timer_from_sul(lws_sorted_usec_list_t *sul) {
    return lws_container_of(sul, cws_timer_t, sul);
}

// zlib's init calls are macros that pass the library version and the stream size; the
// permessage-deflate benchmark and tests use zlib with the parameters lws uses.
static inline int cws_deflate_init(z_streamp stream, int level, int windowBits, int memLevel) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, Z_DEFAULT_STRATEGY);
}

static inline int cws_inflate_init(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

#endif
