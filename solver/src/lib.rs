//! # dakon-solver: the game of Dakon, solved exactly (and Kalah)
//!
//! This crate holds the rules of Dakon (the Javanese two-row mancala), its position notation,
//! the bit-packed encoders, and the generic machinery that solves it; and a second rule set
//! on the same board, Kalah, which the same machinery solves unchanged.
//!
//! ## The rules, in brief
//!
//! - **Board.** Two rows of `n` holes (1 to 9; 7 on the standard board) and two stores.
//!   Player 0 sits at the bottom and owns holes `n..2n` (numbered left to right) and store
//!   S0 at the right end; player 1 sits at the top and owns holes `0..n` and store S1 at the
//!   left end. Hole `i` faces hole `i + n`. At the start each hole holds `s` seeds (`s = n`
//!   traditionally) and the stores are empty. This engine allows up to 255 seeds in all.
//!
//!   ```text
//!             0    1    2    3    4    5    6         <- player 1
//!   [S1]                                         [S0]
//!             7    8    9   10   11   12   13         <- player 0
//!   ```
//! - **Sowing.** Seeds travel counter-clockwise: along the bottom row to the right, into S0,
//!   along the top row to the left, into S1, and round. The mover lifts every seed of one of
//!   their non-empty holes and drops them one by one into the following holes and their own
//!   store, never into the opponent's store. A lap long enough to go all the way round drops
//!   seeds into the hole it started from too.
//! - **Where the last seed lands** decides what follows:
//!   1. in the mover's own store: the mover moves again (an *extra move*);
//!   2. in a playing hole, on either side, that already held seeds: the whole hole (the last
//!      seed included) is lifted and sown on from the next hole (a *relay*), as often as it
//!      happens;
//!   3. in an empty hole on the mover's side: *nembak*, the facing hole's seeds go to the
//!      mover's store (the landed seed stays); the turn ends;
//!   4. in an empty hole on the opponent's side: *mikul*, if both of its neighbours in the row
//!      exist and hold the same, non-zero number of seeds, those seeds and the landed seed go
//!      to the mover's store; otherwise nothing is taken (corner holes never capture this
//!      way); the turn ends.
//!
//!   Captures are allowed from the first move on.
//! - **End.** When the player to move has no seed on their side (also after an extra move
//!   that emptied it), the game ends and the other player takes every seed still on the board.
//!   The larger store wins; equal stores draw. Every turn stores a seed or moves seeds forward
//!   along the mover's row, so every game ends.
//! - **Notation.** `<holes 0..n-1>/<holes n..2n-1> <S1>/<S0> <player to move>`, e.g. the
//!   standard start `7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0`. A move is the number of the hole it
//!   lifts. Once a game is over the board is swept and the player field keeps the player who
//!   could not move.
//! - **Value.** The value of a position is the final store difference, player to move minus
//!   opponent, with perfect play. Seeds already stored only add a constant, so the search and
//!   tables work with the *future gain*: seeds the mover will still store minus seeds the
//!   opponent will, between `-k` and `k` with `k` seeds on the board.
//!
//! ## Kalah, on the same board
//!
//! Kalah (the Western mancala, also called Kalaha) uses the board, the numbering and the
//! notation above; only the move and the end differ ([`kalah`]):
//!
//! - **One lap.** The mover lifts a non-empty hole of their side and sows it counter-clockwise
//!   as in Dakon (own store yes, opponent's store no, a long lap also feeds its own hole), but
//!   the lap ends where the last seed falls: there is no relay.
//! - **Extra move.** The last seed in the mover's store: the mover moves again.
//! - **Capture.** The last seed in an empty hole of the mover's side (it now holds that one
//!   seed): if the facing hole holds seeds, the facing seeds and the landed seed go to the
//!   mover's store. If the facing hole is empty nothing happens, except under the
//!   *empty-capture* variant (`kalah-empty-capture`, the rules Irving, Donkers and Uiterwijk
//!   solved in 2000), where the lone seed goes to the store anyway. A last seed anywhere else
//!   (an occupied own hole, any hole of the opponent) just stays.
//! - **End.** As soon as a move leaves either side without seeds, the game is over, and
//!   every position in which a side is empty is over in the same way: each player adds the
//!   seeds still on *their own* side to their own store. (Dakon ends only when the player to
//!   move is empty, and then the other player takes everything left.)
//! - **Value.** As in Dakon: the final store difference, player to move minus opponent. In a
//!   finished game whose board is not yet swept it is the stores' difference plus the mover's
//!   side minus the opponent's side.
//!
//! [`ruleset::RuleSet`] chooses between the two at run time for the command-line program.
//!
//! ## Map of the crate
//!
//! - [`dakon`]: the rules ([`dakon::Position`], [`dakon::Position::play`]), notation, the
//!   transposition [`dakon::Key`], and [`dakon::Dakon`], the rules as the generic code sees them.
//! - [`kalah`]: the Kalah rules on the same board ([`kalah::Kalah`], both capture rules).
//! - [`composition`]: the perfect index of boards with `k` seeds (rank and unrank).
//! - [`rules`]: the [`rules::Rules`] trait through which the search and tables see any game's
//!   moves; [`transposition_key`], [`tier_layout`] and [`build_schedule`]: how its positions
//!   are keyed, numbered in tiers and scheduled for the table builder; [`solvable`]: all four
//!   together, what the search and tables take.
//! - [`ruleset`]: Dakon or Kalah chosen at run time ([`ruleset::RuleSet`]), for programs.
//! - [`perft`]: move-tree leaf counts.
//! - [`tables`]: endgame tables: the retrograde builder, the file format and the probing oracle.
//! - [`opening`]: the best single turn, a fast proof of a forced win.
//! - [`certificate`]: proof certificates, files that an independent checker reads to confirm a
//!   value without trusting this crate.
//! - [`atomic_file`]: writing a file whole or not at all.
//! - [`tt_budget`]: the transposition table memory a board size needs at most.

pub mod atomic_file;
pub mod build_schedule;
pub mod certificate;
pub mod composition;
pub mod dakon;
pub mod first_turn_search;
pub mod kalah;
mod memory;
pub mod opening;
pub mod oracle;
pub mod peer_region;
pub mod perft;
mod prefetch;
pub mod rules;
pub mod ruleset;
pub mod search;
pub mod search_memory;
pub mod solvable;
pub mod tables;
pub mod tier_layout;
pub mod transposition_key;
pub mod tt_budget;
