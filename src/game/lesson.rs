//! "Learn from your mistakes": each mistake or blunder of a side, once the game is
//! analyzed, becomes a personal puzzle kept with the game: the position before the move,
//! to find a better one than the move played.
//!
//! A lesson is only kept while the game's analysis of its move still says what it said
//! (the same best move): a game changed since has the lessons of its new analysis.

use super::ply_analysis::MoveClass;
use super::record::{Game, SavedLesson};
use crate::rules::{Move, Side};

/// One personal puzzle: the move at index `at` of the game was a mistake or a blunder.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Lesson {
    /// The index (from 0) of the move played, in the game's moves.
    pub at: usize,
    /// The engine's best move there, as the analysis found it.
    pub best: Move,
    /// Whether the player has found a good move since.
    pub solved: bool,
}

impl Game {
    /// The personal puzzles kept with the game, first move first: those whose move is still
    /// analyzed as a mistake or a blunder.
    pub fn lessons(&self) -> Vec<Lesson> {
        self.lessons
            .iter()
            .filter_map(|saved| {
                let ply = self.analysis.get(saved.at)?.as_ref()?;
                is_lesson(ply.class).then_some(Lesson {
                    at: saved.at,
                    best: ply.best.mv,
                    solved: saved.solved,
                })
            })
            .collect()
    }

    /// Makes a personal puzzle of each mistake and blunder of `sides` in the analysis,
    /// keeping whether those already kept were solved; returns them.
    pub fn learn_from_mistakes(&mut self, sides: &[Side]) -> Vec<Lesson> {
        let first_side = self.state().start_position().side_to_move();
        let solved: Vec<usize> = self
            .lessons()
            .iter()
            .filter(|l| l.solved)
            .map(|l| l.at)
            .collect();
        self.lessons = self
            .analysis
            .iter()
            .enumerate()
            .filter(|&(at, ply)| {
                let mover = if at % 2 == 0 {
                    first_side
                } else {
                    first_side.opponent()
                };
                sides.contains(&mover) && ply.as_ref().is_some_and(|p| is_lesson(p.class))
            })
            .map(|(at, _)| SavedLesson {
                at,
                solved: solved.contains(&at),
            })
            .collect();
        self.lessons()
    }

    /// Marks the personal puzzle of the move at index `at` solved.
    pub fn solve_lesson(&mut self, at: usize) {
        for lesson in &mut self.lessons {
            if lesson.at == at {
                lesson.solved = true;
            }
        }
    }

    /// The lessons to save: those still kept (see [`Game::lessons`]).
    pub(super) fn saved_lessons(&self) -> Vec<SavedLesson> {
        self.lessons()
            .into_iter()
            .map(|l| SavedLesson {
                at: l.at,
                solved: l.solved,
            })
            .collect()
    }

    /// Restores saved lessons, after the analysis: each must be of a move analyzed as a
    /// mistake or a blunder; else the index of the first that is not.
    pub(super) fn restore_lessons(&mut self, saved: Vec<SavedLesson>) -> Result<(), usize> {
        for lesson in &saved {
            let class = self
                .analysis
                .get(lesson.at)
                .and_then(Option::as_ref)
                .map(|p| p.class);
            if !class.is_some_and(is_lesson) {
                return Err(lesson.at);
            }
        }
        self.lessons = saved;
        Ok(())
    }
}

/// Whether a move of this class is one to learn from.
const fn is_lesson(class: MoveClass) -> bool {
    matches!(class, MoveClass::Mistake | MoveClass::Blunder)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::player::Player;
    use crate::game::ply_analysis::PlyAnalysis;
    use crate::game::score::Score;
    use crate::rules::{AnnotatedMove, Position, Preset};

    /// A game of four moves, the first legal move each time, with each move analyzed as of
    /// `classes` (the best move being the last legal one).
    fn analyzed(classes: [MoveClass; 4]) -> Game {
        let mut game = Game::new(
            Preset::Standard.rules(),
            Position::start(),
            Player::Human,
            Player::Human,
        );
        for class in classes {
            let moves = game.state().legal_moves();
            let best_move = *moves.last().unwrap();
            let mut trial = game.clone();
            let best: AnnotatedMove = trial.play(best_move).unwrap();
            let at = game.moves().len();
            game.play(moves[0]).unwrap();
            let ply = PlyAnalysis {
                score_before: Score::Eval(0),
                score_after: Score::Eval(-400),
                best,
                pv: vec![best],
                class,
                only_move: false,
                depth: 3,
            };
            game.set_analysis(at, &ply).unwrap();
        }
        game
    }

    use MoveClass::{Best, Blunder, Inaccuracy, Mistake};

    #[test]
    fn the_sides_mistakes_and_blunders_become_lessons_and_keep_being_solved() {
        let mut game = analyzed([Mistake, Blunder, Inaccuracy, Blunder]);
        let first = game.state().start_position().side_to_move();
        let lessons = game.learn_from_mistakes(&[first]);
        let at: Vec<usize> = lessons.iter().map(|l| l.at).collect();
        assert_eq!(at, [0], "the first side's mistake; its inaccuracy is none");
        let best = game.analysis()[0].as_ref().unwrap().best.mv;
        assert_eq!(lessons[0].best, best);
        game.solve_lesson(0);
        assert!(game.learn_from_mistakes(&[first])[0].solved, "kept solved");
        let theirs = game.learn_from_mistakes(&[first.opponent()]);
        assert_eq!(theirs.iter().map(|l| l.at).collect::<Vec<_>>(), [1, 3]);
    }

    #[test]
    fn lessons_are_saved_with_the_game_and_checked_on_load() {
        let mut game = analyzed([Best, Blunder, Best, Mistake]);
        let second = game.state().start_position().side_to_move().opponent();
        game.learn_from_mistakes(&[second]);
        game.solve_lesson(3);
        let text = game.to_json();
        let loaded = Game::from_json(&text).unwrap();
        assert_eq!(loaded.lessons(), game.lessons());
        assert!(loaded.lessons()[1].solved);
        // A lesson on a move that was no mistake is refused, saying which.
        let bad = text.replace("\"at\": 1,", "\"at\": 0,");
        assert_ne!(bad, text);
        let err = Game::from_json(&bad).unwrap_err().to_string();
        assert!(
            err.contains("lessons: move 1 is not analyzed as a mistake"),
            "{err}"
        );
        // An index past the moves is named as written, not wrapped to "move 0".
        let past = text.replace("\"at\": 1,", &format!("\"at\": {},", usize::MAX));
        let err = Game::from_json(&past).unwrap_err().to_string();
        assert!(
            err.contains(&format!(
                "lessons: \"at\" {} is past the last move (4 moves)",
                usize::MAX
            )),
            "{err}"
        );
        // A game without lessons writes none.
        assert!(!analyzed([Best; 4]).to_json().contains("lessons"));
    }
}
