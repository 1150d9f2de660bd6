//! Damaging a file on purpose, for the tests of what a reader refuses.

use std::path::Path;

/// Changes one bit of the byte of the file at `path` that `at` picks from its length.
pub fn flip_byte(path: &Path, at: impl Fn(usize) -> usize) {
    let mut bytes = std::fs::read(path).unwrap();
    let at = at(bytes.len());
    bytes[at] ^= 0x40;
    std::fs::write(path, bytes).unwrap();
}
