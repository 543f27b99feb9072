//! The puzzle trainer as a layer over the local game: opened from the new-game screen (`z`),
//! from a review (the player's own mistakes as puzzles) or at the start (`brandubh puzzles`).
//! Its actions are its own; its judgements are asked of the engine's thread and its progress
//! read and written by the storage thread, and both answers are routed back to it. A lesson
//! solved is asked of the game, which keeps it with the record.

use std::path::PathBuf;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::LocalGame;
use crate::game::Player;
use crate::puzzle::{Progress, shipped};
use crate::rules::{Preset, Side};
use crate::tui::component::{Component, Context, Outcome, Request, Routed, RuntimeEvent};
use crate::tui::effect::Effect;
use crate::tui::help::Help;
use crate::tui::input::{Action, Mode};
use crate::tui::layout::GameLayout;
use crate::tui::puzzle_trainer::{LessonPuzzle, TRAINER_KEYS, Trainer, TrainerEffect};
use crate::tui::storage_jobs::{Done, Job};

/// Where leaving the trainer goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum TrainerExit {
    /// Back to the new-game screen it was opened from (the game to continue is looked for
    /// again).
    Setup,
    /// Out of the program: it was started as `brandubh puzzles`.
    Quit,
    /// Back to the review it was opened from (the game's personal puzzles).
    Review,
}

impl LocalGame {
    /// Opens the trainer on `preset`'s shipped puzzles; leaving it goes to `exit`. The
    /// player's progress is asked of the storage thread (keys wait for it).
    pub(super) fn open_trainer(&mut self, preset: Preset, exit: TrainerExit) {
        let trainer = shipped(preset).map_err(|e| e.to_string()).and_then(|set| {
            Trainer::new(set.puzzles, Progress::default())
                .ok_or_else(|| format!("no puzzles for {preset}"))
        });
        let trainer = match trainer {
            Ok(trainer) => trainer,
            Err(why) => {
                self.error(why);
                if exit == TrainerExit::Quit {
                    self.quit = true;
                }
                return;
            }
        };
        self.cancel_thinking();
        let progress_file = self.storage.puzzle_progress.clone();
        if let Some(path) = progress_file.clone() {
            self.effects
                .push(Effect::Store(Job::ReadPuzzleProgress(path)));
        }
        self.opened
            .push(Box::new(TrainerLayer::new(trainer, exit, progress_file)));
    }

    /// `z` in review: the player's mistakes and blunders in the analysis as personal
    /// puzzles, kept with the game, played in the trainer; or says why there are none.
    pub(super) fn open_lessons(&mut self) {
        if self.session.game().analysis().iter().all(Option::is_none) {
            self.error("no analysis to learn from: a analyzes the game".to_owned());
            return;
        }
        let sides: Vec<Side> = [Side::Attackers, Side::Defenders]
            .into_iter()
            .filter(|&s| self.session.player(s) == Player::Human)
            .collect();
        let before = self.session.game().lessons();
        let lessons = self.session.game_mut().learn_from_mistakes(&sides);
        if lessons != before {
            self.changed();
        }
        if lessons.is_empty() {
            self.info(
                "no mistake or blunder of yours in the analysis: nothing to learn".to_owned(),
            );
            return;
        }
        let made = LessonPuzzle::of_game(self.session.game(), &lessons);
        let Some(trainer) = made.and_then(Trainer::of_lessons) else {
            self.error("personal puzzles need a preset's rules".to_owned());
            return;
        };
        let layer = TrainerLayer::new(trainer, TrainerExit::Review, None);
        self.opened.push(Box::new(layer));
    }

    /// The trainer solved the lesson of the record's ply `at`: kept with the game.
    pub(super) fn lesson_solved(&mut self, at: usize) {
        self.session.game_mut().solve_lesson(at);
        self.changed();
    }
}

/// The puzzle trainer on the stack of layers.
pub(in crate::tui) struct TrainerLayer {
    trainer: Box<Trainer>,
    exit: TrainerExit,
    /// Where the progress is kept, if anywhere (personal puzzles keep theirs in the game).
    progress_file: Option<PathBuf>,
    /// Whether the progress is being read (keys wait for it).
    reading: bool,
}

