//! The puzzle trainer: a component like the other screens. [`Trainer::update`] takes an
//! action and returns effects (check a move on the solver's thread, remember the progress,
//! quit); [`Trainer`] renders itself and only draws. The runner in `puzzle_runner` carries
//! the effects out.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::board_view::{BoardView, Marks};
use super::layout::GameLayout;
use super::theme::Look;
use crate::puzzle::{Attempt, Goal, Progress, Puzzle, Verdict};
use crate::rules::{GameState, Move};

/// What the player does in the trainer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrainerAction {
    /// A character of a move being typed (`c2-c1`).
    Type(char),
    /// Rub out the last character typed.
    Backspace,
    /// Play the move typed.
    Enter,
    /// Start the puzzle again.
    Retry,
    /// Show the solution.
    ShowAnswer,
    /// The next puzzle that fits.
    Next,
    /// Leave the trainer.
    Quit,
    /// The solver's judgement of check number `id`.
    Judged {
        /// The check's number.
        id: u64,
        /// What the move comes to.
        verdict: Verdict,
    },
}

/// What the trainer asks of the world.
#[derive(Clone, Debug, PartialEq)]
pub enum TrainerEffect {
    /// Judge `mv` in `state` on the solver's thread; the answer comes back as
    /// [`TrainerAction::Judged`] with `id`.
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
    /// Leave the trainer.
    Quit,
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

/// The trainer's state.
#[derive(Clone, Debug)]
pub struct Trainer {
    puzzles: Vec<Puzzle>,
    index: usize,
    progress: Progress,
    state: GameState,
    moves_left: u8,
    typed: String,
    phase: Phase,
    last_move: Option<Move>,
    /// The puzzle's result is recorded once, at the first success or failure.
    recorded: bool,
    next_check: u64,
    message: String,
}

impl Trainer {
    /// A trainer over `puzzles` (at least one, each playable) with the player's `progress`,
    /// on the puzzle that fits the player best.
    pub fn new(puzzles: Vec<Puzzle>, progress: Progress) -> Option<Trainer> {
        let index = progress.next(&puzzles)?;
        let state = puzzles[index].start().ok()?;
        let mut trainer = Trainer {
            moves_left: puzzles[index].moves,
            puzzles,
            index,
            progress,
            state,
            typed: String::new(),
            phase: Phase::Play,
            last_move: None,
            recorded: false,
            next_check: 0,
            message: String::new(),
        };
        trainer.restart();
        Some(trainer)
    }

