//! A cache hint: start loading the line of an address the search is about to read.
//!
//! The transposition table and the continuation history are larger than the caches and read at
//! places that hash all over them, so each read waited on memory (a third of chess's search
//! time at `bench`'s 16 MiB). Asking for the line a little earlier (the table's line while the
//! move is made, the history lines of all the moves before they are scored) lets those waits
//! overlap; the values read, and so the search, are the same (docs/speed.md, "Waiting on
//! memory").

/// Asks the processor to load the cache line holding `*value` (a hint; nothing is read).
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let line: *const T = value;
        // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 processor has. A prefetch reads
        // nothing into the program and never faults; here the address is of a live reference.
        // Why it is worth an `unsafe`: docs/speed.md, "Waiting on memory" (`bench` and
        // fixed-node searches with and without it).
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                line.cast::<i8>(),
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
