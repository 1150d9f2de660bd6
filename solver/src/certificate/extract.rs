//! From a solved position to its certificate: both halves extracted with the solver's help.

use std::time::{Duration, Instant};

use super::choose::{Choices, Chooser};
use super::prune::used_entries;
use super::shared_walk::walk_shared;
use super::walk::Half;
use super::{max_small_seeds, Certificate, Claim, ExtractError, ExtractProgress, Strategy};
use crate::dakon::{Player, Position};
use crate::search::{Limits, Solver};
use crate::solvable::Solvable;

/// A certificate and what extracting it cost.
#[derive(Clone, Debug)]
pub struct Extraction {
    /// The certificate.
    pub certificate: Certificate,
    /// Null-window tests asked of the solver.
    pub tests: u64,
    /// Positions the solver visited for them.
    pub nodes: u64,
    /// Tests the solver's table answered at once, without a search (not in `tests`).
    pub table_answers: u64,
    /// Time spent.
    pub elapsed: Duration,
}

/// Extracts the certificate of `claim` about `root`: for each half, a strategy that walks the
/// game as the checker will (see `docs/formats/certificates.md`), choosing at each of the owner's
/// positions one move proven by a null-window test of `solver` to still meet the owner's need
/// there, preferring moves that add the fewest positions to check, then a final pass keeping
/// only the entries a check uses. Positions with at most `small_seeds` seeds get no entry.
/// Each half's walk runs on as many threads as `solver` searches with.
///
/// The solver's transposition table makes the tests cheap right after the solve that proved
/// the claim; a half whose bound is the trivial one (the stores with every seed left lost)
/// comes out empty. The moves of `R` must be the mover's holes counted in the mover's sowing
/// direction, as [`Position::moves`] gives them.
///
/// # Errors
/// [`ExtractError::SmallSeeds`] if `small_seeds` is above the board's [`max_small_seeds`],
/// [`ExtractError::Bounds`] if the claim's lower bound is above its upper bound,
/// [`ExtractError::Stopped`] if `limits` stopped a test, [`ExtractError::NotProven`] if the
/// claim is false.
///
/// ```
/// use dakon_solver::certificate::{extract, Claim};
/// use dakon_solver::dakon::{Dakon, Position};
/// use dakon_solver::search::{Config, Limits, Solver};
///
/// let solver = Solver::new(Dakon::new(4).unwrap(), Config { threads: 1, tt_bytes: 1 << 20 }, None);
/// let start = Position::start(4, 4).unwrap();
/// let value = solver.solve(&start, &Limits::default()).lower; // +32, stores are empty
/// let claim = Claim { lower: value, upper: value };
/// let extraction = extract(&solver, &start, claim, 12, &Limits::default()).unwrap();
/// let certificate = extraction.certificate;
/// // Player 0 takes every seed: the upper bound is trivial, its half needs no entry.
/// assert!(certificate.upper_half.is_empty() && !certificate.lower_half.is_empty());
/// assert_eq!(&certificate.to_bytes()[..8], b"DKNCERT\0");
/// assert!(extract(&solver, &start, Claim { lower: value + 2, upper: value + 2 }, 12, &Limits::default()).is_err());
/// ```
pub fn extract<R>(solver: &Solver<R>, root: &Position, claim: Claim, small_seeds: u8, limits: &Limits) -> Result<Extraction, ExtractError>
where
    R: Solvable<Position = Position>,
{
    extract_with_turn(solver, root, claim, small_seeds, limits, &[], &ExtractProgress::default())
}

/// [`extract`], given a turn that may prove the claim's lower bound on its own: moves of the
/// mover from `root` (rules-level), each but the last earning an extra move, after which the
/// stores alone guarantee `claim.lower` whatever follows, like the opening turns of
/// `opening::best_turn`. If it does, the lower half is that turn, taken without a search:
/// a bound proven by a turn alone leaves the solver's table nearly empty, and finding the
/// strategy again by null-window tests costs as much as a full search. A turn that does not
/// prove the bound is ignored. `progress` is raised as the extraction goes, for a progress
/// bar drawn by another thread.
///
/// # Errors
/// As [`extract`].
///
/// ```
/// use dakon_solver::certificate::{extract_with_turn, Claim, ExtractProgress};
/// use dakon_solver::dakon::{Dakon, Position};
/// use dakon_solver::opening::{best_turn, TurnLimits};
/// use dakon_solver::search::{Config, Limits, Solver};
///
/// let rules = Dakon::new(5).unwrap();
/// let start = Position::start(5, 5).unwrap();
/// let turn = best_turn(&rules, &start, TurnLimits { nodes: 100_000, goal: None }).best.unwrap();
/// // No search ran: the solver's table is empty.
/// let solver = Solver::new(rules, Config { threads: 1, tt_bytes: 1 << 20 }, None);
/// let claim = Claim { lower: turn.lower, upper: 50 };
/// let extraction = extract_with_turn(&solver, &start, claim, 10, &Limits::default(), &turn.moves, &ExtractProgress::default()).unwrap();
/// assert!(extraction.tests <= 1, "only the trivial upper half asks the solver");
/// assert!(extraction.certificate.lower_half.len() <= turn.moves.len());
/// ```
pub fn extract_with_turn<R>(
    solver: &Solver<R>,
    root: &Position,
    claim: Claim,
    small_seeds: u8,
    limits: &Limits,
    turn: &[u8],
    progress: &ExtractProgress,
) -> Result<Extraction, ExtractError>
where
    R: Solvable<Position = Position>,
{
    let started = Instant::now();
    let most = max_small_seeds(root.holes());
    if small_seeds > most {
        return Err(ExtractError::SmallSeeds { found: small_seeds, most });
    }
    if claim.lower > claim.upper {
        return Err(ExtractError::Bounds { lower: claim.lower, upper: claim.upper });
    }
    let (mut tests, mut nodes, mut table_answers) = (0, 0, 0);
    let mut extract_half = |name, owner: Player, wanted, turn| {
        let half = Half { owner, small_seeds: small_seeds as u32 };
        let choices = Choices::default();
        let mut chooser = Chooser::new(solver, limits, half, name, &choices, progress);
        let strategy = half_strategy(solver.rules(), &mut chooser, half, root, wanted, turn);
        tests += chooser.tests;
        nodes += chooser.nodes;
        table_answers += chooser.table_answers;
        strategy
    };
    let lower_half = extract_half("lower", root.mover(), claim.lower, turn)?;
    let upper_half = extract_half("upper", root.mover().other(), -claim.upper, &[])?;
    let certificate = Certificate { rules: solver.rules().name(), root: *root, claim, small_seeds, lower_half, upper_half, opening: None };
    Ok(Extraction { certificate, tests, nodes, table_answers, elapsed: started.elapsed() })
}

/// The strategy of one half whose owner claims a final difference (its store minus the
/// other's) of at least `wanted`: `turn`, if it proves that on its own (see
/// [`extract_with_turn`]), else one found with the solver.
fn half_strategy<R>(
    rules: &R,
    chooser: &mut Chooser<R>,
    half: Half,
    root: &Position,
    wanted: i32,
    turn: &[u8],
) -> Result<Strategy, ExtractError>
where
    R: Solvable<Position = Position>,
{
    let owner = half.owner;
    let need = wanted - (root.store(owner) as i32 - root.store(owner.other()) as i32);
    if !chooser.follow_turn(root, need, turn) && !chooser.guarantees(root, need)? {
        return Err(chooser.not_proven(root, need));
    }
    walk_shared(chooser, root, need, chooser.solver().threads())?;
    Ok(used_entries(rules, half, root, need, chooser.choices()))
}
