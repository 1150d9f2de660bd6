//! The solver's rules as the campaign's tree sees them.

use dakon_solver::dakon::Position;
use dakon_solver::ruleset::RuleSet;

use super::bounds::Bounds;
use super::tree::Game;

impl Game for RuleSet {
    type Position = Position;

    fn successors(&self, position: &Position) -> Vec<(usize, Position, bool)> {
        self.legal_holes(position)
            .into_iter()
            .map(|hole| {
                let (next, _) = self.play_hole(position, hole).expect("a legal hole");
                (hole, next, next.mover() == position.mover())
            })
            .collect()
    }

    fn final_difference(&self, position: &Position) -> Option<i32> {
        self.is_over(position).then(|| RuleSet::final_difference(self, position))
    }

    fn trivial(&self, position: &Position) -> Bounds {
        let (stored, left) = (position.store_difference(), position.seeds_on_board() as i32);
        Bounds { lower: stored - left, upper: stored + left }
    }

    fn notation(&self, position: &Position) -> String {
        position.to_string()
    }
}
