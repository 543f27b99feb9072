//! A game as a tree: the main line (the game's own moves, [`Game::moves`]) and side lines,
//! moves tried instead of a move of a line, each with its comments, analyses and side lines
//! of its own. A [`Place`] names a position in the tree; review walks the tree by places.
//!
//! ```
//! use brandubh::game::{Game, Place, Player};
//! use brandubh::rules::{Position, Preset};
//!
//! let mut game = Game::new(Preset::Standard.rules(), Position::start(), Player::Human, Player::Human);
//! game.play_text("d2-c2").unwrap();
//! game.play_text("d3-e3").unwrap();
//! // Another first reply opens a side line at the first ply.
//! let side = game.play_at(&Place::main(1), "c4-c3".parse().unwrap()).unwrap();
//! assert_eq!(game.moves_to(&side).unwrap().len(), 2);
//! // Promoting it makes it the game's line; the game's reply becomes the side line.
//! let promoted = game.promote(&side).unwrap();
//! assert_eq!(game.moves()[1].to_string(), "c4-c3");
//! assert_eq!(promoted, Place::main(2));
//! ```

mod merge;
mod saved;

pub use saved::SideLineError;
pub(super) use saved::{SavedLine, restore_sides, saved_lines};

use super::ply_analysis::{AnalysisError, PlyAnalysis, SavedPly};
use super::record::{Game, Ply, comment_text, is_off_board};
use super::side_line::{MAX_LINE_DEPTH, Node, SideLine};
use crate::rules::{AnnotatedMove, EndMark, GameState, IllegalMove, Move, Outcome};

/// Why a move cannot be played at a place of the tree.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum PlayAtError {
    /// The place is not in the game's tree.
    NoSuchPlace,
    /// The move is illegal there.
    Illegal(IllegalMove),
    /// A new side line there would be nested deeper than [`MAX_LINE_DEPTH`].
    TooDeep,
}

impl std::fmt::Display for PlayAtError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoSuchPlace => f.write_str("no such place in the game"),
            Self::Illegal(e) => write!(f, "{e}"),
            Self::TooDeep => write!(
                f,
                "side lines nest at most {MAX_LINE_DEPTH} deep: promote or delete one first"
            ),
        }
    }
}

impl std::error::Error for PlayAtError {}

impl From<IllegalMove> for PlayAtError {
    fn from(e: IllegalMove) -> Self {
        Self::Illegal(e)
    }
}

/// Where a side line leaves its parent line: it is played instead of the parent's move at
/// index `at` (from 0), and it is the `line`-th (from 0) of the side lines there.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Fork {
    /// The index in the parent line of the move the side line replaces.
    pub at: usize,
    /// Which of the side lines played there.
    pub line: usize,
}

/// A position in the game's tree: the side lines taken from the main line down (none for
/// the main line), then the number of moves played along the last line taken (from 1 in a
/// side line: its first move is the first move of the line).
#[derive(Clone, Eq, PartialEq, Hash, Debug, Default)]
pub struct Place {
    forks: Vec<Fork>,
    ply: usize,
}

impl Place {
    /// The main line after its first `ply` moves.
    pub const fn main(ply: usize) -> Place {
        Place {
            forks: Vec::new(),
            ply,
        }
    }

    /// The place after `ply` moves of the line reached through `forks`.
    pub const fn new(forks: Vec<Fork>, ply: usize) -> Place {
        Place { forks, ply }
    }

    /// The side lines taken, from the main line down.
    pub fn forks(&self) -> &[Fork] {
        &self.forks
    }

    /// The moves played along the last line taken.
    pub const fn ply(&self) -> usize {
        self.ply
    }

    /// Whether the place is on the main line.
    pub const fn is_main(&self) -> bool {
        self.forks.is_empty()
    }

    /// The same line after `ply` moves.
    #[must_use]
    pub fn with_ply(&self, ply: usize) -> Place {
        Place {
            forks: self.forks.clone(),
            ply,
        }
    }

    /// The place in the parent line where the last side line taken leaves it (before the
    /// move it replaces); `None` on the main line.
    pub fn parent(&self) -> Option<Place> {
        let (last, rest) = self.forks.split_last()?;
        Some(Place {
            forks: rest.to_vec(),
            ply: last.at,
        })
    }

    /// How many moves lead from the start to the place.
    pub fn depth_in_moves(&self) -> usize {
        self.forks.iter().map(|f| f.at).sum::<usize>() + self.ply
    }
}

