//! The puzzle trainer: a screen of the app like the others. [`Trainer::update`] takes the
//! app's [`Action`]s and returns effects (check a move on the engine's thread, remember the
//! progress, show the keys, leave); [`Trainer::render`] only draws. Pieces move as on the
//! game's board (the same [`BoardScreen`] and [`choice`]), and typed moves at the `:` prompt.

use std::sync::LazyLock;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Padding, Paragraph, Widget, Wrap};

use super::board_screen::{BoardHandled, BoardScreen, Choice, choice, selected_text};
use super::board_view::{BoardView, Marks};
use super::input::{Action, Key, KeyTable, typed_move};
use super::layout::GameLayout;
use super::panels::StatusLine;
use super::text::{Status, Tone};
use super::theme::Look;
use crate::game::{Game, Lesson, Score};
use crate::puzzle::{Attempt, Goal, Grade, MAX_MOVES, Progress, Puzzle, Verdict};
use crate::rules::{Bitboard, GameState, Move, position_record};

/// The trainer's keys, as the help overlay lists them.
pub const TRAINER_KEYS: KeyTable = KeyTable {
    keys: &[
        Key::new("arrows / h j k l", "move the cursor"),
        Key::new("Enter / Space / click", "select a piece, then move it").hinted(1, "Enter select"),
        Key::new("Esc / right click", "cancel the selection"),
        Key::new(":", "type a move, e.g. c7-a7").hinted(2, ": type"),
        Key::new("r", "retry the puzzle").hinted(5, "r retry"),
        Key::new("s", "show the answer").hinted(6, "s answer"),
        Key::new("n", "the next puzzle that fits").hinted(7, "n next"),
        Key::new("?", "these keys").hinted(3, "? help"),
        Key::new("q", "leave the trainer").hinted(4, "q back"),
    ],
    notes: &[],
};

/// The trainer's keys on the status line, when it has nothing to say: the first ones fit
/// the smallest terminal, the help (`?`) lists them all (from the trainer's key table).
pub static TRAINER_KEY_LINE: LazyLock<String> = LazyLock::new(|| TRAINER_KEYS.key_line());

/// What the trainer asks of the app.
#[derive(Clone, Debug, PartialEq)]
pub enum TrainerEffect {
    /// Judge `mv` in `state` on the engine's thread; the answer comes back to
    /// [`Trainer::judged`] with `id`.
    Check {
        /// The check's number.
        id: u64,
        /// The position before the move.
        state: Box<GameState>,
        /// The move.
        mv: Move,
        /// The puzzle's goal.
        goal: Goal,
        /// The moves left, this one included.
        moves: u8,
    },
    /// Write the progress (atomically) to the data folder.
    SaveProgress(Box<Progress>),
    /// The personal puzzle of the game's move at this index is solved.
    LessonSolved(usize),
    /// Show the trainer's keys.
    Help,
    /// Leave the trainer.
    Leave,
}

/// Where the attempt stands.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Phase {
    /// The player's turn.
    Play,
    /// A move is being checked.
    Checking(Move),
    /// Solved.
    Solved,
    /// A wrong move, and why.
    Wrong(String),
    /// The answer shown.
    Answer,
}

/// A personal puzzle: a mistake of the player's in a game (see [`Lesson`]), how it is
/// judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonPuzzle {
    /// The lesson: where in the game, the engine's best move.
    pub lesson: Lesson,
    /// The move played in the game.
    pub played: Move,
    /// When the analysis found a forced win there within [`MAX_MOVES`] of the player's
    /// moves, how many: any move the exact solver proves wins within them is accepted too.
    pub wins_in: Option<u8>,
}

