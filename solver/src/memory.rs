//! Zeroed memory for the transposition table and the endgame tables, mapped lazily and, on
//! Linux, in huge pages.
//!
//! Both are read at random, so with 4 KiB pages nearly every probe of a large table
//! also misses the processor's address-translation cache (TLB) and waits for a page walk.
//! On Linux the region is mapped anonymously (zeroed, and backed by memory only as it is
//! touched), aligned to 2 MiB and advised for transparent huge pages (`MADV_HUGEPAGE`, which
//! the usual `madvise` setting of `/sys/kernel/mm/transparent_hugepage/enabled` requires), so
//! that a 1 GiB table needs 512 translations instead of 262,144, which shortens a search by
//! about a quarter. The price: the first touch of each 2 MiB page clears all of it, and the
//! kernel may compact memory to find one. Elsewhere the system allocator's zeroed memory
//! serves.
//!
//! The endgame tables are plain byte vectors ([`zeroed_bytes`]): a zeroed allocation above
//! glibc's mmap threshold is a fresh mapping that the advice reaches before its first touch.
//! That threshold starts at 128 KiB but rises with each large free, up to 32 MiB, so later
//! tiers below it may come from the heap: touched pages keep their size there, and freed ones
//! stay resident. Fixing the threshold at 1 MiB made a Kalah build of tiers 0..=18 slower
//! (`docs/benchmarks/race-cmancala.md`, "Tried and dropped").

/// `len` zeroed bytes whose 2 MiB-aligned interior is advised for huge pages (Linux): for
/// large arrays read at random, such as the tiers of an endgame table.
pub(crate) fn zeroed_bytes(len: usize) -> Vec<u8> {
    let mut bytes = vec![0u8; len];
    #[cfg(target_os = "linux")]
    {
        let start = bytes.as_mut_ptr();
        let skip = start.align_offset(HUGE_PAGE).min(len);
        let advised = (len - skip) / HUGE_PAGE * HUGE_PAGE;
        if advised > 0 {
            advise_huge_pages(start.wrapping_add(skip), advised);
        }
    }
    bytes
}

/// Advises the kernel to back `len` bytes from `start` (2 MiB-aligned, inside memory this
/// program mapped and has not touched yet) with huge pages.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, len: usize) {
    // SAFETY: the advice covers part of our own mapping and changes nothing but how it is
    // backed; a kernel without transparent huge pages refuses it, which costs only speed.
    unsafe { libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE) };
}

/// A zeroed, writable region of at least the size asked for, aligned to 64 bytes.
pub(crate) struct ZeroedMemory {
    base: *mut u8,
    /// The start of the usable, aligned part of the region.
    start: *mut u8,
    mapped: usize,
}

// SAFETY: the region is plain memory owned by this value.
unsafe impl Send for ZeroedMemory {}
unsafe impl Sync for ZeroedMemory {}

/// Huge-page size (and alignment of the usable part) on Linux.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

impl ZeroedMemory {
    /// At least `bytes` (non-zero) zeroed bytes, aligned to 64.
    ///
    /// # Panics
    /// Aborts through [`std::alloc::handle_alloc_error`] if the memory cannot be had.
    #[cfg(target_os = "linux")]
    pub fn new(bytes: usize) -> ZeroedMemory {
        let mapped = bytes + HUGE_PAGE;
        // SAFETY: an anonymous private mapping touches no existing memory; the result is
        // checked before use.
        let base = unsafe {
            libc::mmap(std::ptr::null_mut(), mapped, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0)
        };
        if base == libc::MAP_FAILED {
            std::alloc::handle_alloc_error(std::alloc::Layout::from_size_align(bytes, 64).expect("a valid layout"));
        }
        let base = base as *mut u8;
        let start = base.wrapping_add(base.align_offset(HUGE_PAGE));
        advise_huge_pages(start, bytes);
        ZeroedMemory { base, start, mapped }
    }

    /// At least `bytes` (non-zero) zeroed bytes, aligned to 64.
    ///
    /// # Panics
    /// Aborts through [`std::alloc::handle_alloc_error`] if the memory cannot be had.
    #[cfg(not(target_os = "linux"))]
    pub fn new(bytes: usize) -> ZeroedMemory {
        // Allocated with the alignment of `malloc`, which gets zeroed pages lazily from the
        // system (an allocation aligned to 64 would be cleared at once), then aligned inside.
        let mapped = bytes + 64;
        let layout = std::alloc::Layout::from_size_align(mapped, 16).expect("memory size overflows");
        // SAFETY: the layout has a non-zero size; the result is checked before use.
        let base = unsafe { std::alloc::alloc_zeroed(layout) };
        if base.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        ZeroedMemory { base, start: base.wrapping_add(base.align_offset(64)), mapped }
    }

    /// Gives the region's memory back to the system (Linux): it reads as zero again and costs
    /// memory only where it is touched anew. Elsewhere it is kept, still zeroed or not.
    pub fn release(&self) {
        // SAFETY: the advice covers our own private anonymous mapping, which stays mapped; its
        // pages read as zero from then on, a valid state for every user of this memory.
        #[cfg(target_os = "linux")]
        unsafe {
            libc::madvise(self.base as *mut libc::c_void, self.mapped, libc::MADV_DONTNEED);
        }
    }

    /// The start of the region.
    pub fn as_ptr(&self) -> *mut u8 {
        self.start
    }
}

impl Drop for ZeroedMemory {
    fn drop(&mut self) {
        // SAFETY: `base` and `mapped` describe the region `new` obtained.
        #[cfg(target_os = "linux")]
        unsafe {
            libc::munmap(self.base as *mut libc::c_void, self.mapped);
        }
        #[cfg(not(target_os = "linux"))]
        unsafe {
            std::alloc::dealloc(self.base, std::alloc::Layout::from_size_align(self.mapped, 16).expect("a valid layout"));
        }
    }
}