/// A line of the tree as the moves of a side line, for walking: the main line's moves are
/// kept apart by [`Game`], so the walk starts in its side lines.
fn line_at<'a>(game: &'a Game, forks: &[Fork]) -> Option<&'a [Node]> {
    let (first, rest) = forks.split_first()?;
    let mut line = game.sides.get(first.at)?.get(first.line)?.nodes.as_slice();
    for fork in rest {
        line = line.get(fork.at)?.sides.get(fork.line)?.nodes.as_slice();
    }
    Some(line)
}

fn line_at_mut<'a>(game: &'a mut Game, forks: &[Fork]) -> Option<&'a mut Vec<Node>> {
    side_at_mut(game, forks).map(|side| &mut side.nodes)
}

/// The side line reached by `forks` (none for the main line).
fn side_at_mut<'a>(game: &'a mut Game, forks: &[Fork]) -> Option<&'a mut SideLine> {
    let (first, rest) = forks.split_first()?;
    let mut side = game.sides.get_mut(first.at)?.get_mut(first.line)?;
    for fork in rest {
        side = side.nodes.get_mut(fork.at)?.sides.get_mut(fork.line)?;
    }
    Some(side)
}

/// The side lines at index `at` of `line`, the new one, if any, at the end.
fn open_side(line: &mut [Node], at: usize, node: Node) -> Option<usize> {
    let sides = &mut line.get_mut(at)?.sides;
    sides.push(SideLine::new(vec![node]));
    Some(sides.len() - 1)
}

/// Makes side line `k` at index `at` of `line` (whose ending off the board is `ending`) the
/// line's own continuation, its ending the line's; the line's moves from `at` on become the
/// first side line there, with the line's old ending, the other side lines following.
fn promote_in(
    line: &mut Vec<Node>,
    ending: &mut Option<Outcome>,
    at: usize,
    k: usize,
) -> Option<()> {
    let siblings = &mut line.get_mut(at)?.sides;
    if k >= siblings.len() || siblings[k].nodes.is_empty() {
        return None;
    }
    let mut promoted = siblings.remove(k);
    let others = std::mem::take(siblings);
    let old = SideLine {
        nodes: line.split_off(at),
        ending: std::mem::replace(ending, promoted.ending),
    };
    let first = promoted.nodes.first_mut()?;
    first.sides = std::iter::once(old).chain(others).collect();
    line.append(&mut promoted.nodes);
    Some(())
}

/// Undoes [`promote_in`] of the side line at `fork`: the old moves, now the first side line
/// there, go back with their ending, and the line promoted back to its place among the side
/// lines.
fn demote(line: &mut Vec<Node>, ending: &mut Option<Outcome>, fork: Fork) -> Option<()> {
    promote_in(line, ending, fork.at, 0)?;
    let sides = &mut line.get_mut(fork.at)?.sides;
    let promoted = sides.remove(0);
    sides.insert(fork.line.min(sides.len()), promoted);
    Some(())
}

/// The most side lines nested one in another under `line`'s moves.
pub(super) fn nesting(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .flat_map(|n| &n.sides)
        .map(|side| 1 + nesting(&side.nodes))
        .max()
        .unwrap_or(0)
}

/// Every node of the side lines under `sides`, depth first.
pub(super) fn all_nodes<'a>(sides: &'a [SideLine]) -> Box<dyn Iterator<Item = &'a Node> + 'a> {
    Box::new(
        sides
            .iter()
            .flat_map(|side| &side.nodes)
            .flat_map(|node| std::iter::once(node).chain(all_nodes(&node.sides))),
    )
}

impl Game {
    /// The side lines played instead of each move of the main line, aligned with
    /// [`Game::moves`].
    pub fn side_lines(&self) -> &[Vec<SideLine>] {
        &self.sides
    }

    /// Whether the game has any side line.
    pub fn has_side_lines(&self) -> bool {
        self.sides.iter().any(|s| !s.is_empty())
    }

    /// Every move of the side lines, in all (the main line's not counted).
    pub fn side_moves(&self) -> usize {
        self.sides.iter().map(|s| all_nodes(s).count()).sum()
    }

    /// The comments of the side lines' moves.
    pub(super) fn side_comments(&self) -> impl Iterator<Item = &str> {
        self.sides
            .iter()
            .flat_map(|s| all_nodes(s))
            .filter_map(Node::comment)
    }

