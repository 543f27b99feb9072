//! The app's side of the puzzle trainer: opened from the new-game screen (`z`) or at the
//! start (`brandubh puzzles`), its actions handed to it, its judgements asked of the engine's
//! thread and its progress read and written by the storage thread.

use super::{LocalGame, Screen};
use crate::game::Player;
use crate::puzzle::{Progress, Verdict, shipped};
use crate::rules::{Preset, Side};
use crate::tui::effect::Effect;
use crate::tui::input::Action;
use crate::tui::overlay::Overlay;
use crate::tui::puzzle_trainer::{LessonPuzzle, Trainer, TrainerEffect};
use crate::tui::review::Review;
use crate::tui::storage_jobs::{Done, Job};

/// Where leaving the trainer goes.
#[derive(Clone, Debug)]
pub(super) enum TrainerExit {
    /// Back to the new-game screen it was opened from.
    Setup(Box<crate::tui::screens::SetupForm>),
    /// Out of the program: it was started as `brandubh puzzles`.
    Quit,
    /// Back to the review it was opened from (the game's personal puzzles).
    Review(Box<Review>),
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
                if matches!(exit, TrainerExit::Quit) {
                    self.quit = true;
                }
                return;
            }
        };
        self.cancel_thinking();
        self.screen = Screen::Trainer(Box::new(trainer));
        self.trainer_exit = Some(exit);
        if let Some(path) = self.storage.puzzle_progress.clone() {
            self.waiting.awaited += 1;
            self.effects
                .push(Effect::Store(Job::ReadPuzzleProgress(path)));
        }
    }

    /// `z` in review: the player's mistakes and blunders in the analysis as personal
    /// puzzles, kept with the game, played in the trainer; or says why there are none.
    pub(super) fn open_lessons(&mut self) {
        let Screen::Review(review) = &self.screen else {
            return;
        };
        let review = Box::new(review.clone());
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
        self.screen = Screen::Trainer(Box::new(trainer));
        self.trainer_exit = Some(TrainerExit::Review(review));
    }

    /// The trainer, if it is on screen.
    pub fn trainer(&self) -> Option<&Trainer> {
        match &self.screen {
            Screen::Trainer(trainer) => Some(trainer),
            _ => None,
        }
    }

    /// An action on the trainer's screen.
    pub(super) fn update_trainer(&mut self, action: Action) {
        let size = self.size;
        let Screen::Trainer(trainer) = &mut self.screen else {
            return;
        };
        let effects = trainer.update(action, size);
        self.trainer_effects(effects);
    }

    /// The exact solver's judgement of the trainer's check `id`.
    pub fn on_judged(&mut self, id: u64, verdict: Verdict) -> Vec<Effect> {
        if let Screen::Trainer(trainer) = &mut self.screen {
            let effects = trainer.judged(id, verdict);
            self.trainer_effects(effects);
        }
        self.take_effects()
    }

    /// The storage thread's answers about the puzzle progress.
    pub(super) fn on_progress_stored(&mut self, done: Done) {
        let Screen::Trainer(trainer) = &mut self.screen else {
            return;
        };
        match done {
            Done::PuzzleProgress(progress, warning) => {
                trainer.progress_read(*progress);
                if let Some(warning) = warning {
                    trainer.note(warning, true);
                }
            }
            Done::PuzzleProgressWritten(Err(why)) => {
                trainer.note(format!("puzzle progress not kept: {why}"), true);
            }
            _ => {}
        }
    }

    /// Carries out what the trainer asked.
    fn trainer_effects(&mut self, effects: Vec<TrainerEffect>) {
        for effect in effects {
            match effect {
                TrainerEffect::Check {
                    id,
                    state,
                    mv,
                    goal,
                    moves,
                } => self.effects.push(Effect::Judge {
                    id,
                    state,
                    mv,
                    goal,
                    moves,
                }),
                TrainerEffect::SaveProgress(progress) => self.save_progress(&progress),
                TrainerEffect::LessonSolved(at) => {
                    self.session.game_mut().solve_lesson(at);
                    self.changed();
                }
                TrainerEffect::Help => self.show(Overlay::Help(self.help())),
                TrainerEffect::Leave => self.leave_trainer(),
            }
        }
    }

    /// Asks the storage thread to write `progress`; without a data folder it is kept for
    /// this run only, and the trainer says so.
    fn save_progress(&mut self, progress: &Progress) {
        let Screen::Trainer(trainer) = &mut self.screen else {
            return;
        };
        let Some(path) = self.storage.puzzle_progress.clone() else {
            trainer.note(
                "no data folder: the puzzle progress is kept until you quit".to_owned(),
                true,
            );
            return;
        };
        match serde_json::to_string_pretty(progress) {
            Ok(mut text) => {
                text.push('\n');
                self.effects
                    .push(Effect::Store(Job::WritePuzzleProgress { path, text }));
            }
            Err(e) => trainer.note(format!("puzzle progress not kept: {e}"), true),
        }
    }

    /// Leaves the trainer: back to the new-game screen, or out of the program.
    fn leave_trainer(&mut self) {
        match self.trainer_exit.take() {
            Some(TrainerExit::Setup(form)) => self.show_setup(*form),
            Some(TrainerExit::Review(review)) => self.screen = Screen::Review(*review),
            Some(TrainerExit::Quit) | None => self.quit = true,
        }
    }
}
