//! A game's analysis as the record keeps it: for each ply the scores before and after the move,
//! the engine's best move and line, the move's class, and whether it was the only move; a
//! summary per side. The classes and their thresholds are defined here, in one place.
//!
//! The searches that produce an analysis belong to the AI layer; this module only holds,
//! classifies, checks and saves their results.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::score::Score;
use crate::quote::excerpt;
use crate::rules::{AnnotatedMove, GameState, MoveError, Side};

/// The most moves of the engine's line an analysis keeps: longer lines are cut when recorded
/// or loaded (the line is the engine's expectation, and its first moves say the most).
pub const MAX_LINE_PLIES: usize = 32;

/// How good a move was, from the mover's point of view, best first.
#[derive(
    Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum MoveClass {
    /// The engine's own choice.
    Best,
    /// Another move that loses little or nothing (or keeps a forced win).
    Good,
    /// A move that loses a little (`?!`).
    Inaccuracy,
    /// A move that loses clearly (`?`).
    Mistake,
    /// A move that loses a lot, throws away a forced win or walks into a forced loss (`??`).
    Blunder,
}

impl MoveClass {
    /// Every class, best first.
    pub const ALL: [MoveClass; 5] = [
        MoveClass::Best,
        MoveClass::Good,
        MoveClass::Inaccuracy,
        MoveClass::Mistake,
        MoveClass::Blunder,
    ];

    /// The class's name in files and on the command line (`best`, ..., `blunder`).
    pub const fn name(self) -> &'static str {
        match self {
            MoveClass::Best => "best",
            MoveClass::Good => "good",
            MoveClass::Inaccuracy => "inaccuracy",
            MoveClass::Mistake => "mistake",
            MoveClass::Blunder => "blunder",
        }
    }

    /// The mark written after the move: nothing for `best` and `good`, `?!`, `?`, `??`.
    pub const fn mark(self) -> &'static str {
        match self {
            MoveClass::Best | MoveClass::Good => "",
            MoveClass::Inaccuracy => "?!",
            MoveClass::Mistake => "?",
            MoveClass::Blunder => "??",
        }
    }
}

impl fmt::Display for MoveClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where the classes begin, as a move's loss in hundredths of an attacking soldier (the
/// evaluation's unit: an attacker is 100, a defender 200).
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Thresholds {
    /// The smallest loss that is an inaccuracy.
    pub inaccuracy: i32,
    /// The smallest loss that is a mistake.
    pub mistake: i32,
    /// The smallest loss that is a blunder.
    pub blunder: i32,
    /// Scores are capped at plus or minus this before losses are taken (a forced win counts
    /// as this much), so that one lost win does not swamp an average.
    pub cap: i32,
}

/// The thresholds of the classes: the one place they are defined.
pub const THRESHOLDS: Thresholds = Thresholds {
    inaccuracy: 50,
    mistake: 120,
    blunder: 300,
    cap: 1000,
};

impl Thresholds {
    /// The class of a move, other than the engine's choice, that loses `loss`.
    pub const fn class_of_loss(&self, loss: i32) -> MoveClass {
        if loss >= self.blunder {
            MoveClass::Blunder
        } else if loss >= self.mistake {
            MoveClass::Mistake
        } else if loss >= self.inaccuracy {
            MoveClass::Inaccuracy
        } else {
            MoveClass::Good
        }
    }

    /// How much worse the position is after a move than before it, from the mover's point of
    /// view, with both scores capped (never below 0).
    pub fn loss(&self, before: Score, after: Score) -> i32 {
        let capped = |s: Score| s.value().clamp(-self.cap, self.cap);
        (capped(before) - capped(after)).max(0)
    }
}

/// The class of a move, from the scores before and after it (the mover's point of view) and
/// whether it is the engine's own choice.
///
/// The engine's choice is `best`: it is measured by the engine itself, so it loses nothing.
/// Exact results decide next: a move that turns a forced win into no win, or a position not
/// lost by force into a forced loss, is a `blunder`; a move that keeps a forced win is
/// `good`. Otherwise the loss decides, by [`THRESHOLDS`].
///
/// ```
/// use brandubh::game::{MoveClass, Score, classify};
///
/// assert_eq!(classify(Score::Eval(20), Score::Eval(-10), true), MoveClass::Best);
/// assert_eq!(classify(Score::Win(3), Score::Eval(900), false), MoveClass::Blunder);
/// assert_eq!(classify(Score::Eval(-400), Score::Loss(6), false), MoveClass::Blunder);
/// assert_eq!(classify(Score::Win(3), Score::Win(12), false), MoveClass::Good);
/// assert_eq!(classify(Score::Eval(40), Score::Eval(-30), false), MoveClass::Inaccuracy);
/// ```
pub fn classify(before: Score, after: Score, engine_choice: bool) -> MoveClass {
    if engine_choice {
        MoveClass::Best
    } else if before.is_win() && !after.is_win() || !before.is_loss() && after.is_loss() {
        MoveClass::Blunder
    } else if before.is_win() {
        MoveClass::Good
    } else {
        THRESHOLDS.class_of_loss(THRESHOLDS.loss(before, after))
    }
}

