//! Where a solver's transposition table and busy marks get their memory: by default fresh
//! zeroed pages of this process (`memory::ZeroedMemory`); given a [`TableMemory`], memory
//! lent from outside, such as an MPI window that every rank on a node maps, so that the
//! ranks' searches share one table as threads do.

use crate::memory::ZeroedMemory;
use crate::peer_region::PeerRegion;

/// A lender of zeroed memory for a solver's tables (see [`crate::search::Solver::new_in`]).
///
/// A lender is asked once for every region the solver needs, in the same order and with the
/// same sizes on every process that builds the same solver, so a lender whose regions are
/// shared between processes may allocate them collectively.
pub trait TableMemory: Send + Sync {
    /// At least `bytes` (non-zero) zeroed bytes, aligned to 64, valid and not moved for as
    /// long as the returned [`LentMemory`] lives. Other processes may read and write them
    /// (atomically, as the tables do) at the same time.
    fn lend(&self, bytes: usize) -> LentMemory;
}

/// A region a [`TableMemory`] lent: its start, and whatever keeps it alive.
pub struct LentMemory {
    start: *mut u8,
    _owner: Box<dyn Send + Sync>,
    peers: Option<Box<dyn PeerRegion>>,
}

impl LentMemory {
    /// The region of `start`, valid while `owner` lives.
    ///
    /// # Safety
    /// `start` must point to zeroed (at creation), writable memory, aligned to 64 and as large
    /// as the lender was asked for, that stays mapped while `owner` lives and that nothing but
    /// the solvers it is lent to writes.
    pub unsafe fn new(start: *mut u8, owner: Box<dyn Send + Sync>) -> LentMemory {
        debug_assert_eq!(start.align_offset(64), 0, "lent memory is aligned to 64");
        LentMemory { start, _owner: owner, peers: None }
    }

    /// This region, whose copies on the other nodes of a cluster `peers` reaches: a table in
    /// it keeps the entries of the boards another node owns there.
    pub fn with_peers(self, peers: Box<dyn PeerRegion>) -> LentMemory {
        LentMemory { peers: Some(peers), ..self }
    }
}

// SAFETY: the region is plain memory the tables only touch atomically; its owner is Send and
// Sync.
unsafe impl Send for LentMemory {}
unsafe impl Sync for LentMemory {}

/// A table's memory: its own or lent.
pub(crate) enum Memory {
    Own(ZeroedMemory),
    Lent(LentMemory),
}

impl Memory {
    /// `bytes` zeroed bytes aligned to 64, from `lender` when there is one.
    pub fn zeroed(bytes: usize, lender: Option<&dyn TableMemory>) -> Memory {
        match lender {
            Some(lender) => Memory::Lent(lender.lend(bytes)),
            None => Memory::Own(ZeroedMemory::new(bytes)),
        }
    }

    /// Gives this process's own memory back to the system (see [`ZeroedMemory::release`]);
    /// lent memory is its lender's to keep.
    pub fn release(&self) {
        if let Memory::Own(memory) = self {
            memory.release();
        }
    }

    /// The region's copies on the other nodes of a cluster, if it has any.
    pub fn peers(&self) -> Option<&dyn PeerRegion> {
        match self {
            Memory::Lent(LentMemory { peers: Some(peers), .. }) => Some(peers.as_ref()),
            _ => None,
        }
    }

    /// The start of the region.
    #[inline]
    pub fn as_ptr(&self) -> *mut u8 {
        match self {
            Memory::Own(memory) => memory.as_ptr(),
            Memory::Lent(lent) => lent.start,
        }
    }
}
