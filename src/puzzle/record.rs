//! A puzzle as it is stored: the preset, the position, the goal and its solution, with the
//! grade and rating it was given; sets of them per preset, and their verification.

use std::collections::HashSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::solve::Solver;
use crate::quote::excerpt;
use crate::rules::{
    GameState, Move, Position, Preset, Side, parse_position_record, position_record,
};

/// What the side to move must do.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Goal {
    /// Force a win within the puzzle's moves.
    Win,
    /// Find the only move after which the other side does not force a win within the
    /// puzzle's moves.
    Hold,
}

/// How hard a puzzle is, from its length, its tempting wrong moves and the engine's depth.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    /// Seen at a glance.
    Easy,
    /// A short calculation.
    Medium,
    /// A real calculation, with a tempting wrong move or two.
    Hard,
    /// Deep and deceptive.
    Expert,
}

impl Grade {
    /// The grade's name as written in puzzle files.
    pub const fn name(self) -> &'static str {
        match self {
            Grade::Easy => "easy",
            Grade::Medium => "medium",
            Grade::Hard => "hard",
            Grade::Expert => "expert",
        }
    }
}

/// What made a puzzle hard, as the generator measured it.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Difficulty {
    /// The moves of the side to play, the first included.
    pub moves: u8,
    /// Wrong first moves the engine likes at a shallow depth.
    pub tempting: u8,
    /// The depth in plies at which the engine first chose the solution.
    pub engine_depth: u8,
}

impl Difficulty {
    /// Points of difficulty: two per move after the first, one per tempting move (at most
    /// three), one per two plies the engine needed beyond the first.
    fn points(self) -> u32 {
        2 * u32::from(self.moves.saturating_sub(1))
            + u32::from(self.tempting.min(3))
            + u32::from(self.engine_depth.saturating_sub(1)) / 2
    }

    /// The grade these measurements give.
    pub fn grade(self) -> Grade {
        match self.points() {
            0..=1 => Grade::Easy,
            2..=3 => Grade::Medium,
            4..=5 => Grade::Hard,
            _ => Grade::Expert,
        }
    }

    /// The puzzle's own rating: 500 with no points, 150 more per point of difficulty. The
    /// shipped puzzles have two points or more, so the easiest are rated 800, below a new
    /// player's [`START_RATING`](super::START_RATING), and a new player meets them first.
    pub fn rating(self) -> u32 {
        500 + 150 * self.points()
    }
}

/// One puzzle as stored in a set.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Puzzle {
    /// A name unique in its set, such as `standard-0042`.
    pub id: String,
    /// The rules it is played under.
    pub preset: Preset,
    /// The OpenTafl position record, rank 1 first.
    pub position: String,
    /// The side to play.
    pub side: Side,
    /// Win, or hold.
    pub goal: Goal,
    /// The moves of the side to play within which the goal is reached (or held against).
    pub moves: u8,
    /// The one first move that solves it.
    pub solution: String,
    /// How hard it is.
    pub grade: Grade,
    /// Its own rating, against which players' ratings move.
    pub rating: u32,
    /// Wrong first moves the engine likes at a shallow depth.
    pub tempting: u8,
    /// The depth in plies at which the engine first chose the solution.
    pub engine_depth: u8,
    /// Where the position comes from.
    pub source: String,
}

/// Why a stored puzzle cannot be used, or fails verification.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum PuzzleError {
    /// The position record does not parse.
    Position(String),
    /// The solution is not a legal move in the position.
    Solution(String),
    /// The goal is not reached within the puzzle's moves, or takes fewer.
    NotExact,
    /// Other first moves also solve it (listed).
    NotUnique(Vec<Move>),
    /// The puzzle's own move count is outside 1 to [`MAX_MOVES`].
    Length(u8),
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleError::Position(why) => write!(f, "bad position: {why}"),
            PuzzleError::Solution(why) => write!(f, "bad solution: {why}"),
            PuzzleError::NotExact => f.write_str("the goal is not reached in exactly its moves"),
            PuzzleError::NotUnique(others) => {
                let others: Vec<String> = others.iter().map(Move::to_string).collect();
                write!(f, "not unique: {} also solve it", others.join(", "))
            }
            PuzzleError::Length(n) => write!(f, "{n} moves is outside 1 to {MAX_MOVES}"),
        }
    }
}

impl std::error::Error for PuzzleError {}

/// The longest puzzle, in moves of the side to play: within it the solver is exact
/// (a third occurrence of a position needs more plies).
pub const MAX_MOVES: u8 = 4;

impl Puzzle {
    /// The game at the puzzle's position, under its rules, with no history before it.
    pub fn start(&self) -> Result<GameState, PuzzleError> {
        let position = parse_position_record(&self.position, self.side)
            .map_err(|e| PuzzleError::Position(e.to_string()))?;
        Ok(GameState::new(self.preset.rules(), position))
    }

    /// The solution as a move, checked to be legal in the position.
    pub fn solution_move(&self) -> Result<Move, PuzzleError> {
        let state = self.start()?;
        let mv: Move = self
            .solution
            .parse()
            .map_err(|e: crate::rules::ParseMoveError| PuzzleError::Solution(e.to_string()))?;
        state
            .check_move(mv)
            .map_err(|e| PuzzleError::Solution(e.to_string()))?;
        Ok(mv)
    }

