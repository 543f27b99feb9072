//! The game record: rules, start, moves, players, result and timestamps, with undo and redo.

use std::fmt;
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::chat::{ChatLine, check_chat};
use super::clock::Clocks;
use super::player::Player;
use super::ply_analysis::{AnalysisError, PlyAnalysis, SavedPly, Summary};
use super::side_line::SideLine;
use super::tags::{Tag, Tags};
use super::time::Timestamp;
use crate::rules::{
    AnnotatedMove, Bitboard, EndMark, GameState, IllegalMove, Move, MoveError, Outcome, Position,
    Preset, Reason, Rules, Side,
};

/// Who plays each side.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Players {
    /// Who plays the attackers.
    pub attackers: Player,
    /// Who plays the defenders.
    pub defenders: Player,
}

impl Players {
    /// Who plays `side`.
    pub const fn side(self, side: Side) -> Player {
        match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders,
        }
    }
}

impl fmt::Display for Players {
    /// `human vs ai:hard` (attackers first).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} vs {}", self.attackers, self.defenders)
    }
}

/// A game at one ply: the position after that many moves and the move that led to it, with
/// everything it took, as a review of the game shows it.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Ply {
    /// The moves played to reach `position` (0 at the start).
    pub number: usize,
    /// The position after them.
    pub position: Position,
    /// The move that led here, annotated (`None` at the start).
    pub played: Option<AnnotatedMove>,
    /// The squares whose pieces that move captured, the king's included (he is not among
    /// the annotated captures: `++` marks him).
    pub captured: Bitboard,
}

impl Ply {
    /// The side that played the move leading here (`None` at the start).
    pub fn mover(&self) -> Option<Side> {
        self.played.map(|_| self.position.side_to_move().opponent())
    }
}

/// Whether a game can end this way by a decision outside the board (resignation, a loss on
/// time, agreement, adjudication, an online game abandoned, a result as another program's
/// record gives it) rather than by a move.
pub(super) const fn is_off_board(reason: Reason) -> bool {
    matches!(
        reason,
        Reason::Resignation
            | Reason::Time
            | Reason::Agreement
            | Reason::Adjudicated
            | Reason::Abandoned
            | Reason::Aborted
            | Reason::Recorded
    )
}

/// Whether an ending off the board fits a result with a winner (`won`) or a draw: a
/// resignation, a loss on time or an abandoned game has a winner, an agreed or adjudicated
/// draw has none, a result as recorded may have either.
pub(super) const fn fits_result(reason: Reason, won: bool) -> bool {
    match reason {
        Reason::Resignation | Reason::Time | Reason::Abandoned => won,
        Reason::Recorded => true,
        _ => !won,
    }
}

/// A comment as kept: `None` for none or only white space.
pub(super) fn comment_text(comment: Option<String>) -> Option<String> {
    comment.filter(|text| !text.trim().is_empty())
}

/// An undone move, with what the record kept on it, for redo.
#[derive(Clone, Eq, PartialEq, Debug)]
struct Undone {
    mv: Move,
    comment: Option<String>,
    analysis: Option<PlyAnalysis>,
    sides: Vec<SideLine>,
}

/// A game is over already, so it cannot be ended again.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct AlreadyOver(pub Outcome);

impl fmt::Display for AlreadyOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the game is already over ({})", self.0)
    }
}

impl std::error::Error for AlreadyOver {}

/// A lesson as saved: `at` and whether it is solved (the best move is the analysis's).
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SavedLesson {
    /// The index (from 0) in `moves` of a move the analysis classes as a mistake or a
    /// blunder: the puzzle is its position, to find a better move.
    pub at: usize,
    /// Whether the player has found a good move there since.
    pub solved: bool,
}