/// Whether a move may be marked as the only move (`!`), from the scores before and after it
/// (the mover's point of view) and whether it is the engine's own choice: it must be the
/// engine's choice, and neither position may be lost by force. A move that loses is never
/// "the only move", even when every other move loses sooner: every move loses. Whether every
/// other move does lose is for a search to say.
///
/// ```
/// use brandubh::game::{Score, may_be_only_move};
///
/// assert!(may_be_only_move(Score::Eval(-300), Score::Eval(-320), true));
/// assert!(may_be_only_move(Score::Win(3), Score::Win(2), true));
/// assert!(!may_be_only_move(Score::Eval(-869), Score::Loss(7), true));
/// assert!(!may_be_only_move(Score::Loss(5), Score::Loss(4), true));
/// assert!(!may_be_only_move(Score::Eval(0), Score::Eval(0), false));
/// ```
pub fn may_be_only_move(before: Score, after: Score, engine_choice: bool) -> bool {
    engine_choice && !before.is_loss() && !after.is_loss()
}

/// The analysis of one ply: the move played from a position, judged by searches of that
/// position and the next.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct PlyAnalysis {
    /// The score of the position before the move, for the mover (the score of the best move).
    pub score_before: Score,
    /// The score of the position after the move, for the mover; a game the move ended is
    /// scored from its outcome (`won`, `lost`, or 0 for a draw).
    pub score_after: Score,
    /// The engine's best move in the position before.
    pub best: AnnotatedMove,
    /// The line the engine expects from the position before, starting with its best move
    /// (a game keeps its first [`MAX_LINE_PLIES`] moves).
    pub pv: Vec<AnnotatedMove>,
    /// The move's class.
    pub class: MoveClass,
    /// Whether the move was the only one that does not lose by force (marked `!`); never for a
    /// move that loses ([`may_be_only_move`]).
    pub only_move: bool,
    /// The depth the position before was searched to, in plies.
    pub depth: u32,
}

impl PlyAnalysis {
    /// The score of the engine's best move: the score of the position before the move.
    pub const fn best_score(&self) -> Score {
        self.score_before
    }

    /// The mark written after the move: `!` for an only move, else its class's mark.
    pub const fn mark(&self) -> &'static str {
        if self.only_move {
            "!"
        } else {
            self.class.mark()
        }
    }

    /// How much the move lost, by [`Thresholds::loss`] (0 for the engine's choice).
    pub fn loss(&self) -> i32 {
        if self.class == MoveClass::Best {
            0
        } else {
            THRESHOLDS.loss(self.score_before, self.score_after)
        }
    }
}

/// One side's moves in an analysis: how many were analyzed, of which classes, and their loss.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default)]
pub struct SideSummary {
    /// Moves analyzed.
    pub moves: usize,
    /// Inaccuracies among them.
    pub inaccuracies: usize,
    /// Mistakes among them.
    pub mistakes: usize,
    /// Blunders among them.
    pub blunders: usize,
    /// The sum of their losses ([`PlyAnalysis::loss`]).
    pub total_loss: i64,
}

impl SideSummary {
    /// The average loss per analyzed move, if any was analyzed.
    #[allow(clippy::cast_precision_loss)]
    pub fn average_loss(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.total_loss as f64 / self.moves as f64)
    }

    fn add(&mut self, ply: &PlyAnalysis) {
        self.moves += 1;
        match ply.class {
            MoveClass::Inaccuracy => self.inaccuracies += 1,
            MoveClass::Mistake => self.mistakes += 1,
            MoveClass::Blunder => self.blunders += 1,
            MoveClass::Best | MoveClass::Good => {}
        }
        self.total_loss += i64::from(ply.loss());
    }
}

/// Both sides' summaries of an analysis.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default)]
pub struct Summary {
    /// The attackers' moves.
    pub attackers: SideSummary,
    /// The defenders' moves.
    pub defenders: SideSummary,
}

