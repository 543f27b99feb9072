//! A side line of the game's tree and its nodes: each move with what the record keeps on it
//! (comment, analysis) and the side lines played instead of it.

use crate::game::ply_analysis::PlyAnalysis;
use crate::rules::{AnnotatedMove, Outcome};

/// The most side lines nested one in another (a side line of a side line ... of the main
/// line): deeper trees are refused on load and cannot be grown in review.
pub const MAX_LINE_DEPTH: usize = 16;

/// One move of a side line with what the record keeps on it, and the side lines played
/// instead of it.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct Node {
    pub(in crate::game) mv: AnnotatedMove,
    pub(in crate::game) comment: Option<String>,
    pub(in crate::game) analysis: Option<PlyAnalysis>,
    pub(in crate::game) sides: Vec<SideLine>,
}

impl Node {
    pub(in crate::game) const fn new(mv: AnnotatedMove) -> Node {
        Node {
            mv,
            comment: None,
            analysis: None,
            sides: Vec::new(),
        }
    }

    /// The move, annotated.
    pub const fn played(&self) -> AnnotatedMove {
        self.mv
    }

    /// The comment on the move, if any.
    pub fn comment(&self) -> Option<&str> {
        self.comment.as_deref()
    }

    /// The analysis of the move, if analyzed.
    pub const fn analysis(&self) -> Option<&PlyAnalysis> {
        self.analysis.as_ref()
    }

    /// The side lines played instead of this move.
    pub fn sides(&self) -> &[SideLine] {
        &self.sides
    }
}

/// A side line: one or more moves played instead of a move of its parent line, and the
/// ending off the board (a resignation, a loss on time, an agreement) its moves had when
/// they were the game's: it is the game's result again when they are promoted back.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct SideLine {
    pub(in crate::game) nodes: Vec<Node>,
    pub(in crate::game) ending: Option<Outcome>,
}

impl SideLine {
    /// A side line of `nodes`, with no ending.
    pub(in crate::game) const fn new(nodes: Vec<Node>) -> SideLine {
        SideLine {
            nodes,
            ending: None,
        }
    }

    /// The ending off the board reached at the end of the line, kept from when it was the
    /// game's line (or its parent's), if it had one.
    pub const fn ending(&self) -> Option<Outcome> {
        self.ending
    }

    /// The moves of the line, the first played instead of its parent's move.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }
}
