//! Side lines in the JSON save: the field `side_lines` of a game and of every side line, a
//! list of lines, each played instead of the move at index `at` of its parent line.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::game::ply_analysis::{AnalysisError, SavedPly};
use crate::game::record::{comment_text, fits_result, is_off_board};
use crate::game::side_line::{MAX_LINE_DEPTH, Node, SideLine};
use crate::rules::{GameState, Move, MoveError, Outcome};

/// A side line as saved.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "SideLine")]
pub(in crate::game) struct SavedLine {
    /// The index (from 0) in the parent line's `moves` of the move this line is played
    /// instead of.
    at: usize,
    /// The line's moves, at least one, in the notation of the game's `moves`.
    moves: Vec<String>,
    /// Optional comments on the line's moves, aligned with `moves` (`null` where none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    comments: Option<Vec<Option<String>>>,
    /// Optional analysis of the line's moves, aligned with `moves` (`null` where none), as
    /// the game's `analysis`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    analysis: Option<Vec<Option<SavedPly>>>,
    /// Optional side lines of this line, each played instead of one of its moves. Side lines
    /// nest at most 16 deep.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    side_lines: Vec<SavedLine>,
    /// The ending off the board the line's moves had when they were the game's (a
    /// resignation, a loss on time, an agreement), as the game's `result`; it is the game's
    /// result again when they are promoted back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::game::save::result_schema")]
    result: Option<Outcome>,
}

/// The side lines of a line as saved, from the side lines played instead of each of its
/// moves.
pub(in crate::game) fn saved_lines<'a>(
    sides: impl Iterator<Item = &'a [SideLine]>,
) -> Vec<SavedLine> {
    sides
        .enumerate()
        .flat_map(|(at, lines)| lines.iter().map(move |line| SavedLine::of(at, line)))
        .collect()
}

impl SavedLine {
    fn of(at: usize, line: &SideLine) -> SavedLine {
        let nodes = &line.nodes;
        SavedLine {
            at,
            moves: nodes.iter().map(|n| n.mv.to_string()).collect(),
            comments: nodes
                .iter()
                .any(|n| n.comment.is_some())
                .then(|| nodes.iter().map(|n| n.comment.clone()).collect()),
            analysis: nodes.iter().any(|n| n.analysis.is_some()).then(|| {
                nodes
                    .iter()
                    .map(|n| n.analysis.as_ref().map(SavedPly::from))
                    .collect()
            }),
            side_lines: saved_lines(nodes.iter().map(|n| n.sides.as_slice())),
            result: line.ending,
        }
    }

    /// The moves of this line and of every line under it.
    pub(in crate::game) fn move_count(&self) -> usize {
        self.moves.len() + self.side_lines.iter().map(Self::move_count).sum::<usize>()
    }
}

/// What is wrong with a saved side line.
#[derive(Debug)]
pub enum SideLineError {
    /// `at` is past the moves of its parent line.
    PastTheEnd {
        /// The index given.
        at: usize,
        /// The moves of the parent line.
        moves: usize,
    },
    /// The line has no moves.
    Empty,
    /// A move cannot be played there (or its annotation is wrong).
    Move {
        /// The move as written.
        text: String,
        /// What is wrong with it.
        error: MoveError,
    },
    /// `comments` does not have one entry per move of the line.
    Comments {
        /// Entries in `comments`.
        comments: usize,
        /// Moves of the line.
        moves: usize,
    },
    /// `analysis` does not have one entry per move of the line.
    AnalysisLength {
        /// Entries in `analysis`.
        entries: usize,
        /// Moves of the line.
        moves: usize,
    },
    /// The analysis of a move is wrong.
    Analysis(AnalysisError),
    /// Side lines nested deeper than [`MAX_LINE_DEPTH`].
    TooDeep,
    /// The line repeats the game's moves to its end and goes on: the game's moves are not
    /// lengthened on load. (A line that repeats its parent's moves otherwise is merged into
    /// it.)
    RepeatsPastTheEnd,
    /// `result` is no ending off the board that fits (or the moves end the game already).
    Result(Outcome),
}