    /// Puts side lines read from a save on the main line's moves, one list per move, merging
    /// those that repeat a move (see [`merge`]). A side line that repeats the game's moves
    /// past its last move is refused: the number of the first move past the end.
    pub(super) fn set_side_lines(&mut self, sides: Vec<Vec<SideLine>>) -> Result<(), usize> {
        self.sides = sides;
        let mut main = self.take_main();
        let merged = merge::merge_repeats(&mut main, false);
        for node in main {
            self.moves.push(node.mv);
            self.comments.push(node.comment);
            self.analysis.push(node.analysis);
            self.sides.push(node.sides);
        }
        merged.map_err(|merge::PastTheEnd(at)| at + 1)
    }

    /// The most side lines nested one in another.
    pub fn side_line_depth(&self) -> usize {
        self.sides
            .iter()
            .flatten()
            .map(|side| 1 + nesting(&side.nodes))
            .max()
            .unwrap_or(0)
    }

    /// The moves of the line through `forks`, from the start to its end; `None` if there is
    /// no such line.
    pub fn line_moves(&self, forks: &[Fork]) -> Option<Vec<AnnotatedMove>> {
        let len = self.line_len(forks)?;
        self.moves_to(&Place::new(forks.to_vec(), len))
    }

    /// The number of moves of the line through `forks` (of the main line for none).
    pub fn line_len(&self, forks: &[Fork]) -> Option<usize> {
        if forks.is_empty() {
            Some(self.moves().len())
        } else {
            line_at(self, forks).map(<[Node]>::len)
        }
    }

    /// Whether `place` is in the tree.
    pub fn has_place(&self, place: &Place) -> bool {
        let min = usize::from(!place.is_main());
        self.line_len(&place.forks)
            .is_some_and(|len| (min..=len).contains(&place.ply))
    }

    /// The moves from the start to `place`, or `None` if it is not in the tree.
    pub fn moves_to(&self, place: &Place) -> Option<Vec<AnnotatedMove>> {
        if !self.has_place(place) {
            return None;
        }
        let mut moves = Vec::with_capacity(place.depth_in_moves());
        let Some((first, rest)) = place.forks.split_first() else {
            moves.extend_from_slice(&self.moves()[..place.ply]);
            return Some(moves);
        };
        moves.extend_from_slice(&self.moves()[..first.at]);
        let mut line = self.sides[first.at][first.line].nodes.as_slice();
        for fork in rest {
            moves.extend(line[..fork.at].iter().map(|n| n.mv));
            line = line[fork.at].sides[fork.line].nodes.as_slice();
        }
        moves.extend(line[..place.ply].iter().map(|n| n.mv));
        Some(moves)
    }

    /// The game state at `place` (position, repetition history, outcome on the board).
    pub fn state_at(&self, place: &Place) -> Option<GameState> {
        let mut state = GameState::new(*self.rules(), *self.state().start_position());
        for done in self.moves_to(place)? {
            state.play_unchecked(done.mv);
        }
        Some(state)
    }

    /// The game at `place` as a review shows it (see [`Game::at_ply`]).
    pub fn ply_at(&self, place: &Place) -> Option<Ply> {
        if place.is_main() {
            return self.at_ply(place.ply);
        }
        let moves = self.moves_to(place)?;
        // The position alone: a game state would look for repetitions at every move, which
        // costs the square of a long line's length.
        let rules = self.rules();
        let mut position = *self.state().start_position();
        let (last, before) = moves.split_last()?;
        for done in before {
            position.play_unchecked(done.mv, rules);
        }
        let king_taken = if last.mark == Some(EndMark::KingCaptured) {
            position.king()
        } else {
            None
        };
        position.play_unchecked(last.mv, rules);
        Some(Ply {
            number: moves.len(),
            position,
            played: Some(*last),
            captured: king_taken.map_or(last.captured, |k| last.captured.with(k)),
        })
    }

    /// The side line node of the move leading to `place` (`None` on the main line or at no
    /// place).
    fn node_at(&self, place: &Place) -> Option<&Node> {
        line_at(self, &place.forks)?.get(place.ply.checked_sub(1)?)
    }

    /// The comment on the move leading to `place` (before the first move at the start).
    pub fn comment_at(&self, place: &Place) -> Option<&str> {
        if place.is_main() {
            return match place.ply.checked_sub(1) {
                None => self.start_comment(),
                Some(i) => self.comments().get(i)?.as_deref(),
            };
        }
        self.node_at(place)?.comment()
    }

    /// Sets or removes (`None`, or only white space) the comment on the move leading to
    /// `place` (before the first move at the start). Returns false, changing nothing, at a
    /// place not in the tree.
    pub fn set_comment_at(&mut self, place: &Place, comment: Option<String>) -> bool {
        if place.is_main() {
            return match place.ply.checked_sub(1) {
                None => {
                    self.set_start_comment(comment);
                    true
                }
                Some(i) => self.set_comment(i, comment),
            };
        }
        let Some(i) = place.ply.checked_sub(1) else {
            return false;
        };
        let Some(node) = line_at_mut(self, &place.forks).and_then(|l| l.get_mut(i)) else {
            return false;
        };
        node.comment = comment_text(comment);
        self.touch();
        true
    }