impl Summary {
    /// The summary of `plies` (one entry per move, `None` where a move is not analyzed) of a
    /// game whose first move was made by `first`.
    pub fn new<'a>(
        first: Side,
        plies: impl IntoIterator<Item = Option<&'a PlyAnalysis>>,
    ) -> Summary {
        let mut summary = Summary::default();
        let mut mover = first;
        for ply in plies {
            if let Some(ply) = ply {
                match mover {
                    Side::Attackers => summary.attackers.add(ply),
                    Side::Defenders => summary.defenders.add(ply),
                }
            }
            mover = mover.opponent();
        }
        summary
    }

    /// The summary of `side`'s moves.
    pub const fn side(&self, side: Side) -> &SideSummary {
        match side {
            Side::Attackers => &self.attackers,
            Side::Defenders => &self.defenders,
        }
    }
}

/// What is wrong with the analysis of a ply.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum AnalysisError {
    /// There is no such ply in the game.
    NoSuchPly {
        /// The ply asked for, from 0.
        ply: usize,
        /// The number of plies played.
        plies: usize,
    },
    /// A score is beyond a won or lost game.
    ScoreOutOfRange {
        /// `score_before` or `score_after`.
        field: &'static str,
        /// The value found.
        value: i32,
    },
    /// The best move cannot be played in the position (or its annotation is wrong).
    Best {
        /// The move as written.
        text: String,
        /// What is wrong with it.
        error: MoveError,
    },
    /// A move of the line cannot be played (or its annotation is wrong).
    Line {
        /// The move's place in the line, from 1.
        number: usize,
        /// The move as written.
        text: String,
        /// What is wrong with it.
        error: MoveError,
    },
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoSuchPly { ply, plies } => {
                write!(f, "there is no ply {ply} in a game of {plies} plies")
            }
            Self::ScoreOutOfRange { field, value } => write!(
                f,
                "{field} {value} is out of range ({} to {})",
                -Score::MATE,
                Score::MATE
            ),
            Self::Best { text, error } => write!(f, "best move \"{}\": {error}", excerpt(text)),
            Self::Line {
                number,
                text,
                error,
            } => write!(f, "pv move {number} \"{}\": {error}", excerpt(text)),
        }
    }
}

impl std::error::Error for AnalysisError {}

/// The analysis of one move: its class, the scores before and after it, and the engine's best
/// move and line in the position it was played from.
// As saved and read, before it is checked against its position. Field order is the order in
// the file; the doc comments are the JSON Schema's descriptions.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "PlyAnalysis")]
pub(super) struct SavedPly {
    /// The move's class, from the mover's point of view: `best` (the engine's choice),
    /// `good`, `inaccuracy`, `mistake` or `blunder`.
    class: MoveClass,
    /// Whether the move was the only one that does not lose by force.
    only_move: bool,
    /// The score of the position before the move (the best move's score), for the mover.
    #[schemars(range(min = -30_000, max = 30_000))]
    score_before: i32,
    /// The score of the position after the move, for the mover.
    #[schemars(range(min = -30_000, max = 30_000))]
    score_after: i32,
    /// The engine's best move in the position before, in the annotated notation; loading
    /// checks that it can be played there.
    best: String,
    /// The line the engine expects from the position before, starting with its best move;
    /// loading checks that it can be played from there, and keeps its first 32 moves.
    pv: Vec<String>,
    /// The depth the position before was searched to, in plies.
    depth: u32,
}

impl From<&PlyAnalysis> for SavedPly {
    fn from(ply: &PlyAnalysis) -> SavedPly {
        SavedPly {
            class: ply.class,
            only_move: ply.only_move,
            score_before: ply.score_before.value(),
            score_after: ply.score_after.value(),
            best: ply.best.to_string(),
            pv: ply.pv.iter().map(ToString::to_string).collect(),
            depth: ply.depth,
        }
    }
}

fn score(field: &'static str, value: i32) -> Result<Score, AnalysisError> {
    if (-Score::MATE..=Score::MATE).contains(&value) {
        Ok(Score::from_value(value))
    } else {
        Err(AnalysisError::ScoreOutOfRange { field, value })
    }
}