/// A game record: the rules, the start position, the moves with the exact repetition history,
/// a comment on any move (and one before the first), who plays each side, the result, when
/// it was created and last changed, and a redo tail.
///
/// ```
/// use brandubh::game::{Game, Player};
/// use brandubh::rules::{Position, Preset};
///
/// let mut game = Game::new(Preset::Standard.rules(), Position::start(), Player::Human, Player::Human);
/// game.play_text("d2-c2").unwrap();
/// assert!(game.undo());
/// assert!(game.redo());
/// assert_eq!(game.moves().len(), 1);
/// let copy = Game::from_json(&game.to_json()).unwrap();
/// assert_eq!(copy.state(), game.state());
/// ```
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct Game {
    state: GameState,
    pub(super) moves: Vec<AnnotatedMove>,
    /// The analysis of each move, aligned with `moves` (`None` where not analyzed).
    pub(super) analysis: Vec<Option<PlyAnalysis>>,
    /// The comment on each move, aligned with `moves`.
    pub(super) comments: Vec<Option<String>>,
    /// The comment before the first move.
    start_comment: Option<String>,
    /// The side lines played instead of each move, aligned with `moves` (see `tree`).
    pub(super) sides: Vec<Vec<SideLine>>,
    /// Undone moves with their comments and analyses, the next one to redo last.
    redo: Vec<Undone>,
    players: Players,
    /// The players' names and the event, site, date and annotator, from another program's
    /// record.
    tags: Tags,
    /// The clocks, if the game is played on a time control.
    clocks: Option<Clocks>,
    /// The personal puzzles made of its mistakes (see `lesson`).
    pub(super) lessons: Vec<SavedLesson>,
    /// The chat of the online game it records (see `chat`).
    pub(super) chat: Vec<ChatLine>,
    created: Timestamp,
    updated: Timestamp,
}

impl Game {
    /// A new game under `rules` from `start`, created now. The rules are saved by preset name
    /// when they are exactly a preset's parameters (see [`Game::preset`]).
    pub fn new(rules: Rules, start: Position, attackers: Player, defenders: Player) -> Game {
        Game::from_parts(
            GameState::new(rules, start),
            Players {
                attackers,
                defenders,
            },
        )
    }

    /// A game with no moves yet, created now (loading builds games this way).
    pub(super) fn from_parts(state: GameState, players: Players) -> Game {
        let now = Timestamp::now();
        Game {
            state,
            moves: Vec::new(),
            analysis: Vec::new(),
            comments: Vec::new(),
            start_comment: None,
            sides: Vec::new(),
            redo: Vec::new(),
            players,
            tags: Tags::default(),
            clocks: None,
            lessons: Vec::new(),
            chat: Vec::new(),
            created: now,
            updated: now,
        }
    }

    /// Sets when the game was created and last changed (loading restores them this way).
    pub(super) const fn set_timestamps(&mut self, created: Timestamp, updated: Timestamp) {
        self.created = created;
        self.updated = updated;
    }

    /// The current state: position, rules, repetition history and outcome.
    pub const fn state(&self) -> &GameState {
        &self.state
    }

    /// The rules of the game.
    pub const fn rules(&self) -> &Rules {
        self.state.rules()
    }

    /// The preset the rules are exactly equal to, if any.
    pub fn preset(&self) -> Option<Preset> {
        self.state.rules().preset()
    }

    /// The moves played so far, annotated.
    pub fn moves(&self) -> &[AnnotatedMove] {
        &self.moves
    }

    /// The comment on each move, aligned with [`Game::moves`] (`None` where there is none).
    pub fn comments(&self) -> &[Option<String>] {
        &self.comments
    }

    /// The comment before the first move, if any.
    pub fn start_comment(&self) -> Option<&str> {
        self.start_comment.as_deref()
    }

    /// Sets or removes (`None`, or only white space) the comment on move `index` (0 for the
    /// first move). Returns false, changing nothing, when there is no such move.
    pub fn set_comment(&mut self, index: usize, comment: Option<String>) -> bool {
        let Some(slot) = self.comments.get_mut(index) else {
            return false;
        };
        *slot = comment_text(comment);
        self.touch();
        true
    }

