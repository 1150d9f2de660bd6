//! The messages of a shared solve (bincode): rank 0's orders to the other ranks, and their
//! reports of each test.

use std::time::Duration;

use bincode::Options;
use serde::{Deserialize, Serialize};

use crate::cluster_region::OneSidedTraffic;

/// What rank 0 tells the other ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Order {
    /// Search test `id` of the driver of the root: "at least `target`?", the bottom test when
    /// `bottom`, within `time` and `nodes` when given.
    Test { id: u64, target: i32, bottom: bool, time: Option<Duration>, nodes: Option<u64> },
    /// Test `id` is answered (or the solve is stopping): stop searching it.
    Stop { id: u64 },
    /// The solve is over: report what is left, say `Done` and return.
    End,
}

/// What a rank tells rank 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Report {
    /// Test `id` ended on this rank: its fail-soft answer (value, move) unless stopped first,
    /// and the nodes the rank visited for it.
    Tested { id: u64, answer: Option<(i32, Option<u8>)>, nodes: u64 },
    /// The rank has ended its search after [`Order::End`], with the one-sided traffic it made
    /// to other nodes' tables: nothing more comes from it.
    Done { one_sided: OneSidedTraffic },
}

/// How every message is written: bincode, fixed-width little-endian integers, one value a
/// message (trailing bytes are refused).
fn codec() -> impl Options {
    bincode::DefaultOptions::new().with_fixint_encoding().with_little_endian().reject_trailing_bytes()
}

/// The bytes of `message`.
pub fn encode<T: Serialize>(message: &T) -> Vec<u8> {
    codec().serialize(message).expect("a message is plain data")
}

/// The message `bytes` hold.
///
/// # Errors
/// What is wrong with `bytes` if [`encode`] did not write them.
pub fn decode<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Result<T, String> {
    codec().deserialize(bytes).map_err(|e| format!("a message that does not decode: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_decode_to_what_was_encoded() {
        for order in [
            Order::Test { id: 3, target: -8, bottom: true, time: None, nodes: None },
            Order::Test { id: 4, target: 12, bottom: false, time: Some(Duration::from_millis(1500)), nodes: Some(77) },
            Order::Stop { id: 9 },
            Order::End,
        ] {
            assert_eq!(decode::<Order>(&encode(&order)), Ok(order));
            assert!(decode::<Order>(&encode(&order)[1..]).is_err());
        }
        for report in [
            Report::Tested { id: 1, answer: None, nodes: 5 },
            Report::Tested { id: 2, answer: Some((-6, Some(3))), nodes: 1 << 40 },
            Report::Done { one_sided: OneSidedTraffic { accesses: 3, bytes: 48 } },
        ] {
            assert_eq!(decode::<Report>(&encode(&report)), Ok(report));
        }
        assert!(decode::<Report>(&[1, 2]).is_err());
    }
}
