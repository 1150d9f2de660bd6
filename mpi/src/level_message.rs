//! The message a rank sends after solving its part of a level: the positions it solved, with
//! their values and marks (what the tier's file stores of each).

use integer_encoding::VarInt;

/// Appends `(indices[i], solved[i])` to `out`: each index as its gap from the previous one
/// (the first from 0), a LEB128 varint, then the value byte and the mark byte. `indices` must
/// increase. A level's positions are spread evenly over a rank's blocks, so most gaps take
/// one byte.
pub(crate) fn encode(indices: &[u64], solved: &[[u8; 2]], out: &mut Vec<u8>) {
    debug_assert_eq!(indices.len(), solved.len());
    let mut previous = 0;
    let mut varint = [0u8; 10];
    for (&index, value_and_mark) in indices.iter().zip(solved) {
        let len = (index - previous).encode_var(&mut varint);
        out.extend_from_slice(&varint[..len]);
        out.extend_from_slice(value_and_mark);
        previous = index;
    }
}

/// Calls `record(index, value, mark)` for each position of a message [`encode`] wrote.
///
/// # Errors
/// A description of the damage if `bytes` is not such a message.
pub(crate) fn decode(mut bytes: &[u8], mut record: impl FnMut(u64, u8, u8)) -> Result<(), String> {
    let mut index = 0u64;
    while !bytes.is_empty() {
        let (gap, len) = u64::decode_var(bytes).ok_or("a gap that is not a varint")?;
        let value_and_mark = bytes.get(len..len + 2).ok_or("a gap without its value and mark")?;
        index = index.checked_add(gap).ok_or("an index beyond 64 bits")?;
        record(index, value_and_mark[0], value_and_mark[1]);
        bytes = &bytes[len + 2..];
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_decodes_to_what_was_encoded() {
        let indices = [0, 1, 127, 128, 300, 1 << 20, (1 << 40) + 3];
        let solved = [[0, 255], [255, 0], [7, 3], [0x80, 255], [1, 1], [2, 0], [3, 9]];
        let mut message = Vec::new();
        encode(&indices, &solved, &mut message);
        let mut seen = Vec::new();
        decode(&message, |i, v, m| seen.push((i, [v, m]))).unwrap();
        assert_eq!(seen, indices.iter().copied().zip(solved).collect::<Vec<_>>());
        assert!(decode(&message[..message.len() - 1], |_, _, _| ()).is_err());
    }
}
