//! The message a rank sends after solving its part of a level: the positions it solved and
//! their values.

use integer_encoding::VarInt;

/// Appends `(indices[i], values[i])` to `out`: each index as its gap from the previous one
/// (the first from 0), a LEB128 varint, then the value byte. `indices` must increase.
/// A level's positions are spread evenly over a rank's blocks, so most gaps take one byte.
pub(crate) fn encode(indices: &[u64], values: &[u8], out: &mut Vec<u8>) {
    debug_assert_eq!(indices.len(), values.len());
    let mut previous = 0;
    let mut varint = [0u8; 10];
    for (&index, &value) in indices.iter().zip(values) {
        let len = (index - previous).encode_var(&mut varint);
        out.extend_from_slice(&varint[..len]);
        out.push(value);
        previous = index;
    }
}

/// Calls `record(index, value)` for each pair of a message [`encode`] wrote.
///
/// # Errors
/// A description of the damage if `bytes` is not such a message.
pub(crate) fn decode(mut bytes: &[u8], mut record: impl FnMut(u64, u8)) -> Result<(), String> {
    let mut index = 0u64;
    while !bytes.is_empty() {
        let (gap, len) = u64::decode_var(bytes).ok_or("a gap that is not a varint")?;
        let &value = bytes.get(len).ok_or("a gap without its value")?;
        index = index.checked_add(gap).ok_or("an index beyond 64 bits")?;
        record(index, value);
        bytes = &bytes[len + 1..];
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_decodes_to_what_was_encoded() {
        let indices = [0, 1, 127, 128, 300, 1 << 20, (1 << 40) + 3];
        let values = [0, 255, 7, 0x80, 1, 2, 3];
        let mut message = Vec::new();
        encode(&indices, &values, &mut message);
        let mut seen = Vec::new();
        decode(&message, |i, v| seen.push((i, v))).unwrap();
        assert_eq!(seen, indices.iter().copied().zip(values).collect::<Vec<_>>());
        assert!(decode(&message[..message.len() - 1], |_, _| ()).is_err());
    }
}