    /// Sets or removes the comment before the first move.
    pub fn set_start_comment(&mut self, comment: Option<String>) {
        self.start_comment = comment_text(comment);
        self.touch();
    }

    /// The game after its first `number` moves (0: the start position), or `None` past the
    /// last move. Reading a ply changes nothing: the game stays as it is.
    pub fn at_ply(&self, number: usize) -> Option<Ply> {
        let history = self.state.history();
        let position = *history.get(number)?;
        let Some(before) = number.checked_sub(1) else {
            return Some(Ply {
                number,
                position,
                played: None,
                captured: Bitboard::EMPTY,
            });
        };
        let played = *self.moves.get(before)?;
        let king_taken = if played.mark == Some(EndMark::KingCaptured) {
            history[before].king()
        } else {
            None
        };
        Some(Ply {
            number,
            position,
            played: Some(played),
            captured: king_taken.map_or(played.captured, |k| played.captured.with(k)),
        })
    }

    /// Who plays each side.
    pub const fn players(&self) -> Players {
        self.players
    }

    /// Changes who plays `side` (for example to let the AI take over).
    /// A name the game's tags give that side is dropped when the player changes: it named
    /// the player before.
    pub fn set_player(&mut self, side: Side, player: Player) {
        let seat = match side {
            Side::Attackers => &mut self.players.attackers,
            Side::Defenders => &mut self.players.defenders,
        };
        if *seat != player {
            *seat = player;
            self.tags.remove(Tag::name_of(side));
        }
        self.touch();
    }

    /// The players' names and the event, site, date and annotator a record gave the game.
    pub const fn tags(&self) -> &Tags {
        &self.tags
    }

    /// The chat of the online game it records, oldest first.
    pub fn chat(&self) -> &[ChatLine] {
        &self.chat
    }

    /// Keeps `lines` as the game's chat, or says why they cannot be kept (too many, or a
    /// line beyond its bounds).
    pub fn set_chat(&mut self, lines: Vec<ChatLine>) -> Result<(), String> {
        check_chat(&lines)?;
        self.chat = lines;
        Ok(())
    }

    /// Replaces the game's tags.
    pub fn set_tags(&mut self, tags: Tags) {
        self.tags = tags;
        self.touch();
    }