    /// The analysis of the move leading to `place`, if analyzed.
    pub fn analysis_at(&self, place: &Place) -> Option<&PlyAnalysis> {
        if place.is_main() {
            return self.analysis().get(place.ply.checked_sub(1)?)?.as_ref();
        }
        self.node_at(place)?.analysis()
    }

    /// Records the analysis of the move leading to `place`, checked as
    /// [`Game::set_analysis`] checks it.
    pub fn set_analysis_at(
        &mut self,
        place: &Place,
        analysis: &PlyAnalysis,
    ) -> Result<(), AnalysisError> {
        let plies = self.line_len(&place.forks).unwrap_or(0);
        let no_such = || AnalysisError::NoSuchPly {
            ply: place.ply,
            plies,
        };
        let Some(index) = place.ply.checked_sub(1) else {
            return Err(no_such());
        };
        if place.is_main() {
            return self.set_analysis(index, analysis);
        }
        let mut state = self
            .state_at(&place.with_ply(index).normalised())
            .ok_or_else(no_such)?;
        let checked = SavedPly::from(analysis).check(&mut state)?;
        let node = line_at_mut(self, &place.forks)
            .and_then(|l| l.get_mut(index))
            .ok_or_else(no_such)?;
        node.analysis = Some(checked);
        self.touch();
        Ok(())
    }

    /// The place after the first `moves` moves from the start along the line through
    /// `forks` (a place of a parent line before the line leaves it), or `None` past the
    /// line's end or for no such line.
    pub fn place_along(&self, forks: &[Fork], moves: usize) -> Option<Place> {
        let mut before = 0;
        for (i, fork) in forks.iter().enumerate() {
            if moves <= before + fork.at {
                let place = Place::new(forks[..i].to_vec(), moves - before);
                return self.has_place(&place).then_some(place);
            }
            before += fork.at;
        }
        let place = Place::new(forks.to_vec(), moves - before);
        self.has_place(&place).then_some(place)
    }

    /// The line through `forks` as a game of its own: its moves from the start as the main
    /// line, under the same rules and players, with no comments, analyses or side lines (for
    /// an analysis of the line; see [`Game::set_line_analysis`]).
    pub fn line_game(&self, forks: &[Fork]) -> Option<Game> {
        let players = self.players();
        let mut line = Game::new(
            *self.rules(),
            *self.state().start_position(),
            players.attackers,
            players.defenders,
        );
        for done in self.line_moves(forks)? {
            line.play(done.mv).ok()?;
        }
        Some(line)
    }

    /// Records the analysis of the moves of the line through `forks`, one per move from the
    /// start (as an analysis of [`Game::line_game`] gives them), each checked as
    /// [`Game::set_analysis`] checks it. More analyses than moves are refused before any is
    /// recorded.
    pub fn set_line_analysis(
        &mut self,
        forks: &[Fork],
        plies: &[PlyAnalysis],
    ) -> Result<(), AnalysisError> {
        let places: Vec<Place> = (1..=plies.len())
            .map_while(|n| self.place_along(forks, n))
            .collect();
        if places.len() < plies.len() {
            return Err(AnalysisError::NoSuchPly {
                ply: plies.len(),
                plies: places.len(),
            });
        }
        for (place, analysis) in places.iter().zip(plies) {
            self.set_analysis_at(place, analysis)?;
        }
        Ok(())
    }

    /// The side lines that leave the line at `place` with its next move: played instead of
    /// it.
    pub fn side_lines_at(&self, place: &Place) -> &[SideLine] {
        if place.is_main() {
            return self.sides.get(place.ply).map_or(&[], Vec::as_slice);
        }
        line_at(self, &place.forks)
            .and_then(|line| line.get(place.ply))
            .map_or(&[], |node| node.sides.as_slice())
    }

