#ifndef STACKCAST_CPREFETCH_H
#define STACKCAST_CPREFETCH_H

/// Asks the CPU to bring the cache line holding `address` into its second-level cache (and those
/// beyond it), for reading, without waiting for it. A hint only: it never faults, so an address
/// whose memory has since been freed is harmless. Swift has no spelling for it; this header gives
/// it one.
///
/// Not into the first level (locality 2, `prefetcht1`): a footprint is asked for a frame before it
/// is read, and brought into the 32 KiB first level as well, its hundred-odd lines would push out
/// the lines of the frame in between, which reads as many.
static inline void stackcast_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 2);
}

#endif