    /// The outcome once the game is over: on the board, or by resignation, agreement or
    /// adjudication.
    pub const fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }

    /// When the game was created.
    pub const fn created(&self) -> Timestamp {
        self.created
    }

    /// Sets when the game was created (a record rebuilt from elsewhere, such as a server's
    /// finished game, keeps the day it was played, not the day it was rebuilt); a last
    /// change before it is moved up to it.
    pub fn set_created(&mut self, created: Timestamp) {
        self.created = created;
        self.updated = self.updated.max(created);
    }

    /// When the game last changed (a move, an undo or redo, an ending, a change of player).
    pub const fn updated(&self) -> Timestamp {
        self.updated
    }

    pub(super) fn touch(&mut self) {
        self.updated = Timestamp::now().max(self.created);
    }

    /// Appends a move already played on the state with its comment, analysis and side lines;
    /// `keep_redo` says whether it came from the redo tail.
    fn record(&mut self, done: AnnotatedMove, undone: Option<Undone>) -> AnnotatedMove {
        let keep_redo = undone.is_some();
        let (comment, analysis, sides) = undone.map_or((None, None, Vec::new()), |u| {
            (u.comment, u.analysis, u.sides)
        });
        self.moves.push(done);
        self.comments.push(comment);
        self.analysis.push(analysis);
        self.sides.push(sides);
        if !keep_redo {
            self.redo.clear();
            // A move played (not one played again): the mover's increment or fresh period.
            let mover = self.state.position().side_to_move().opponent();
            if let Some(clocks) = self.clocks.as_mut() {
                clocks.moved(mover);
            }
        }
        self.touch();
        done
    }

    /// Plays a legal move and returns it annotated; it discards the redo tail. An illegal
    /// move changes nothing.
    pub fn play(&mut self, mv: Move) -> Result<AnnotatedMove, IllegalMove> {
        let done = self.state.play(mv)?;
        Ok(self.record(done, None))
    }

    /// Plays a move written as text (annotations are checked); it discards the redo tail.
    pub fn play_text(&mut self, text: &str) -> Result<AnnotatedMove, MoveError> {
        let done = self.state.play_text(text)?;
        Ok(self.record(done, None))
    }

    /// Whether [`Game::undo`] would do something.
    pub fn can_undo(&self) -> bool {
        !self.moves.is_empty() || self.outcome().is_some_and(|o| is_off_board(o.reason))
    }

    /// Whether [`Game::redo`] would do something.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty() && !self.state.is_over()
    }

    /// Takes back the last action: a resignation, agreed draw or adjudication if the game
    /// ended so, otherwise the last move (which goes to the redo tail). Returns whether
    /// anything was taken back.
    pub fn undo(&mut self) -> bool {
        if self.outcome().is_some_and(|o| is_off_board(o.reason)) {
            self.reopen();
        } else {
            let Some(last) = self.moves.pop() else {
                return false;
            };
            let comment = self.comments.pop().flatten();
            self.state.undo();
            self.redo.push(Undone {
                mv: last.mv,
                comment,
                analysis: self.analysis.pop().flatten(),
                sides: self.sides.pop().unwrap_or_default(),
            });
        }
        self.touch();
        true
    }

    /// Replays the last undone move. Returns whether there was one to replay.
    pub fn redo(&mut self) -> bool {
        if self.state.is_over() {
            return false;
        }
        let Some(mv) = self.redo.last().map(|undone| undone.mv) else {
            return false;
        };
        if let Ok(done) = self.state.play(mv) {
            let undone = self.redo.pop();
            self.record(done, undone);
            true
        } else {
            // The tail was recorded from this very position, so this does not happen; if
            // it did, the stale tail is dropped rather than replayed.
            self.redo.clear();
            false
        }
    }

    /// The analysis of each move, aligned with [`Game::moves`] (`None` where a move is not
    /// analyzed). Undo keeps a move's analysis with it for redo; a new move starts without.
    pub fn analysis(&self) -> &[Option<PlyAnalysis>] {
        &self.analysis
    }

    /// Records the analysis of the move at index `ply` (from 0), replacing any. It is checked
    /// as loading checks a saved one: scores in range, the best move and the line legal in
    /// the position the move was played from, with their annotations right; the line is cut
    /// after [`super::MAX_LINE_PLIES`] moves.
    pub fn set_analysis(
        &mut self,
        ply: usize,
        analysis: &PlyAnalysis,
    ) -> Result<(), AnalysisError> {
        if ply >= self.moves.len() {
            return Err(AnalysisError::NoSuchPly {
                ply,
                plies: self.moves.len(),
            });
        }
        let mut state = GameState::new(*self.rules(), *self.state.start_position());
        for done in &self.moves[..ply] {
            state.play_unchecked(done.mv);
        }
        self.analysis[ply] = Some(SavedPly::from(analysis).check(&mut state)?);
        self.touch();
        Ok(())
    }

    /// Sets the analysis of every move from a saved one (one entry per move), checking each
    /// against its position; on a problem, the index of the move and the problem.
    pub(super) fn restore_analysis(
        &mut self,
        saved: Vec<Option<SavedPly>>,
    ) -> Result<(), (usize, AnalysisError)> {
        let mut state = GameState::new(*self.rules(), *self.state.start_position());
        let mut analysis = Vec::with_capacity(saved.len());
        for (i, (entry, done)) in saved.into_iter().zip(&self.moves).enumerate() {
            let checked = entry.map(|e| e.check(&mut state)).transpose();
            analysis.push(checked.map_err(|e| (i, e))?);
            state.play_unchecked(done.mv);
        }
        analysis.resize(self.moves.len(), None);
        self.analysis = analysis;
        Ok(())
    }

    /// Both sides' summaries of the analysis so far.
    pub fn analysis_summary(&self) -> Summary {
        Summary::new(
            self.state.start_position().side_to_move(),
            self.analysis.iter().map(Option::as_ref),
        )
    }

    /// Puts `state` in place of the game's, its moves already recorded (a new main line);
    /// the redo tail goes.
    pub(super) fn replace_state(&mut self, state: GameState) {
        self.state = state;
        self.redo.clear();
    }

    /// Removes an off-board ending, leaving the game as it was before it.
    fn reopen(&mut self) {
        self.state = match self.moves.last() {
            Some(last) => {
                // Replaying the last move recomputes the board outcome: none, since the
                // game went on after it.
                let mut reopened = self.state.clone();
                reopened.undo();
                reopened.play_unchecked(last.mv);
                reopened
            }
            None => GameState::new(*self.state.rules(), *self.state.start_position()),
        };
    }

    /// Ends the game by a decision outside the board; discards the redo tail.
    pub(super) fn conclude(&mut self, outcome: Outcome) -> Result<(), AlreadyOver> {
        if let Some(done) = self.outcome() {
            return Err(AlreadyOver(done));
        }
        self.state.conclude(outcome);
        self.redo.clear();
        self.touch();
        Ok(())
    }

    /// `side` resigns: the other side wins.
    pub fn resign(&mut self, side: Side) -> Result<(), AlreadyOver> {
        self.conclude(Outcome::win(side.opponent(), Reason::Resignation))
    }

    /// Both players agree to a draw.
    pub fn agree_draw(&mut self) -> Result<(), AlreadyOver> {
        self.conclude(Outcome::draw(Reason::Agreement))
    }

    /// The clocks, if the game is played on a time control.
    pub const fn clocks(&self) -> Option<&Clocks> {
        self.clocks.as_ref()
    }

    /// Plays the game on `clocks` from now on (a new game's full clocks, or a saved game's).
    pub const fn set_clocks(&mut self, clocks: Clocks) {
        self.clocks = Some(clocks);
    }

    /// Runs the clock of the side to move for `elapsed`; if its flag falls, the game ends, lost
    /// on time. Returns whether it did. Nothing runs in a game that is over or has no clocks.
    pub fn spend_time(&mut self, elapsed: Duration) -> bool {
        let side = self.state.position().side_to_move();
        let fell = match self.clocks.as_mut() {
            Some(clocks) if self.state.outcome().is_none() => clocks.spend(side, elapsed),
            _ => false,
        };
        fell && self.lose_on_time(side).is_ok()
    }

    /// `side` runs out of time: the other side wins.
    pub fn lose_on_time(&mut self, side: Side) -> Result<(), AlreadyOver> {
        self.conclude(Outcome::win(side.opponent(), Reason::Time))
    }

    /// `side` left an online game and did not come back in time: the game ends, lost.
    pub fn abandon(&mut self, side: Side) -> Result<(), AlreadyOver> {
        self.conclude(Outcome::win(side.opponent(), Reason::Abandoned))
    }

    /// An online game is stopped before both players had moved: no winner.
    pub fn abort(&mut self) -> Result<(), AlreadyOver> {
        self.conclude(Outcome::draw(Reason::Aborted))
    }

    /// A match runner stops the game as a draw (for example at its ply cap).
    pub fn adjudicate_draw(&mut self) -> Result<(), AlreadyOver> {
        self.conclude(Outcome::draw(Reason::Adjudicated))
    }

    /// Ends the game as another program says it ended off the board (a server's result): a
    /// resignation, time, an abandonment, an agreement or an abort as such; any other reason the board
    /// did not reach is taken as an adjudicated draw.
    pub fn end_as_told(&mut self, outcome: Outcome) -> Result<(), AlreadyOver> {
        match (outcome.reason, outcome.winner) {
            (Reason::Resignation, Some(winner)) => self.resign(winner.opponent()),
            (Reason::Time, Some(winner)) => self.lose_on_time(winner.opponent()),
            (Reason::Abandoned, Some(winner)) => self.abandon(winner.opponent()),
            (Reason::Agreement, _) => self.agree_draw(),
            (Reason::Aborted, _) => self.abort(),
            _ => self.adjudicate_draw(),
        }
    }

    /// One line: players, rules, plies and result, e.g.
    /// `human vs ai:hard, standard, 34 plies, attackers king-captured`.
    pub fn summary(&self) -> String {
        let rules = self.rules().name();
        let plies = self.moves.len();
        let result = self
            .outcome()
            .map_or_else(|| "ongoing".to_owned(), |o| o.to_string());
        let unit = if plies == 1 { "ply" } else { "plies" };
        format!("{}, {rules}, {plies} {unit}, {result}", self.players)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::player::{EngineKind, Level};

    fn game() -> Game {
        Game::new(
            Preset::Standard.rules(),
            Position::start(),
            Player::Human,
            Player::Ai {
                engine: EngineKind::Search,
                level: Level::Hard,
                time: None,
            },
        )
    }

    #[test]
    fn undo_and_redo_walk_the_moves() {
        let mut g = game();
        assert!(!g.can_undo() && !g.can_redo() && !g.undo() && !g.redo());
        g.play_text("d2-c2").unwrap();
        g.play_text("d3-e3").unwrap();
        let after_two = g.state().clone();
        assert!(g.undo() && g.undo());
        assert_eq!(g.state(), &GameState::start(Preset::Standard.rules()));
        assert!(!g.can_undo() && g.can_redo());
        assert!(g.redo());
        assert_eq!(g.moves().len(), 1);
        assert!(g.redo() && !g.redo());
        assert_eq!(g.state(), &after_two);
        assert_eq!(
            g.moves()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            ["d2-c2", "d3-e3"]
        );
    }

    #[test]
    fn comments_stay_with_their_moves_through_undo_and_redo() {
        let mut g = game();
        g.play_text("d2-c2").unwrap();
        g.play_text("d3-e3").unwrap();
        assert!(g.set_comment(1, Some("the king's guard steps aside".into())));
        assert!(!g.set_comment(2, Some("no such move".into())));
        assert!(g.set_comment(0, Some("  ".into())));
        g.set_start_comment(Some("a quiet opening".into()));
        let commented = [None, Some("the king's guard steps aside".to_owned())];
        assert_eq!(g.comments(), commented);
        assert!(g.undo());
        assert_eq!(g.comments(), [None]);
        assert!(g.redo());
        assert_eq!(g.comments(), commented);
        g.undo();
        g.undo();
        assert!(g.comments().is_empty());
        g.redo();
        g.play_text("c4-c3").unwrap();
        assert_eq!(
            g.comments(),
            [None, None],
            "a new move drops the undone comment"
        );
        assert_eq!(g.start_comment(), Some("a quiet opening"));
    }

    #[test]
    fn a_new_move_discards_the_redo_tail() {
        let mut g = game();
        g.play_text("d2-c2").unwrap();
        g.play_text("d3-e3").unwrap();
        g.undo();
        g.play_text("c4-c3").unwrap();
        assert!(!g.can_redo() && !g.redo());
        assert!(g.play_text("a4-a2xd1").is_err());
        assert_eq!(g.moves().len(), 2);
    }

    #[test]
    fn resignation_and_draws_are_recorded_and_can_be_undone() {
        let mut g = game();
        g.play_text("d2-c2").unwrap();
        g.play_text("d3-e3").unwrap();
        g.undo();
        let before = g.state().clone();
        g.resign(Side::Defenders).unwrap();
        assert_eq!(
            g.outcome(),
            Some(Outcome::win(Side::Attackers, Reason::Resignation))
        );
        assert!(!g.can_redo(), "an ending discards the redo tail");
        assert_eq!(
            g.agree_draw(),
            Err(AlreadyOver(Outcome::win(
                Side::Attackers,
                Reason::Resignation
            )))
        );
        assert!(g.play_text("d3-e3").is_err());
        assert!(g.undo());
        assert_eq!(g.state(), &before);
        assert_eq!(g.moves().len(), 1);
        g.agree_draw().unwrap();
        assert_eq!(g.outcome(), Some(Outcome::draw(Reason::Agreement)));
        g.undo();
        g.undo();
        g.adjudicate_draw().unwrap();
        assert!(g.undo());
        assert_eq!(g.state(), &GameState::start(Preset::Standard.rules()));
    }

    #[test]
    fn undoing_a_winning_move_reopens_the_game() {
        let mut g = game();
        let moves = "d7-f7 d5-c5 f4-f3 d4-d5 f7-f4xe4 d5-d4 d2-b2 d4-e4 d1-d2xd3 c4-c3 \
                     d6-d5 e4-c4 b4-b5xc5 c4-c7 f4-e4 c7-a7--";
        for mv in moves.split_whitespace() {
            g.play_text(mv).unwrap();
        }
        let escaped = Outcome::win(Side::Defenders, Reason::KingEscaped);
        assert_eq!(g.outcome(), Some(escaped));
        assert_eq!(g.resign(Side::Defenders), Err(AlreadyOver(escaped)));
        assert!(g.undo());
        assert_eq!(g.outcome(), None);
        assert_eq!(
            g.state().legal_moves().len(),
            g.state().position().legal_moves().len()
        );
        assert!(g.redo());
        assert_eq!(g.outcome(), Some(escaped));
        assert!(!g.can_redo());
    }

    #[test]
    fn plies_show_each_position_with_the_move_and_all_it_took() {
        let mut g = game();
        let moves = "d1-c1 d3-b3 d2-b2xb3 d5-b5 d6-b6xb5 d4-d3 g4-g6 e4-e6 f4-f6 e6-e2 \
                     d7-f7 d3-d1 f6-f1 d1-e1xf1 f7-f1 e2-e6 c1-d1++";
        for mv in moves.split_whitespace() {
            g.play_text(mv).unwrap();
        }
        let before = g.to_json();
        let start = g.at_ply(0).unwrap();
        assert_eq!(start.position, Position::start());
        assert_eq!((start.played, start.mover()), (None, None));
        assert!(start.captured.is_empty());
        for (i, mv) in g.moves().iter().enumerate() {
            let ply = g.at_ply(i + 1).unwrap();
            assert_eq!(ply.number, i + 1);
            assert_eq!(ply.position, g.state().history()[i + 1]);
            assert_eq!(ply.played, Some(*mv));
            let side = g.state().history()[i].side_to_move();
            assert_eq!(ply.mover(), Some(side));
            if mv.mark.is_none() {
                assert_eq!(ply.captured, mv.captured);
            }
        }
        assert!(
            g.moves().iter().any(|m| !m.captured.is_empty()),
            "a soldier is taken on the way"
        );
        // The last move captured the king on e1: he is marked with the soldiers taken.
        let last = g.at_ply(17).unwrap();
        assert_eq!(last.played.unwrap().to_string(), "c1-d1++");
        assert_eq!(
            last.captured,
            "e1".parse::<crate::rules::Square>().unwrap().bit()
        );
        assert_eq!(g.at_ply(18), None);
        assert_eq!(g.to_json(), before, "reading plies changes nothing");
    }

    #[test]
    fn summary_names_players_rules_plies_and_result() {
        let mut g = game();
        assert_eq!(g.summary(), "human vs ai:hard, standard, 0 plies, ongoing");
        g.play_text("d2-c2").unwrap();
        assert_eq!(g.summary(), "human vs ai:hard, standard, 1 ply, ongoing");
        g.resign(Side::Attackers).unwrap();
        assert_eq!(
            g.summary(),
            "human vs ai:hard, standard, 1 ply, defenders resignation"
        );
        g.set_player(Side::Defenders, Player::Human);
        assert_eq!(g.players().side(Side::Defenders), Player::Human);
    }
}