impl SavedPly {
    /// The analysis of the ply played from `state` (the game so far, with its history): the
    /// scores must be in range, and the best move and every move of the line legal there
    /// (annotations are checked as for the game's moves). The class is taken as saved, the
    /// only-move flag where the scores allow it ([`may_be_only_move`]: a move saved as the only
    /// one though it loses is read as not), and the line cut after [`MAX_LINE_PLIES`] moves.
    /// `state` is left as it was.
    pub(super) fn check(self, state: &mut GameState) -> Result<PlyAnalysis, AnalysisError> {
        let score_before = score("score_before", self.score_before)?;
        let score_after = score("score_after", self.score_after)?;
        let best = match state.play_text(&self.best) {
            Ok(best) => {
                state.undo();
                best
            }
            Err(error) => {
                return Err(AnalysisError::Best {
                    text: self.best,
                    error,
                });
            }
        };
        let mut pv = Vec::with_capacity(self.pv.len().min(MAX_LINE_PLIES));
        let mut failure = None;
        for (i, text) in self.pv.into_iter().take(MAX_LINE_PLIES).enumerate() {
            match state.play_text(&text) {
                Ok(done) => pv.push(done),
                Err(error) => {
                    failure = Some(AnalysisError::Line {
                        number: i + 1,
                        text,
                        error,
                    });
                    break;
                }
            }
        }
        for _ in &pv {
            state.undo();
        }
        if let Some(error) = failure {
            return Err(error);
        }
        Ok(PlyAnalysis {
            score_before,
            score_after,
            best,
            pv,
            class: self.class,
            only_move: self.only_move
                && may_be_only_move(score_before, score_after, self.class == MoveClass::Best),
            depth: self.depth,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_map_to_classes_at_the_thresholds() {
        let t = THRESHOLDS;
        assert!(0 < t.inaccuracy && t.inaccuracy < t.mistake && t.mistake < t.blunder);
        assert!(t.blunder < t.cap);
        let table = [
            (0, MoveClass::Good),
            (t.inaccuracy - 1, MoveClass::Good),
            (t.inaccuracy, MoveClass::Inaccuracy),
            (t.mistake - 1, MoveClass::Inaccuracy),
            (t.mistake, MoveClass::Mistake),
            (t.blunder - 1, MoveClass::Mistake),
            (t.blunder, MoveClass::Blunder),
            (t.cap * 2, MoveClass::Blunder),
        ];
        for (loss, class) in table {
            assert_eq!(t.class_of_loss(loss), class, "loss {loss}");
            let before = Score::Eval(200);
            assert_eq!(classify(before, Score::Eval(200 - loss), false), class);
        }
    }

    #[test]
    fn losses_are_capped_and_never_negative() {
        let t = THRESHOLDS;
        assert_eq!(t.loss(Score::Eval(10), Score::Eval(80)), 0);
        assert_eq!(t.loss(Score::Eval(80), Score::Eval(10)), 70);
        assert_eq!(t.loss(Score::Win(5), Score::Eval(0)), t.cap);
        assert_eq!(t.loss(Score::Eval(0), Score::Loss(1)), t.cap);
        assert_eq!(t.loss(Score::Win(1), Score::Loss(0)), 2 * t.cap);
        assert_eq!(t.loss(Score::Win(3), Score::Win(40)), 0);
    }

    #[test]
    fn exact_results_decide_before_the_loss() {
        use Score::{Eval, Loss, Win};
        let cases = [
            // The engine's choice is best whatever the next search says.
            (Win(3), Eval(0), true, MoveClass::Best),
            (Eval(30), Loss(4), true, MoveClass::Best),
            // A forced win thrown away, even for a great evaluation.
            (Win(3), Eval(5000), false, MoveClass::Blunder),
            (Win(9), Loss(2), false, MoveClass::Blunder),
            // Walking into a forced loss, even from a bad position.
            (Eval(-900), Loss(10), false, MoveClass::Blunder),
            // Keeping a forced win, however much slower.
            (Win(1), Win(99), false, MoveClass::Good),
            (Win(3), Win(0), false, MoveClass::Good),
            // Lost anyway: only the plies given away count.
            (Loss(20), Loss(17), false, MoveClass::Good),
            // A win found where the engine saw none.
            (Eval(0), Win(5), false, MoveClass::Good),
            // A draw by the rules is 0.
            (Eval(400), Eval(0), false, MoveClass::Blunder),
        ];
        for (before, after, best, class) in cases {
            assert_eq!(
                classify(before, after, best),
                class,
                "{before} -> {after}, engine's choice {best}"
            );
        }
    }

    #[test]
    fn names_and_marks() {
        let names = MoveClass::ALL.map(MoveClass::name);
        assert_eq!(names, ["best", "good", "inaccuracy", "mistake", "blunder"]);
        let marks = MoveClass::ALL.map(MoveClass::mark);
        assert_eq!(marks, ["", "", "?!", "?", "??"]);
        for class in MoveClass::ALL {
            let json = serde_json::to_string(&class).unwrap_or_default();
            assert_eq!(json, format!("\"{class}\""));
        }
    }
}
