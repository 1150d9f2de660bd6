//! The same lent region on the other nodes of a cluster: how a table whose memory a
//! [`TableMemory`](crate::table_memory::TableMemory) lent reaches the entries that live on
//! another node (MPI one-sided access in `dakon-mpi`), so that the nodes' tables together
//! are one table.

/// One region as every node of a cluster has it (same size, same use), each node's copy
/// reachable from the others word by word.
///
/// The words are read and replaced atomically with respect to each other and to the owning
/// node's own atomic loads and stores, so an entry of one word is never seen half written.
pub trait PeerRegion: Send + Sync {
    /// The nodes, each holding one copy of the region.
    fn nodes(&self) -> usize;
    /// This process's node, `0..nodes()`.
    fn node(&self) -> usize;
    /// Fills `words` with the words of `node`'s copy from word `offset` on.
    fn read(&self, node: usize, offset: usize, words: &mut [u64]);
    /// Replaces word `offset` of `node`'s copy by `new` if it still is `old` (else leaves it).
    fn replace(&self, node: usize, offset: usize, old: u64, new: u64);
    /// Boards with at least this many seeds keep their table entry on the node that owns them
    /// (the others, many and cheap, keep theirs in the searching node's own copy).
    fn shared_from_seeds(&self) -> u32;
}
