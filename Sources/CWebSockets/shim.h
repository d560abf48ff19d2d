// The parts of libwebsockets 4.1.6 (and of zlib, which its permessage-deflate uses, of Linux's
// timerfd, which the tick waits on, and of renameat2, which a state folder's checkpoint swaps
// files with) that Swift cannot import on its own.
//
// `static const` values and `static inline` functions in a system-library header are
// compiled by the ClangImporter, so no C target is needed.
#ifndef CWEBSOCKETS_SHIM_H
#define CWEBSOCKETS_SHIM_H

#include <libwebsockets.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>
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

// The leading fields of lws' per-connection permessage-deflate state, the `user` pointer its
// extension callback gets (struct lws_ext_pm_deflate_priv in
// lib/roles/ws/ext/extension-permessage-deflate.h, laid out so from lws 3.2 to 4.3): the server
// gives the deflater pages of its own and lets the output buffer go while a connection is idle.
typedef struct cws_pmd_state {
    z_stream inflater;
    z_stream deflater;
    unsigned char *inflated;
    unsigned char *deflated;
} cws_pmd_state_t;

// A non-blocking monotonic timerfd (`PreciseTimer`); <sys/timerfd.h> is not in Swift's Glibc.
static inline int cws_timerfd_create(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
}

// Arms `fd` to fire once, `nanoseconds` from now, or disarms it when `nanoseconds` is 0 or less.
static inline int cws_timerfd_arm(int fd, long long nanoseconds) {
    struct itimerspec spec = {0};
    if (nanoseconds > 0) {
        spec.it_value.tv_sec = (time_t)(nanoseconds / 1000000000LL);
        spec.it_value.tv_nsec = (long)(nanoseconds % 1000000000LL);
    }
    return timerfd_settime(fd, 0, &spec, NULL);
}

// Swaps the files at `from` and `to` in one atomic step (renameat2 with RENAME_EXCHANGE, 1 << 1),
// failing with ENOENT when either is missing, so a state file another process renamed away is
// never made again. Through syscall(2): glibc declares renameat2 only under _GNU_SOURCE, which a
// module header cannot set.
static inline int cws_rename_exchange(const char *from, const char *to) {
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 1u << 1);
}

#endif