    /// Plays `mv` at `place`: along the line if it is the line's next move, into a side line
    /// that starts with it, or else into a new side line there (a move at the end of a side
    /// line lengthens it; at the end of the main line, the game goes on). Returns the place
    /// after the move. An illegal move, or a side line nested deeper than
    /// [`MAX_LINE_DEPTH`], changes nothing.
    pub fn play_at(&mut self, place: &Place, mv: Move) -> Result<Place, PlayAtError> {
        let mut state = self.state_at(place).ok_or(PlayAtError::NoSuchPlace)?;
        if place.is_main() && place.ply == self.moves().len() {
            self.play(mv)?;
            return Ok(place.with_ply(place.ply + 1));
        }
        let next = if place.is_main() {
            self.moves().get(place.ply).map(|m| m.mv)
        } else {
            line_at(self, &place.forks)
                .and_then(|line| line.get(place.ply))
                .map(|n| n.mv.mv)
        };
        if next == Some(mv) {
            return Ok(place.with_ply(place.ply + 1));
        }
        let sides = self.side_lines_at(place);
        if let Some(k) = sides.iter().position(|s| s.nodes[0].mv.mv == mv) {
            let mut forks = place.forks.clone();
            forks.push(Fork {
                at: place.ply,
                line: k,
            });
            return Ok(Place::new(forks, 1));
        }
        let done = state.play(mv)?;
        let node = Node::new(done);
        if next.is_none() {
            // The end of a side line: it goes on.
            if let Some(line) = line_at_mut(self, &place.forks) {
                line.push(node);
            }
            self.touch();
            return Ok(place.with_ply(place.ply + 1));
        }
        if place.forks.len() >= MAX_LINE_DEPTH {
            return Err(PlayAtError::TooDeep);
        }
        let k = if place.is_main() {
            let sides = &mut self.sides[place.ply];
            sides.push(SideLine::new(vec![node]));
            sides.len() - 1
        } else {
            line_at_mut(self, &place.forks)
                .and_then(|line| open_side(line, place.ply, node))
                .ok_or(PlayAtError::NoSuchPlace)?
        };
        self.touch();
        let mut forks = place.forks.clone();
        forks.push(Fork {
            at: place.ply,
            line: k,
        });
        Ok(Place::new(forks, 1))
    }

    /// Makes the side line `place` is on (the last one taken) its parent's continuation,
    /// and the parent's moves from there a side line. Returns where `place`'s position is
    /// now, or `None`, changing nothing, on the main line, at a place not in the tree, or
    /// where the parent's moves would nest deeper than [`MAX_LINE_DEPTH`]. Promoting into the
    /// main line changes the game's moves: an ending off the board (a resignation, a loss on
    /// time, an agreement) belongs to the moves replaced and goes with them into their side
    /// line ([`SideLine::ending`]), and is the game's again when they are promoted back.
    pub fn promote(&mut self, place: &Place) -> Option<Place> {
        if !self.has_place(place) {
            return None;
        }
        let (last, parent) = place.forks.split_last()?;
        if parent.is_empty() {
            let mut ending = self.outcome().filter(|o| is_off_board(o.reason));
            let mut line = self.take_main();
            let promoted = promote_in(&mut line, &mut ending, last.at, last.line);
            let too_deep = promoted.is_some() && nesting(&line) > MAX_LINE_DEPTH;
            if too_deep {
                demote(&mut line, &mut ending, *last);
            }
            self.put_main(line, ending);
            if promoted.is_none() || too_deep {
                return None;
            }
        } else {
            let side = side_at_mut(self, parent)?;
            promote_in(&mut side.nodes, &mut side.ending, last.at, last.line)?;
            // The parent's old moves went one side line deeper.
            if parent.len() + nesting(&side.nodes) > MAX_LINE_DEPTH {
                demote(&mut side.nodes, &mut side.ending, *last)?;
                return None;
            }
            self.touch();
        }
        Some(Place::new(parent.to_vec(), last.at + place.ply))
    }

    /// Deletes the side line `place` is on (the last one taken), with everything in it.
    /// Returns the place in the parent line where it left it, or `None` on the main line or
    /// at a place not in the tree.
    pub fn delete_line(&mut self, place: &Place) -> Option<Place> {
        if !self.has_place(place) {
            return None;
        }
        let parent = place.parent()?;
        let last = place.forks.last()?;
        let sides = if parent.is_main() {
            self.sides.get_mut(last.at)?
        } else {
            &mut line_at_mut(self, &parent.forks)?.get_mut(last.at)?.sides
        };
        sides.remove(last.line);
        self.touch();
        Some(parent)
    }

    /// The main line as nodes, leaving the game at its start position with no moves.
    fn take_main(&mut self) -> Vec<Node> {
        let moves = std::mem::take(&mut self.moves);
        let comments = std::mem::take(&mut self.comments);
        let analysis = std::mem::take(&mut self.analysis);
        let sides = std::mem::take(&mut self.sides);
        moves
            .into_iter()
            .zip(comments)
            .zip(analysis)
            .zip(sides)
            .map(|(((mv, comment), analysis), sides)| Node {
                mv,
                comment,
                analysis,
                sides,
            })
            .collect()
    }

