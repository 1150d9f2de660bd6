//! The successors a round asks of other ranks, put in the order of the requests: by owner,
//! then by key, so that each owner's keys are one run without repeats next to each other.
//!
//! A radix sort, least significant digit first: a pass a byte of the keys that is not the same
//! in all of them, then a pass by owner. A round's keys differ in a few bytes only (their
//! tier, and the index's low bytes), so it makes a few linear passes where a comparison sort
//! made about `log2(n)`; this sort was the largest part of a round's work.

/// A successor key asked for, with the move it is the successor of.
pub(crate) type Asked = (u64, u32);

/// `items` sorted by `(owner(item), key)`, in `owners` owners; equal pairs keep their order.
pub(crate) fn by_owner_then_key(mut items: Vec<Asked>, owners: usize, owner: impl Fn(&Asked) -> usize) -> Vec<Asked> {
    let Some(&(first, _)) = items.first() else { return items };
    let varying = items.iter().fold(0u64, |bits, &(key, _)| bits | (key ^ first));
    let mut spare = vec![(0, 0); items.len()];
    for byte in (0..8).filter(|b| (varying >> (8 * b)) & 0xff != 0) {
        stable_pass(&items, &mut spare, 256, |&(key, _)| ((key >> (8 * byte)) & 0xff) as usize);
        std::mem::swap(&mut items, &mut spare);
    }
    // Skipped when every item has one owner, as the foreign successors of 2 ranks have.
    let first_owner = owner(&items[0]);
    if owners > 1 && items.iter().any(|item| owner(item) != first_owner) {
        stable_pass(&items, &mut spare, owners, &owner);
        std::mem::swap(&mut items, &mut spare);
    }
    items
}

/// Copies `from` into `to` ordered by `digit(item)` (below `digits`), keeping the order of equal
/// digits: a counting sort.
fn stable_pass(from: &[Asked], to: &mut [Asked], digits: usize, digit: impl Fn(&Asked) -> usize) {
    let mut starts = vec![0usize; digits];
    for item in from {
        starts[digit(item)] += 1;
    }
    let mut next = 0;
    for start in &mut starts {
        (*start, next) = (next, next + *start);
    }
    for &item in from {
        let at = &mut starts[digit(&item)];
        to[*at] = item;
        *at += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_come_by_owner_then_key_as_a_comparison_sort_puts_them() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut random = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for (len, mask) in [(0, 0), (1, 0xff), (500, 0x7f00_0000_00ff_ffff), (5000, 0x0300_0000_0000_0fff), (300, u64::MAX)] {
            let items: Vec<Asked> = (0..len).map(|m| (random() & mask, m)).collect();
            let owner = |&(key, _): &Asked| (key / 7 % 3) as usize;
            let mut expected = items.clone();
            expected.sort_by_key(|item| (owner(item), item.0, item.1));
            assert_eq!(by_owner_then_key(items.clone(), 3, owner), expected, "{len} keys under {mask:#x}");
            // Every item of one owner (the foreign successors of 2 ranks): by key alone.
            let mut expected = items.clone();
            expected.sort_by_key(|&(key, m)| (key, m));
            assert_eq!(by_owner_then_key(items, 2, |_| 1), expected, "{len} keys of one owner");
        }
    }
}