impl fmt::Display for SideLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::PastTheEnd { at, moves } => write!(
                f,
                "\"at\" is {at}, but its parent line has {moves} moves (at counts from 0)"
            ),
            Self::Empty => f.write_str("a side line has at least one move"),
            Self::Move { text, error } => {
                write!(f, "\"{}\": {error}", crate::quote::excerpt(text))
            }
            Self::Comments { comments, moves } => write!(
                f,
                "comments: {comments} entries for {moves} moves (one per move, null where none)"
            ),
            Self::AnalysisLength { entries, moves } => write!(
                f,
                "analysis: {entries} entries for {moves} moves (one per move, null where none)"
            ),
            Self::Analysis(e) => write!(f, "analysis: {e}"),
            Self::TooDeep => write!(f, "side lines nest at most {MAX_LINE_DEPTH} deep"),
            Self::RepeatsPastTheEnd => {
                f.write_str("it repeats the game's moves past its last move")
            }
            Self::Result(outcome) => write!(
                f,
                "result \"{outcome}\": a side line keeps only a resignation, a loss on time or \
                 a draw agreed or adjudicated, with or without a winner as it has one, after \
                 moves that do not end the game"
            ),
        }
    }
}

/// A problem in a saved side line, and the number (from 1, counted from the start of the
/// game) of the move it concerns.
type Located = (usize, SideLineError);

/// Reads the side lines `saved` of a line whose moves are `line`, played from `state` (left
/// as it was): the side lines played instead of each move. `before` is the number of moves
/// from the start to the line's first move; `depth` how deep the line is nested (0 for the
/// main line).
pub(in crate::game) fn restore_sides(
    state: &mut GameState,
    line: &[Move],
    saved: Vec<SavedLine>,
    before: usize,
    depth: usize,
) -> Result<Vec<Vec<SideLine>>, Located> {
    let mut by_move: Vec<Vec<SavedLine>> = line.iter().map(|_| Vec::new()).collect();
    for side in saved {
        let moves = line.len();
        let Some(slot) = by_move.get_mut(side.at) else {
            return Err((before + 1, SideLineError::PastTheEnd { at: side.at, moves }));
        };
        if depth >= MAX_LINE_DEPTH {
            return Err((before + side.at + 1, SideLineError::TooDeep));
        }
        slot.push(side);
    }
    let mut out = Vec::with_capacity(line.len());
    for (i, (mv, sides)) in line.iter().zip(by_move).enumerate() {
        let here = sides
            .into_iter()
            .map(|side| restore_line(state, side, before + i, depth + 1))
            .collect::<Result<Vec<_>, _>>()?;
        out.push(here);
        state.play_unchecked(*mv);
    }
    for _ in line {
        state.undo();
    }
    Ok(out)
}

/// Reads one side line played from `state` (left as it was), `before` moves from the start.
fn restore_line(
    state: &mut GameState,
    saved: SavedLine,
    before: usize,
    depth: usize,
) -> Result<SideLine, Located> {
    let moves = saved.moves.len();
    if moves == 0 {
        return Err((before + 1, SideLineError::Empty));
    }
    let comments = saved.comments.unwrap_or_else(|| vec![None; moves]);
    if comments.len() != moves {
        let comments = comments.len();
        return Err((before + 1, SideLineError::Comments { comments, moves }));
    }
    let analysis = match saved.analysis {
        Some(a) if a.len() != moves => {
            let entries = a.len();
            return Err((before + 1, SideLineError::AnalysisLength { entries, moves }));
        }
        Some(a) => a,
        None => (0..moves).map(|_| None).collect(),
    };
    let mut nodes = Vec::with_capacity(moves);
    let mut failed = None;
    for (j, ((text, comment), analysis)) in saved
        .moves
        .into_iter()
        .zip(comments)
        .zip(analysis)
        .enumerate()
    {
        let number = before + j + 1;
        let checked = analysis.map(|a| a.check(state)).transpose();
        let checked = match checked {
            Ok(checked) => checked,
            Err(e) => {
                failed = Some((number, SideLineError::Analysis(e)));
                break;
            }
        };
        match state.play_text(&text) {
            Ok(done) => nodes.push(Node {
                mv: done,
                comment: comment_text(comment),
                analysis: checked,
                sides: Vec::new(),
            }),
            Err(error) => {
                failed = Some((number, SideLineError::Move { text, error }));
                break;
            }
        }
    }
    let ending_fits = saved.result.is_none_or(|r| {
        is_off_board(r.reason) && fits_result(r.reason, r.winner.is_some()) && !state.is_over()
    });
    for _ in &nodes {
        state.undo();
    }
    if let Some(failed) = failed {
        return Err(failed);
    }
    if let (false, Some(result)) = (ending_fits, saved.result) {
        return Err((before + moves, SideLineError::Result(result)));
    }
    let line: Vec<Move> = nodes.iter().map(|n| n.mv.mv).collect();
    let sides = restore_sides(state, &line, saved.side_lines, before, depth)?;
    for (node, sides) in nodes.iter_mut().zip(sides) {
        node.sides = sides;
    }
    Ok(SideLine {
        nodes,
        ending: saved.result,
    })
}
