//! The random engine: a uniformly random legal move from a seeded generator.

use std::sync::atomic::AtomicBool;

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::IndexedRandom;

use super::engine::{Ai, NoMove, SearchInfo};
use super::limits::Limits;
use crate::rules::{GameState, Move};

/// Plays a uniformly random legal move. The same seed gives the same moves.
pub struct RandomAi {
    rng: Xoshiro256PlusPlus,
}

impl RandomAi {
    /// A random mover seeded with `seed`.
    pub fn new(seed: u64) -> RandomAi {
        RandomAi {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl Ai for RandomAi {
    fn name(&self) -> String {
        "random".to_owned()
    }

    fn choose(
        &mut self,
        state: &GameState,
        _limits: &Limits,
        _stop: &AtomicBool,
        _progress: &mut dyn FnMut(&SearchInfo),
    ) -> Result<Move, NoMove> {
        state
            .legal_moves()
            .choose(&mut self.rng)
            .copied()
            .ok_or(NoMove::GameOver)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    fn game(seed: u64) -> Vec<Move> {
        let mut ai = RandomAi::new(seed);
        let mut state = GameState::start(Preset::Standard.rules());
        let stop = AtomicBool::new(false);
        let mut moves = Vec::new();
        while let Ok(mv) = ai.choose(&state, &Limits::INFINITE, &stop, &mut |_| {}) {
            assert!(state.play(mv).is_ok(), "{mv} is legal");
            moves.push(mv);
            if moves.len() == 60 {
                break;
            }
        }
        moves
    }

    #[test]
    fn random_moves_are_legal_and_seeded() {
        assert_eq!(game(7), game(7));
        assert_ne!(game(7), game(8));
    }
}
