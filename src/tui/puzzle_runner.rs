//! `brandubh puzzles`: the trainer in the terminal. One channel brings keys and the solver's
//! judgements to the loop; moves are judged on a worker thread, so frames never wait on the
//! search; the progress is written atomically to the data folder.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::TuiError;
use super::puzzles::{Trainer, TrainerAction, TrainerEffect};
use super::theme::Look;
use crate::game::storage::write_json_atomic;
use crate::puzzle::{Progress, Solver, judge, shipped};
use crate::rules::{GameState, Move, Preset};

/// The progress file, `puzzles/progress.json` in the data folder.
pub fn progress_path() -> Option<PathBuf> {
    crate::folders::DATA
        .path()
        .map(|dir| dir.join("puzzles").join("progress.json"))
}

/// The progress in the file at `path`: a fresh one if there is none; a fresh one and a
/// one-line warning if it cannot be read or is not progress.
pub fn load_progress(path: Option<&Path>) -> (Progress, Option<String>) {
    let Some(path) = path else {
        return (Progress::default(), None);
    };
    let read = match std::fs::read_to_string(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (Progress::default(), None),
        Err(e) => Err(e.to_string()),
        Ok(text) => serde_json::from_str(&text).map_err(|e| e.to_string()),
    };
    match read {
        Ok(progress) => (progress, None),
        Err(why) => {
            let why = why.lines().next().unwrap_or_default().to_owned();
            let warning = format!(
                "puzzle progress {} unreadable ({why}); starting fresh",
                path.display()
            );
            (Progress::default(), Some(warning))
        }
    }
}

/// The trainer's action for a key, if any: letters of moves, Enter, Backspace, and the
/// trainer's own keys.
pub fn trainer_action(key: KeyEvent) -> Option<TrainerAction> {
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return (key.code == KeyCode::Char('c')).then_some(TrainerAction::Quit);
    }
    Some(match key.code {
        KeyCode::Enter => TrainerAction::Enter,
        KeyCode::Backspace => TrainerAction::Backspace,
        KeyCode::Esc | KeyCode::Char('q') => TrainerAction::Quit,
        KeyCode::Char('r') => TrainerAction::Retry,
        KeyCode::Char('s') => TrainerAction::ShowAnswer,
        KeyCode::Char('n') => TrainerAction::Next,
        KeyCode::Char(c @ ('a'..='g' | '1'..='7' | '-')) => TrainerAction::Type(c),
        _ => return None,
    })
}

/// A move to judge on the worker thread.
struct Job {
    id: u64,
    state: GameState,
    mv: Move,
    goal: crate::puzzle::Goal,
    moves: u8,
}

/// Runs the trainer for `preset`'s shipped puzzles until the player quits.
pub fn run_puzzles(preset: Preset) -> Result<(), TuiError> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(TuiError::NotATerminal);
    }
    let set = shipped(preset).map_err(|e| TuiError::Io(std::io::Error::other(e.to_string())))?;
    let path = progress_path();
    let (progress, warning) = load_progress(path.as_deref());
    let Some(mut trainer) = Trainer::new(set.puzzles, progress) else {
        return Err(TuiError::Io(std::io::Error::other(format!(
            "no puzzles for {preset}"
        ))));
    };
    if let Some(warning) = warning {
        trainer.note(warning);
    }
    let (events, inbox) = mpsc::channel::<TrainerAction>();
    let (jobs, job_inbox) = mpsc::channel::<Job>();
    let judged = events.clone();
    thread::spawn(move || {
        for job in job_inbox {
            let verdict = judge(&mut Solver::new(), &job.state, job.mv, job.goal, job.moves);
            if judged
                .send(TrainerAction::Judged {
                    id: job.id,
                    verdict,
                })
                .is_err()
            {
                break;
            }
        }
    });
    thread::spawn(move || {
        while let Ok(event) = event::read() {
            if let Event::Key(key) = event
                && key.kind != KeyEventKind::Release
                && let Some(action) = trainer_action(key)
                && events.send(action).is_err()
            {
                break;
            }
        }
    });
    let mut terminal = ratatui::try_init()?;
    let look = Look::default();
    let result = (|| -> Result<(), TuiError> {
        loop {
            terminal.draw(|frame| {
                let area = frame.area();
                trainer.render(area, frame.buffer_mut(), &look);
            })?;
            let Ok(action) = inbox.recv() else {
                return Ok(());
            };
            for effect in trainer.update(action) {
                match effect {
                    TrainerEffect::Check {
                        id,
                        state,
                        mv,
                        goal,
                        moves,
                    } => {
                        let _ = jobs.send(Job {
                            id,
                            state: *state,
                            mv,
                            goal,
                            moves,
                        });
                    }
                    TrainerEffect::SaveProgress(progress) => {
                        if let Some(path) = &path {
                            // The trainer goes on if the file cannot be written.
                            let _ = write_json_atomic(path, &*progress);
                        }
                    }
                    TrainerEffect::Quit => return Ok(()),
                }
            }
        }
    })();
    let _ = ratatui::try_restore();
    result
}
