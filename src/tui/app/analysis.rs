//! Whole-game analysis in the app: the choice of a budget, the job on the AI worker, each
//! move's analysis stored in the game as it arrives, stopping it, and what the review shows.
//!
//! An analysis adds to the record, never to its moves: each result goes into the game
//! ([`crate::game::Game::set_analysis`]) as it comes, so the review shows it at once; when the
//! analysis ends or is stopped the game is marked changed and autosaved, and a file it was
//! loaded from is rewritten only when the player saves (`s`).

use super::{App, Overlay, Screen};
use crate::ai::{Analyser, Budget, Event, Progress};
use crate::tui::analysis::Underway;
use crate::tui::dialogs::BudgetChoice;
use crate::tui::worker::{JobId, Report};

/// An analysis running on the worker.
#[derive(Copy, Clone, Debug)]
pub(super) struct Analysing {
    pub(super) id: JobId,
    pub(super) underway: Underway,
    /// Moves whose analysis has been stored.
    pub(super) stored: usize,
}

impl App {
    /// `a`: asks how long to analyse each position of the game, in review (opened first from
    /// the game, under its rules: not while the AI thinks on a person's game).
    pub(super) fn ask_analysis(&mut self) {
        if self.ai.analysis.is_some() {
            self.error("the analysis is running: Esc stops it".to_owned());
            return;
        }
        if self.session.moves().is_empty() {
            self.error("no moves to analyse yet".to_owned());
            return;
        }
        if !matches!(self.screen, Screen::Review(_)) {
            self.open_review();
            if !matches!(self.screen, Screen::Review(_)) {
                return;
            }
        }
        let positions = Analyser::positions(self.session.game());
        self.overlay = Some(Overlay::Budget(BudgetChoice::new(
            self.ai.budgets.clone(),
            positions,
        )));
    }

    /// Starts analysing the game at `budget` per position on the worker.
    pub(super) fn start_analysis(&mut self, budget: Budget) {
        let total = Analyser::positions(self.session.game());
        self.start_worker();
        let Some(worker) = self.ai.worker.as_mut() else {
            return;
        };
        let id = worker.analyse(self.session.game(), budget);
        self.ai.analysis = Some(Analysing {
            id,
            underway: Underway {
                budget,
                progress: Progress { done: 0, total },
            },
            stored: 0,
        });
        self.status = None;
    }

    /// The analysis under way, if any.
    pub(super) fn analysis_underway(&self) -> Option<Underway> {
        self.ai.analysis.map(|a| a.underway)
    }

    /// Takes a report of the analysis; returns whether it changed anything (reports of an
    /// analysis stopped before are dropped).
    pub(super) fn on_analysis_report(&mut self, report: Report) -> bool {
        let Some(analysing) = self.ai.analysis.as_mut() else {
            return false;
        };
        match report {
            Report::Analysis(id, Event::Progress(progress)) if id == analysing.id => {
                analysing.underway.progress = progress;
            }
            Report::Analysis(id, Event::Ply { ply, analysis }) if id == analysing.id => {
                analysing.stored += 1;
                self.saved = false;
                if let Err(e) = self.session.set_analysis(ply, &analysis) {
                    self.error(format!("the analysis of move {} is refused: {e}", ply + 1));
                }
            }
            Report::Analysed(id, ended) if id == analysing.id => {
                let analysing = *analysing;
                self.ai.analysis = None;
                self.end_analysis(analysing, ended.is_ok());
            }
            _ => return false,
        }
        true
    }

    /// Stops the analysis under way; the moves analysed so far keep their analysis.
    pub(super) fn stop_analysis(&mut self) {
        let Some(analysing) = self.ai.analysis.take() else {
            return;
        };
        if let Some(worker) = self.ai.worker.as_mut() {
            worker.stop();
        }
        self.end_analysis(analysing, false);
    }

    /// Says how the analysis ended, and autosaves the game if it gained any.
    fn end_analysis(&mut self, analysing: Analysing, complete: bool) {
        let Progress { done, total } = analysing.underway.progress;
        if complete {
            self.info(format!(
                "analysis done ({}) · s saves it with the game",
                analysing.underway.budget.name()
            ));
        } else if analysing.stored == 0 {
            self.info(format!(
                "analysis stopped at {done} of {total} positions, before any move was analysed"
            ));
        } else {
            self.info(format!(
                "analysis stopped at {done} of {total} positions; the {} moves analysed keep \
                 it · s saves it with the game",
                analysing.stored
            ));
        }
        if analysing.stored > 0 {
            // After the message: a failed autosave says so instead.
            self.changed();
        }
    }

    /// Whether the review shows the analysis: the game has one, or one is under way.
    pub(super) fn shows_analysis(&self) -> bool {
        self.ai.analysis.is_some() || self.session.game().analysis().iter().any(Option::is_some)
    }
}
