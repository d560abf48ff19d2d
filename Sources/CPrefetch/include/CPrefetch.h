#ifndef STACKCAST_CPREFETCH_H
#define STACKCAST_CPREFETCH_H

/// Asks the CPU to bring the cache line holding `address` into its caches, for reading, without
/// waiting for it. A hint only: it never faults, so an address whose memory has since been freed
/// is harmless. Swift has no spelling for it; this header gives it one.
static inline void stackcast_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