    /// Shows `text` (one line) in the message row until the next message.
    pub fn note(&mut self, text: String) {
        self.message = text;
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

    fn restart(&mut self) {
        if let Ok(state) = self.puzzle().start() {
            self.state = state;
        }
        self.moves_left = self.puzzle().moves;
        self.typed.clear();
        self.phase = Phase::Play;
        self.last_move = None;
        self.message.clear();
    }

    /// The task in words: "Defenders to play: win in 2."
    fn task(&self) -> String {
        let p = self.puzzle();
        let side = p.side.name();
        match p.goal {
            Goal::Win => format!("{side} to play: win in {}", p.moves),
            Goal::Hold => format!(
                "{side} to play: find the only move that does not lose within {}",
                p.moves
            ),
        }
    }

    /// Takes `action`; returns what the world must do.
    pub fn update(&mut self, action: TrainerAction) -> Vec<TrainerEffect> {
        match action {
            TrainerAction::Type(c) if self.phase == Phase::Play => {
                if self.typed.len() < 12 {
                    self.typed.push(c);
                }
                Vec::new()
            }
            TrainerAction::Backspace => {
                self.typed.pop();
                Vec::new()
            }
            TrainerAction::Enter if self.phase == Phase::Play => self.submit(),
            TrainerAction::Judged { id, verdict } => self.judged(id, verdict),
            TrainerAction::Retry => {
                self.restart();
                Vec::new()
            }
            TrainerAction::ShowAnswer => self.show_answer(),
            TrainerAction::Next => self.next(),
            TrainerAction::Quit => vec![TrainerEffect::Quit],
            _ => Vec::new(),
        }
    }

    fn submit(&mut self) -> Vec<TrainerEffect> {
        let text = std::mem::take(&mut self.typed);
        let mv: Move = match text.trim().parse() {
            Ok(mv) => mv,
            Err(e) => {
                self.message = format!("\"{text}\": {e}");
                return Vec::new();
            }
        };
        if let Err(e) = self.state.check_move(mv) {
            self.message = format!("{mv}: {e}");
            return Vec::new();
        }
        self.phase = Phase::Checking(mv);
        self.message = format!("{mv}: checking…");
        self.next_check += 1;
        vec![TrainerEffect::Check {
            id: self.next_check,
            state: Box::new(self.state.clone()),
            mv,
            goal: self.puzzle().goal,
            moves: self.moves_left,
        }]
    }

    fn judged(&mut self, id: u64, verdict: Verdict) -> Vec<TrainerEffect> {
        let Phase::Checking(mv) = self.phase else {
            return Vec::new();
        };
        if id != self.next_check {
            return Vec::new();
        }
        self.state.play_unchecked(mv);
        self.last_move = Some(mv);
        match verdict {
            Verdict::Solved => {
                self.phase = Phase::Solved;
                self.message = format!("{mv}: solved! n: next puzzle");
                self.record(Attempt::Solved)
            }
            Verdict::Good { reply } => {
                self.state.play_unchecked(reply);
                self.last_move = Some(reply);
                self.moves_left -= 1;
                self.phase = Phase::Play;
                self.message = format!("{mv}: good. The reply: {reply}. Go on.");
                Vec::new()
            }
            Verdict::Wrong { why, .. } => {
                self.message = format!("{mv}: wrong, {why}. r: retry, s: show the answer");
                self.phase = Phase::Wrong(why);
                self.record(Attempt::Failed)
            }
        }
    }

    fn show_answer(&mut self) -> Vec<TrainerEffect> {
        self.restart();
        self.phase = Phase::Answer;
        self.last_move = self.puzzle().solution.parse().ok();
        self.message = format!(
            "the answer: {}. r: try it, n: next puzzle",
            self.puzzle().solution
        );
        self.record(Attempt::Failed)
    }

    fn next(&mut self) -> Vec<TrainerEffect> {
        let others: Vec<Puzzle> = self.puzzles.clone();
        let current = self.index;
        let candidates: Vec<usize> = (0..others.len()).filter(|&i| i != current).collect();
        let pool: Vec<Puzzle> = candidates.iter().map(|&i| others[i].clone()).collect();
        if let Some(pick) = self.progress.next(&pool) {
            self.index = candidates[pick];
        }
        self.recorded = false;
        self.restart();
        Vec::new()
    }

    fn record(&mut self, attempt: Attempt) -> Vec<TrainerEffect> {
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
        let progress = &self.progress;
        let mut lines = vec![
            Line::from(format!("Puzzle {} ({})", p.id, p.preset)),
            Line::from(format!("{}, rated {}", p.grade.name(), p.rating)),
            Line::from(self.task()),
            Line::from(format!("moves left: {}", self.moves_left)),
            Line::from(""),
            Line::from(format!(
                "rating {}  solved {}  failed {}  streak {}",
                progress.rating(),
                progress.solved(),
                progress.failed(),
                progress.streak()
            )),
            Line::from(""),
            Line::from(self.message.clone()),
        ];
        if self.phase == Phase::Play {
            lines.push(Line::from(format!("move: {}_", self.typed)));
        }
        lines.push(Line::from(""));
        lines.push(Line::from("type a move + Enter · r retry"));
        lines.push(Line::from("s answer · n next · q quit"));
        lines
    }

    /// Draws the trainer in `area`.
    pub fn render(&self, area: Rect, buf: &mut Buffer, look: &Look) {
        let Some(layout) = GameLayout::new(area) else {
            Paragraph::new("The terminal is too small for the puzzles.")
                .wrap(Wrap { trim: true })
                .render(area, buf);
            return;
        };
        let marks = Marks {
            last_move: self.last_move,
            hint: (self.phase == Phase::Answer)
                .then_some(self.last_move)
                .flatten(),
            ..Marks::default()
        };
        (&BoardView::new(self.state.position(), marks, look, layout.board)).render(area, buf);
        let lines = self.panel_lines();
        if let Some(turn) = layout.turn_line {
            // Compact: the task on the turn line, the message and input in the status rows.
            Paragraph::new(self.task()).render(turn, buf);
            let input = if self.phase == Phase::Play {
                format!("move: {}_ ", self.typed)
            } else {
                String::new()
            };
            Paragraph::new(format!("{input}{}", self.message))
                .wrap(Wrap { trim: true })
                .render(layout.status, buf);
        } else {
            Paragraph::new(lines)
                .block(look.block().title(" Puzzles "))
                .wrap(Wrap { trim: true })
                .render(layout.panel, buf);
        }
    }
}