    /// Checks by exact search that the solution is the one first move that reaches the goal
    /// in exactly the puzzle's moves.
    pub fn verify(&self, solver: &mut Solver) -> Result<(), PuzzleError> {
        if !(1..=MAX_MOVES).contains(&self.moves) {
            return Err(PuzzleError::Length(self.moves));
        }
        let state = self.start()?;
        let solution = self.solution_move()?;
        let solving = match self.goal {
            Goal::Win => {
                if solver.shortest_win(&state, self.moves) != Some(self.moves) {
                    return Err(PuzzleError::NotExact);
                }
                solver.winning_moves(&state, self.moves)
            }
            Goal::Hold => solver.moves_that_hold(&state, self.moves),
        };
        if !solving.contains(&solution) {
            return Err(PuzzleError::NotExact);
        }
        let others: Vec<Move> = solving.into_iter().filter(|&m| m != solution).collect();
        if others.is_empty() {
            Ok(())
        } else {
            Err(PuzzleError::NotUnique(others))
        }
    }
}

/// The position's record and side, as a puzzle stores them.
pub fn stored_position(position: &Position) -> (String, Side) {
    (position_record(position), position.side_to_move())
}

/// The name of the puzzle file format.
pub const FORMAT: &str = "brandubh-puzzles";
/// The version of the puzzle file format.
pub const VERSION: u32 = 1;
/// The largest puzzle file read: a set of the most puzzles `puzzles generate` makes
/// (100,000, about 300 bytes each) fits.
pub const MAX_SET_BYTES: u64 = 64 << 20;

/// A set of puzzles for one preset, as one JSON file.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleSet {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// The preset every puzzle is played under.
    pub preset: Preset,
    /// The puzzles.
    pub puzzles: Vec<Puzzle>,
}

/// Why a puzzle file cannot be read.
#[derive(Debug)]
pub enum SetError {
    /// Not JSON of the expected shape.
    Json(serde_json::Error),
    /// Not a puzzle file, or of an unknown version.
    Format(String),
    /// Two puzzles have this id (ids name puzzles in the progress and records' files).
    DuplicateId(String),
    /// A puzzle has an empty id.
    EmptyId,
    /// A puzzle in it cannot be used.
    Puzzle {
        /// The puzzle's name.
        id: String,
        /// What is wrong.
        error: PuzzleError,
    },
}

impl fmt::Display for SetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetError::Json(e) => write!(f, "not a puzzle file: {e}"),
            SetError::Format(what) => f.write_str(what),
            SetError::DuplicateId(id) => write!(f, "two puzzles have the id \"{}\"", excerpt(id)),
            SetError::EmptyId => f.write_str("a puzzle has an empty id"),
            SetError::Puzzle { id, error } => write!(f, "puzzle {}: {error}", excerpt(id)),
        }
    }
}

impl std::error::Error for SetError {}

impl PuzzleSet {
    /// An empty set for `preset`.
    pub fn new(preset: Preset, puzzles: Vec<Puzzle>) -> PuzzleSet {
        PuzzleSet {
            format: FORMAT.to_owned(),
            version: VERSION,
            preset,
            puzzles,
        }
    }

    /// Reads a set from JSON, checking the format, that the ids are unique and not empty,
    /// and that every puzzle's position and solution can be played (not its uniqueness,
    /// which [`Puzzle::verify`] checks).
    pub fn from_json(text: &str) -> Result<PuzzleSet, SetError> {
        let set: PuzzleSet = serde_json::from_str(text).map_err(SetError::Json)?;
        if set.format != FORMAT || set.version != VERSION {
            return Err(SetError::Format(format!(
                "expected format {FORMAT} version {VERSION}, found {} version {}",
                set.format, set.version
            )));
        }
        let mut ids = HashSet::with_capacity(set.puzzles.len());
        for puzzle in &set.puzzles {
            if puzzle.id.is_empty() {
                return Err(SetError::EmptyId);
            }
            if !ids.insert(puzzle.id.as_str()) {
                return Err(SetError::DuplicateId(puzzle.id.clone()));
            }
            let wrong = if puzzle.preset == set.preset {
                puzzle.solution_move().err()
            } else {
                Some(PuzzleError::Position(format!(
                    "played under {}, in a set for {}",
                    puzzle.preset, set.preset
                )))
            };
            if let Some(error) = wrong {
                return Err(SetError::Puzzle {
                    id: puzzle.id.clone(),
                    error,
                });
            }
        }
        Ok(set)
    }

    /// The set as JSON, one puzzle to a line.
    pub fn to_json(&self) -> String {
        let lines: Vec<String> = self
            .puzzles
            .iter()
            .map(|p| serde_json::to_string(p).unwrap_or_default())
            .collect();
        format!(
            "{{\"format\":\"{FORMAT}\",\"version\":{VERSION},\"preset\":\"{}\",\"puzzles\":[\n{}\n]}}\n",
            self.preset,
            lines.join(",\n")
        )
    }
}

/// The puzzles shipped for `preset`, as JSON.
pub const fn shipped_json(preset: Preset) -> &'static str {
    match preset {
        Preset::Standard => include_str!("../../assets/puzzles/standard.json"),
        Preset::Walker => include_str!("../../assets/puzzles/walker.json"),
        Preset::Nielsen => include_str!("../../assets/puzzles/nielsen.json"),
        Preset::Fellhuhn => include_str!("../../assets/puzzles/fellhuhn.json"),
        Preset::OpenTafl => include_str!("../../assets/puzzles/opentafl.json"),
    }
}

/// The puzzles shipped for `preset`.
pub fn shipped(preset: Preset) -> Result<PuzzleSet, SetError> {
    PuzzleSet::from_json(shipped_json(preset))
}