    /// Makes `line` the main line, replaying its moves from the start, ended by `ending` off
    /// the board where its moves do not end the game. The redo tail goes.
    fn put_main(&mut self, line: Vec<Node>, ending: Option<Outcome>) {
        let mut state = GameState::new(*self.rules(), *self.state().start_position());
        for node in line {
            // Every move of the tree was played legally from the same start.
            let Ok(done) = state.play(node.mv.mv) else {
                break;
            };
            self.moves.push(done);
            self.comments.push(node.comment);
            self.analysis.push(node.analysis);
            self.sides.push(node.sides);
        }
        if let Some(ending) = ending
            && !state.is_over()
        {
            state.conclude(ending);
        }
        self.replace_state(state);
        self.touch();
    }
}

impl Place {
    /// The same position named as simply as it can be: a place at the start of a side line
    /// (no move of it played) is its parent's place where it leaves it.
    #[must_use]
    pub fn normalised(mut self) -> Place {
        while self.ply == 0 {
            let Some(last) = self.forks.pop() else {
                break;
            };
            self.ply = last.at;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::player::Player;
    use crate::rules::{Position, Preset};

    fn game(moves: &str) -> Game {
        let mut g = Game::new(
            Preset::Standard.rules(),
            Position::start(),
            Player::Human,
            Player::Human,
        );
        for mv in moves.split_whitespace() {
            g.play_text(mv).unwrap();
        }
        g
    }

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    fn texts(moves: &[AnnotatedMove]) -> Vec<String> {
        moves.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn another_move_opens_a_side_line_and_the_same_one_walks_on() {
        let mut g = game("d2-c2 d3-e3 c2-c3");
        let before = g.clone();
        let at_one = Place::main(1);
        assert_eq!(g.play_at(&at_one, mv("d3-e3")), Ok(Place::main(2)));
        let side = g.play_at(&at_one, mv("c4-c3")).unwrap();
        assert_eq!(side.forks(), [Fork { at: 1, line: 0 }]);
        assert_eq!(side.ply(), 1);
        assert_eq!(texts(&g.moves_to(&side).unwrap()), ["d2-c2", "c4-c3"]);
        assert_eq!(g.moves().len(), 3, "the game's moves stay");
        // The same move again enters the side line rather than opening another.
        assert_eq!(g.play_at(&at_one, mv("c4-c3")), Ok(side.clone()));
        let longer = g.play_at(&side, mv("d1-d2")).unwrap();
        assert_eq!(longer, side.with_ply(2));
        // A side line of the side line.
        let nested = g.play_at(&side, mv("b4-b3")).unwrap();
        assert_eq!(nested.forks().len(), 2);
        assert_eq!(
            texts(&g.moves_to(&nested).unwrap()),
            ["d2-c2", "c4-c3", "b4-b3"]
        );
        assert_eq!(g.side_moves(), 3);
        assert_eq!(g.side_line_depth(), 2);
        assert_eq!(
            g.ply_at(&nested).unwrap().position,
            *g.state_at(&nested).unwrap().position()
        );
        assert!(g.play_at(&side, mv("a1-a7")).is_err());
        assert_eq!(g.side_moves(), 3, "an illegal move changes nothing");
        assert_eq!(g.moves(), before.moves(), "the game's own moves stay");
    }

    #[test]
    fn comments_and_analyses_stay_on_their_moves_in_side_lines() {
        let mut g = game("d2-c2 d3-e3");
        let side = g.play_at(&Place::main(1), mv("c4-c3")).unwrap();
        assert!(g.set_comment_at(&side, Some("the other guard".into())));
        assert!(g.set_comment_at(&Place::main(0), Some("before all".into())));
        assert!(!g.set_comment_at(&side.with_ply(5), Some("nowhere".into())));
        assert_eq!(g.comment_at(&side), Some("the other guard"));
        assert_eq!(g.comment_at(&Place::main(2)), None);
        assert_eq!(g.start_comment(), Some("before all"));
        assert!(g.comments().iter().all(Option::is_none));
    }

    #[test]
    fn promoting_swaps_a_side_line_with_its_parent_and_back() {
        let mut g = game("d2-c2 d3-e3 c2-c3");
        g.set_comment(1, Some("the game's reply".into()));
        let side = g.play_at(&Place::main(1), mv("c4-c3")).unwrap();
        let side = g.play_at(&side, mv("d1-d2")).unwrap();
        let before = g.clone();
        let promoted = g.promote(&side).unwrap();
        assert_eq!(promoted, Place::main(3));
        assert_eq!(texts(g.moves()), ["d2-c2", "c4-c3", "d1-d2"]);
        assert_eq!(g.state().history().len(), 4, "the state is replayed");
        let old = Place::new(vec![Fork { at: 1, line: 0 }], 2);
        assert_eq!(
            texts(&g.moves_to(&old).unwrap()),
            ["d2-c2", "d3-e3", "c2-c3"]
        );
        assert_eq!(g.comment_at(&old.with_ply(1)), Some("the game's reply"));
        // Promoting the old line back restores the game.
        assert_eq!(g.promote(&old), Some(Place::main(3)));
        assert_eq!(g.moves(), before.moves());
        assert_eq!(g.side_lines(), before.side_lines());
        assert_eq!(g.comments(), before.comments());
        assert_eq!(g.promote(&Place::main(1)), None);
    }

    #[test]
    fn promoting_inside_a_side_line_keeps_the_main_line() {
        let mut g = game("d2-c2 d3-e3");
        let side = g.play_at(&Place::main(1), mv("c4-c3")).unwrap();
        let side = g.play_at(&side, mv("d1-d2")).unwrap();
        let nested = g.play_at(&side.with_ply(1), mv("b4-b3")).unwrap();
        let up = g.promote(&nested).unwrap();
        assert_eq!(up, side.clone());
        assert_eq!(texts(g.moves()), ["d2-c2", "d3-e3"]);
        assert_eq!(
            texts(&g.moves_to(&up).unwrap()),
            ["d2-c2", "c4-c3", "b4-b3"]
        );
    }

    #[test]
    fn a_resignation_goes_with_its_moves_when_promoted_over_and_comes_back_with_them() {
        use crate::rules::{Outcome, Reason, Side};
        let mut g = game("d2-c2 d3-e3");
        let side = g.play_at(&Place::main(1), mv("c4-c3")).unwrap();
        g.set_comment_at(&side, Some("kept".into()));
        g.resign(Side::Attackers).unwrap();
        let resigned = g.outcome();
        let promoted = g.promote(&side).unwrap();
        assert_eq!(g.outcome(), None, "the new main line is unfinished");
        assert_eq!(g.comment_at(&promoted), Some("kept"));
        let old = Place::new(vec![Fork { at: 1, line: 0 }], 1);
        assert_eq!(
            g.side_lines_at(&Place::main(1))[0].ending(),
            Some(Outcome::win(Side::Defenders, Reason::Resignation))
        );
        // Promoted back, the old moves bring their result.
        assert_eq!(g.promote(&old), Some(Place::main(2)));
        assert_eq!(g.outcome(), resigned);
        // Kept through a save.
        let back = Game::from_json(&g.to_json()).unwrap();
        assert_eq!(back, g);
        let promoted = back.clone().promote(&side).map(|_| ());
        assert_eq!(promoted, Some(()));
        // Changing a side line only keeps it.
        let other = Place::new(vec![Fork { at: 1, line: 0 }], 1);
        assert!(g.set_comment_at(&other, Some("x".into())));
        assert_eq!(g.outcome(), resigned);
    }

    #[test]
    fn a_result_goes_with_a_nested_line_promoted_over_and_back() {
        use crate::rules::{Outcome, Reason, Side};
        let mut g = game("d2-c2 d3-e3 c2-c3");
        g.resign(Side::Defenders).unwrap();
        let resigned = Some(Outcome::win(Side::Attackers, Reason::Resignation));
        // The main line (with its resignation) goes into a side line...
        let side = g.play_at(&Place::main(1), mv("c4-c3")).unwrap();
        g.promote(&side).unwrap();
        let old = Place::new(vec![Fork { at: 1, line: 0 }], 2);
        assert_eq!(g.side_lines_at(&Place::main(1))[0].ending(), resigned);
        // ...and a line nested in it is promoted over its moves, and back.
        let nested = g.play_at(&old.with_ply(1), mv("c2-c1")).unwrap();
        let up = g.promote(&nested).unwrap();
        assert_eq!(up, old);
        assert_eq!(g.side_lines_at(&Place::main(1))[0].ending(), None);
        assert_eq!(g.side_lines_at(&up.with_ply(1))[0].ending(), resigned);
        assert_eq!(g.promote(&nested), Some(old.clone()));
        assert_eq!(g.side_lines_at(&Place::main(1))[0].ending(), resigned);
        // Promoted into the main line, the result is the game's again.
        assert_eq!(g.promote(&old), Some(Place::main(3)));
        assert_eq!(g.outcome(), resigned);
    }

    #[test]
    fn deleting_a_side_line_removes_it_and_what_hangs_on_it() {
        let mut g = game("d2-c2 d3-e3");
        let first = g.play_at(&Place::main(1), mv("c4-c3")).unwrap();
        g.play_at(&first, mv("b4-b3")).unwrap();
        let second = g.play_at(&Place::main(1), mv("e4-e2")).unwrap();
        assert_eq!(second.forks(), [Fork { at: 1, line: 1 }]);
        assert_eq!(g.delete_line(&first), Some(Place::main(1)));
        assert_eq!(g.side_lines_at(&Place::main(1)).len(), 1);
        assert_eq!(g.side_moves(), 1);
        assert_eq!(g.delete_line(&Place::main(1)), None);
        assert_eq!(g.delete_line(&second.with_ply(3)), None);
    }

    #[test]
    fn side_lines_go_to_the_redo_tail_with_their_move() {
        let mut g = game("d2-c2 d3-e3");
        g.play_at(&Place::main(1), mv("c4-c3")).unwrap();
        let tree = g.side_lines().to_vec();
        assert!(g.undo());
        assert!(g.redo());
        assert_eq!(g.side_lines(), tree);
    }

    /// A legal move at `place` other than the one its line goes on with, that does not end
    /// the game.
    fn another_move(g: &Game, place: &Place) -> Move {
        let next = g
            .moves_to(&place.with_ply(place.ply() + 1))
            .and_then(|m| m.last().copied());
        let state = g.state_at(place).unwrap();
        state
            .legal_moves()
            .iter()
            .copied()
            .find(|&m| {
                let mut after = state.clone();
                next.is_none_or(|n| n.mv != m) && after.play(m).is_ok() && !after.is_over()
            })
            .unwrap()
    }

    #[test]
    fn side_lines_nest_at_most_the_limit_deep_through_play_and_promotion() {
        let mut g = game("d2-c2 d3-e3 c2-c3");
        // Each line: three moves, the next one leaving it at its second move.
        let mut place = Place::main(1);
        for _ in 0..MAX_LINE_DEPTH {
            let first = g.play_at(&place, another_move(&g, &place)).unwrap();
            let second = g.play_at(&first, another_move(&g, &first)).unwrap();
            g.play_at(&second, another_move(&g, &second)).unwrap();
            place = first;
        }
        assert_eq!(g.side_line_depth(), MAX_LINE_DEPTH);
        let deepest = place.clone();
        assert_eq!(
            g.play_at(&deepest, another_move(&g, &deepest)),
            Err(PlayAtError::TooDeep)
        );
        // A line at the deepest level, left at the third move of its parent: promoting the
        // parent's sibling would push it one deeper.
        let parent = deepest.parent().unwrap();
        let third = parent.with_ply(2);
        g.play_at(&third, another_move(&g, &third)).unwrap();
        let before = g.clone();
        assert_eq!(
            g.promote(&deepest),
            None,
            "the parent's tail would nest 17 deep"
        );
        assert_eq!(g, before, "a refused promotion changes nothing");
        assert!(g.check_bounds().is_ok());
    }

    #[test]
    fn places_along_a_line_count_its_moves_from_the_start() {
        let mut g = game("d2-c2 d3-e3 c2-c3");
        let side = g.play_at(&Place::main(1), mv("c4-c3")).unwrap();
        let end = g.play_at(&side, mv("d1-d2")).unwrap();
        let forks = side.forks();
        assert_eq!(g.place_along(forks, 0), Some(Place::main(0)));
        assert_eq!(g.place_along(forks, 1), Some(Place::main(1)));
        assert_eq!(g.place_along(forks, 2), Some(side.clone()));
        assert_eq!(g.place_along(forks, 3), Some(end));
        assert_eq!(g.place_along(forks, 4), None);
        assert_eq!(g.place_along(&[], 3), Some(Place::main(3)));
        let line = g.line_game(forks).unwrap();
        assert_eq!(texts(line.moves()), ["d2-c2", "c4-c3", "d1-d2"]);
    }

    #[test]
    fn places_name_positions_simply() {
        let p = Place::new(vec![Fork { at: 3, line: 0 }, Fork { at: 2, line: 1 }], 0);
        assert_eq!(
            p.clone().normalised(),
            Place::new(vec![Fork { at: 3, line: 0 }], 2)
        );
        assert_eq!(p.depth_in_moves(), 5);
        assert_eq!(Place::main(4).parent(), None);
    }
}