impl LessonPuzzle {
    /// The personal puzzles of `game`'s `lessons`, as puzzles of its preset (`None` for
    /// custom rules: a puzzle is played under a preset).
    pub fn of_game(game: &Game, lessons: &[Lesson]) -> Option<Vec<(Puzzle, LessonPuzzle)>> {
        let preset = game.preset()?;
        let first = game.state().start_position().side_to_move();
        let made = lessons.iter().filter_map(|&lesson| {
            let ply = game.at_ply(lesson.at)?;
            let analysis = game.analysis().get(lesson.at)?.as_ref()?;
            let side = if lesson.at % 2 == 0 {
                first
            } else {
                first.opponent()
            };
            let played = game.moves().get(lesson.at)?.mv;
            let wins_in = match analysis.best_score() {
                Score::Win(plies) => u8::try_from(plies.div_ceil(2))
                    .ok()
                    .filter(|&n| (1..=MAX_MOVES).contains(&n)),
                _ => None,
            };
            let puzzle = Puzzle {
                // Numbered as the move list numbers it: two moves to a number.
                id: format!("move {}", lesson.at / 2 + 1),
                preset,
                position: position_record(&ply.position),
                side,
                goal: Goal::Win,
                moves: wins_in.unwrap_or(1),
                solution: lesson.best.to_string(),
                grade: Grade::Easy,
                rating: 0,
                tempting: 0,
                engine_depth: 0,
                source: "your game".to_owned(),
            };
            Some((
                puzzle,
                LessonPuzzle {
                    lesson,
                    played,
                    wins_in,
                },
            ))
        });
        Some(made.collect())
    }
}

/// The trainer's state.
#[derive(Clone, Debug)]
pub struct Trainer {
    puzzles: Vec<Puzzle>,
    /// For personal puzzles, each one's lesson, aligned with `puzzles` (empty for the
    /// shipped puzzles).
    lessons: Vec<LessonPuzzle>,
    index: usize,
    progress: Progress,
    state: GameState,
    moves_left: u8,
    /// The cursor, the piece selected and the `:` prompt, as on the game's board.
    board: BoardScreen,
    phase: Phase,
    last_move: Option<Move>,
    /// The puzzle's result is recorded once, at the first success or failure.
    recorded: bool,
    /// Whether the answer of this puzzle was shown (`s`): a solution played after it counts
    /// for nothing.
    revealed: bool,
    /// Whether the player has done anything yet (progress read late replaces the fresh one
    /// only until then).
    touched: bool,
    next_check: u64,
    message: Option<Status>,
}

impl Trainer {
    /// A trainer over `puzzles` (at least one, each playable) with the player's `progress`,
    /// on the puzzle that fits the player best.
    pub fn new(puzzles: Vec<Puzzle>, progress: Progress) -> Option<Trainer> {
        let index = progress.next(&puzzles)?;
        let state = puzzles[index].start().ok()?;
        let mut trainer = Trainer {
            lessons: Vec::new(),
            moves_left: puzzles[index].moves,
            board: BoardScreen::new(super::board_screen::start_cursor(state.position())),
            puzzles,
            index,
            progress,
            state,
            phase: Phase::Play,
            last_move: None,
            recorded: false,
            revealed: false,
            touched: false,
            next_check: 0,
            message: None,
        };
        trainer.restart();
        Some(trainer)
    }

    /// A trainer over the personal puzzles of a game (at least one), the first unsolved
    /// first. The player's puzzle rating does not move with them.
    pub fn of_lessons(made: Vec<(Puzzle, LessonPuzzle)>) -> Option<Trainer> {
        let first = made.iter().position(|(_, l)| !l.lesson.solved).unwrap_or(0);
        let (puzzles, lessons): (Vec<Puzzle>, Vec<LessonPuzzle>) = made.into_iter().unzip();
        let mut trainer = Trainer::new(puzzles, Progress::default())?;
        trainer.lessons = lessons;
        trainer.index = first;
        trainer.restart();
        Some(trainer)
    }

    /// The lesson on the board, for personal puzzles.
    fn lesson(&self) -> Option<&LessonPuzzle> {
        self.lessons.get(self.index)
    }

    /// Takes the player's progress as read from the data folder: the puzzle that fits it
    /// best is shown, unless the player has begun on one.
    pub fn progress_read(&mut self, progress: Progress) {
        if self.touched {
            return;
        }
        if let Some(index) = progress.next(&self.puzzles) {
            self.index = index;
        }
        self.progress = progress;
        self.restart();
    }

    /// Shows `text` (one line) in the message row until the next message; a warning if
    /// `warning`.
    pub fn note(&mut self, text: String, warning: bool) {
        let tone = if warning { Tone::Warning } else { Tone::Info };
        self.message = Some(Status { text, tone });
    }

