//! A hint to the processor to bring a cache line in before it is read: for memory-bound loops
//! (transposition-table probes, endgame-table lookups) that know their addresses early.

/// Asks the processor to bring the cache line holding `*ptr` into the cache. No effect on
/// memory or on the program's meaning; a no-op on processors without the instruction here.
#[inline(always)]
pub(crate) fn prefetch<T>(ptr: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint: it never faults, even on an invalid address, and changes
    // nothing the program can observe.
    unsafe {
        std::arch::x86_64::_mm_prefetch(ptr as *const i8, std::arch::x86_64::_MM_HINT_T0)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = ptr;
}