impl TrainerLayer {
    fn new(trainer: Trainer, exit: TrainerExit, progress_file: Option<PathBuf>) -> TrainerLayer {
        TrainerLayer {
            trainer: Box::new(trainer),
            exit,
            reading: progress_file.is_some(),
            progress_file,
        }
    }

    /// The trainer (for a test to look into).
    #[cfg(test)]
    pub(in crate::tui) fn trainer(&self) -> &Trainer {
        &self.trainer
    }

    /// Carries out what the trainer asked.
    fn carry_out(&mut self, effects: Vec<TrainerEffect>) -> Outcome {
        let mut outcome = Outcome::stay();
        for effect in effects {
            outcome = match effect {
                TrainerEffect::Check {
                    id,
                    state,
                    mv,
                    goal,
                    moves,
                } => outcome.and_effects([Effect::Judge {
                    id,
                    state,
                    mv,
                    goal,
                    moves,
                }]),
                TrainerEffect::SaveProgress(progress) => {
                    outcome.and_effects(self.save_progress(&progress))
                }
                TrainerEffect::LessonSolved(at) => outcome.and_ask(Request::LessonSolved(at)),
                TrainerEffect::Help => {
                    let help = Help::new("Puzzle trainer keys".to_owned(), &TRAINER_KEYS);
                    outcome.and_push(help)
                }
                TrainerEffect::Leave => {
                    let outcome = outcome.and_close();
                    match self.exit {
                        TrainerExit::Setup => outcome.and_ask(Request::SetupAgain),
                        TrainerExit::Quit => outcome.and_ask(Request::Quit),
                        TrainerExit::Review => outcome,
                    }
                }
            };
        }
        outcome
    }

    /// Asks the storage thread to write `progress`; without a data folder it is kept for
    /// this run only, and the trainer says so.
    fn save_progress(&mut self, progress: &Progress) -> Option<Effect> {
        let Some(path) = self.progress_file.clone() else {
            self.trainer.note(
                "no data folder: the puzzle progress is kept until you quit".to_owned(),
                true,
            );
            return None;
        };
        match serde_json::to_string_pretty(progress) {
            Ok(mut text) => {
                text.push('\n');
                Some(Effect::Store(Job::WritePuzzleProgress { path, text }))
            }
            Err(e) => {
                self.trainer
                    .note(format!("puzzle progress not kept: {e}"), true);
                None
            }
        }
    }

    /// The storage thread's answers about the puzzle progress; hands back any other.
    fn on_stored(&mut self, done: Done) -> Routed {
        match done {
            Done::PuzzleProgress(progress, warning) => {
                self.reading = false;
                self.trainer.progress_read(*progress);
                if let Some(warning) = warning {
                    self.trainer.note(warning, true);
                }
            }
            Done::PuzzleProgressWritten(Err(why)) => {
                self.trainer
                    .note(format!("puzzle progress not kept: {why}"), true);
            }
            Done::PuzzleProgressWritten(Ok(())) => {}
            other => return Routed::Passed(RuntimeEvent::Stored(other)),
        }
        Routed::Taken(Outcome::stay())
    }
}

impl Component for TrainerLayer {
    fn update(&mut self, action: Action, cx: &Context) -> Outcome {
        let effects = self.trainer.update(action, cx.size);
        self.carry_out(effects)
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, cx: &Context) {
        self.trainer.render(area, buf, cx.look);
        if let Some(layout) = GameLayout::new(area) {
            (self.trainer.status_line()).draw_at_bottom(layout.status, buf, cx.look);
        }
    }

    fn mode(&self) -> Mode {
        if self.trainer.is_typing() {
            Mode::Text
        } else {
            Mode::Trainer
        }
    }

    fn on_event(&mut self, event: RuntimeEvent, _cx: &Context) -> Routed {
        match event {
            RuntimeEvent::Judged { id, verdict } => {
                let effects = self.trainer.judged(id, verdict);
                Routed::Taken(self.carry_out(effects))
            }
            RuntimeEvent::Stored(done) => self.on_stored(done),
            other => Routed::Passed(other),
        }
    }

    fn covers_screen(&self) -> bool {
        true
    }

    fn awaits_storage(&self) -> bool {
        self.reading
    }

    #[cfg(test)]
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }
}