    /// The puzzle on the board.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzles[self.index]
    }

    /// The player's progress.
    pub const fn progress(&self) -> &Progress {
        &self.progress
    }

    /// The game as it stands in the attempt.
    pub const fn state(&self) -> &GameState {
        &self.state
    }

    /// The keyboard cursor.
    pub const fn cursor(&self) -> crate::rules::Square {
        self.board.cursor
    }

    /// Whether the puzzle is solved.
    pub fn is_solved(&self) -> bool {
        self.phase == Phase::Solved
    }

    /// The message shown, if any.
    pub fn message(&self) -> Option<&str> {
        self.message.as_ref().map(|m| m.text.as_str())
    }

    /// Whether a move is being typed at the `:` prompt.
    pub const fn is_typing(&self) -> bool {
        self.board.typing.is_some()
    }

    fn restart(&mut self) {
        if let Ok(state) = self.puzzle().start() {
            self.state = state;
        }
        self.moves_left = self.puzzle().moves;
        self.board = BoardScreen::new(super::board_screen::start_cursor(self.state.position()));
        self.phase = Phase::Play;
        self.last_move = None;
        self.message = None;
    }

    /// The task in words: "Defenders to play: win in 2."
    fn task(&self) -> String {
        let p = self.puzzle();
        let side = super::text::title(p.side);
        if let Some(lesson) = self.lesson() {
            return format!("{side} to play: better than {}", lesson.played);
        }
        match p.goal {
            Goal::Win => format!("{side} to play: win in {}", p.moves),
            Goal::Hold => format!("{side} to play: hold for {}", p.moves),
        }
    }

    /// Takes `action` on a screen of `size`; returns what the app must do.
    pub fn update(&mut self, action: Action, size: Rect) -> Vec<TrainerEffect> {
        self.touched = true;
        match self.board.update(action, size, 0) {
            BoardHandled::Stay | BoardHandled::StoppedTyping => Vec::new(),
            BoardHandled::Cancelled => {
                self.message = None;
                Vec::new()
            }
            BoardHandled::Choose(sq) => self.choose(sq),
            BoardHandled::Typed(text) => self.typed(&text),
            BoardHandled::Game(action) => self.key(action),
        }
    }

    /// A key of the trainer's own.
    fn key(&mut self, action: Action) -> Vec<TrainerEffect> {
        match action {
            Action::Retry => {
                self.restart();
                Vec::new()
            }
            Action::ShowAnswer => self.show_answer(),
            Action::NextPuzzle => self.next(),
            Action::Help => vec![TrainerEffect::Help],
            Action::Quit => vec![TrainerEffect::Leave],
            _ => Vec::new(),
        }
    }

    /// Whether a move may be played now; says why not if it may not.
    fn may_move(&mut self) -> bool {
        let why = match self.phase {
            Phase::Play => return true,
            Phase::Checking(_) => "wait: the move is being checked",
            Phase::Solved => "solved: n for the next puzzle, r to play it again",
            Phase::Wrong(_) | Phase::Answer => "r to retry, n for the next puzzle",
        };
        self.note(why.to_owned(), false);
        false
    }

    /// Enter, Space or a click on `sq`: select a piece, move the selected one, or explain.
    fn choose(&mut self, sq: crate::rules::Square) -> Vec<TrainerEffect> {
        if !self.may_move() {
            return Vec::new();
        }
        match choice(&self.state, self.board.selected, sq) {
            Choice::Deselect => {
                self.board.selected = None;
                self.message = None;
                Vec::new()
            }
            Choice::Play(mv) => self.submit(mv),
            Choice::Select(sq, piece) => {
                self.board.selected = Some(sq);
                self.note(selected_text(sq, piece), false);
                Vec::new()
            }
            Choice::Refused { why, deselect } => {
                if deselect {
                    self.board.selected = None;
                }
                self.message = Some(Status {
                    text: why,
                    tone: Tone::Error,
                });
                Vec::new()
            }
        }
    }

    /// A move typed at the `:` prompt.
    fn typed(&mut self, text: &str) -> Vec<TrainerEffect> {
        let text = typed_move(text);
        if text.is_empty() || !self.may_move() {
            return Vec::new();
        }
        let checked = text
            .parse::<Move>()
            .map_err(|e| format!("\"{text}\": {e}"))
            .and_then(|mv| {
                self.state
                    .check_move(mv)
                    .map(|()| mv)
                    .map_err(|e| format!("{mv}: {e}"))
            });
        match checked {
            Ok(mv) => self.submit(mv),
            Err(why) => {
                self.message = Some(Status {
                    text: why,
                    tone: Tone::Error,
                });
                Vec::new()
            }
        }
    }

    /// Sends the legal move `mv` to be judged: a personal puzzle's best move and the move
    /// played are judged at once (see [`Trainer::judge_lesson`]).
    fn submit(&mut self, mv: Move) -> Vec<TrainerEffect> {
        self.board.selected = None;
        if let Some(verdict) = self.judge_lesson(mv) {
            self.phase = Phase::Checking(mv);
            return self.judged(self.next_check, verdict);
        }
        self.phase = Phase::Checking(mv);
        self.note(format!("{mv}: checking…"), false);
        self.next_check += 1;
        vec![TrainerEffect::Check {
            id: self.next_check,
            state: Box::new(self.state.clone()),
            mv,
            goal: self.puzzle().goal,
            moves: self.moves_left,
        }]
    }

    /// A personal puzzle's rule: the engine's best move is accepted; when the analysis found
    /// a forced win, any move the exact solver proves wins within as many moves is too (it
    /// is checked as a shipped puzzle's move is); any other move is not, since the analysis
    /// scored no other move as good. `None`: to be checked by the solver.
    fn judge_lesson(&self, mv: Move) -> Option<Verdict> {
        let lesson = self.lesson()?;
        let wrong = |why: String| {
            Some(Verdict::Wrong {
                why,
                refutation: Vec::new(),
            })
        };
        if mv == lesson.lesson.best {
            Some(Verdict::Solved)
        } else if mv == lesson.played {
            wrong("that is the move played in the game".to_owned())
        } else if lesson.wins_in.is_some() {
            None
        } else {
            wrong("the analysis scores only the engine's choice better".to_owned())
        }
    }

    /// The solver's judgement of check number `id`; returns what the app must do.
    pub fn judged(&mut self, id: u64, verdict: Verdict) -> Vec<TrainerEffect> {
        let Phase::Checking(mv) = self.phase else {
            return Vec::new();
        };
        if id != self.next_check {
            return Vec::new();
        }
        self.state.play_unchecked(mv);
        self.last_move = Some(mv);
        match verdict {
            Verdict::Solved => self.solved(mv, "solved! n: next puzzle"),
            // A personal puzzle is one move: a move that keeps the win solves it.
            Verdict::Good { .. } if self.lesson().is_some() => {
                self.solved(mv, "it wins too. Solved! n: next")
            }
            Verdict::Good { reply } => {
                self.state.play_unchecked(reply);
                self.last_move = Some(reply);
                self.moves_left = self.moves_left.saturating_sub(1);
                self.phase = Phase::Play;
                self.note(format!("{mv}: good. The reply: {reply}. Go on."), false);
                Vec::new()
            }
            Verdict::Wrong { why, .. } => {
                self.message = Some(Status {
                    text: format!("{mv}: wrong, {why}. r: retry, s: show the answer"),
                    tone: Tone::Error,
                });
                self.phase = Phase::Wrong(why);
                self.record(Attempt::Failed)
            }
        }
    }

    /// The puzzle solved by `mv`, as `said`; after the answer was shown, it counts for
    /// nothing and the note says so.
    fn solved(&mut self, mv: Move, said: &str) -> Vec<TrainerEffect> {
        self.phase = Phase::Solved;
        if self.revealed {
            self.note(
                format!("{mv}: the answer was shown, so it does not count. n: next puzzle"),
                false,
            );
            return Vec::new();
        }
        self.note(format!("{mv}: {said}"), false);
        self.record(Attempt::Solved)
    }

    fn show_answer(&mut self) -> Vec<TrainerEffect> {
        self.restart();
        self.revealed = true;
        self.phase = Phase::Answer;
        self.last_move = self.puzzle().solution.parse().ok();
        self.note(
            format!(
                "the answer: {}. r: try it, n: next puzzle",
                self.puzzle().solution
            ),
            false,
        );
        self.record(Attempt::Failed)
    }

    fn next(&mut self) -> Vec<TrainerEffect> {
        if !self.lessons.is_empty() {
            // The next one in the game's order, round to the first.
            self.index = (self.index + 1) % self.puzzles.len();
            self.recorded = false;
            self.revealed = false;
            self.restart();
            return Vec::new();
        }
        let current = self.index;
        let candidates: Vec<usize> = (0..self.puzzles.len()).filter(|&i| i != current).collect();
        let pool: Vec<Puzzle> = candidates
            .iter()
            .map(|&i| self.puzzles[i].clone())
            .collect();
        if let Some(pick) = self.progress.next(&pool) {
            self.index = candidates[pick];
        }
        self.recorded = false;
        self.revealed = false;
        self.restart();
        Vec::new()
    }

    /// Records the attempt: a shipped puzzle's first result moves the progress; a personal
    /// puzzle is solved once a good move is found, after any number of tries.
    fn record(&mut self, attempt: Attempt) -> Vec<TrainerEffect> {
        if let Some(lesson) = self.lessons.get_mut(self.index) {
            if attempt == Attempt::Failed || lesson.lesson.solved {
                return Vec::new();
            }
            lesson.lesson.solved = true;
            return vec![TrainerEffect::LessonSolved(lesson.lesson.at)];
        }
        if self.recorded {
            return Vec::new();
        }
        self.recorded = true;
        let puzzle = self.puzzles[self.index].clone();
        self.progress.record(&puzzle, attempt);
        vec![TrainerEffect::SaveProgress(Box::new(self.progress.clone()))]
    }

    /// The panel's lines.
    fn panel_lines(&self) -> Vec<Line<'static>> {
        let p = self.puzzle();
        if let Some(lesson) = self.lesson() {
            let solved = self.lessons.iter().filter(|l| l.lesson.solved).count();
            return vec![
                Line::from(format!("Your mistake at {}", p.id)),
                Line::from(self.task()),
                Line::from(""),
                Line::from(format!(
                    "{} of {} solved{}",
                    solved,
                    self.lessons.len(),
                    if lesson.lesson.solved {
                        " (this one)"
                    } else {
                        ""
                    }
                )),
            ];
        }
        let progress = &self.progress;
        vec![
            Line::from(format!("Puzzle {} ({})", p.id, p.preset)),
            Line::from(format!("{}, rated {}", p.grade.name(), p.rating)),
            Line::from(self.task()),
            Line::from(match p.goal {
                Goal::Win => "force the win against every defence",
                Goal::Hold => "find the only move that does not lose within them",
            }),
            Line::from(format!("moves left: {}", self.moves_left)),
            Line::from(""),
            Line::from(format!(
                "rating {} · streak {}",
                progress.rating(),
                progress.streak()
            )),
            Line::from(format!(
                "solved {}  failed {}",
                progress.solved(),
                progress.failed()
            )),
        ]
    }

    /// The marks on the board: cursor, selection and its destinations, the last move, and
    /// the answer when shown.
    fn marks(&self) -> Marks {
        Marks {
            cursor: Some(self.board.cursor),
            selected: self.board.selected,
            destinations: self
                .board
                .selected
                .map_or(Bitboard::EMPTY, |sq| self.state.position().destinations(sq)),
            last_move: self.last_move,
            hint: (self.phase == Phase::Answer)
                .then_some(self.last_move)
                .flatten(),
            ..Marks::default()
        }
    }

    /// Draws the board and the panel (or the task line) in `area`, which [`GameLayout`]
    /// fits (the app draws the too-small screen and the status line).
    pub fn render(&self, area: Rect, buf: &mut Buffer, look: &Look) {
        let Some(layout) = GameLayout::new(area) else {
            return;
        };
        (&BoardView::new(self.state.position(), self.marks(), look, layout.board))
            .render(layout.board.area(), buf);
        if let Some(turn) = layout.turn_line {
            // Compact: the task on the turn line, the message or the keys in the status rows.
            Paragraph::new(self.task()).render(turn, buf);
        } else {
            Paragraph::new(self.panel_lines())
                .block(
                    look.block()
                        .title(" Puzzles ")
                        .padding(Padding::horizontal(1)),
                )
                .wrap(Wrap { trim: true })
                .render(layout.panel, buf);
        }
    }

    /// The status line: the move typed, the message, or the trainer's keys (the app draws
    /// it, a long message over the rows above).
    pub(crate) fn status_line(&self) -> StatusLine<'_> {
        StatusLine {
            typing: self.board.typing.as_deref(),
            status: self.message.as_ref(),
            not_saved: false,
            keys: Some(&TRAINER_KEY_LINE),
        }
    }
}
