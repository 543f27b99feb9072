//! Whole-game analysis in the app: the choice of a budget, the job on the AI worker, each
//! move's analysis stored in the game as it arrives, stopping it, and what the review shows.
//!
//! An analysis adds to the record, never to its moves: each result goes into the game
//! ([`crate::game::Game::set_analysis`]) as it comes, so the review shows it at once; when the
//! analysis ends or is stopped the game is marked changed and autosaved, and a file it was
//! loaded from is rewritten only when the player saves (`s`).

use super::{LocalGame, Overlay, Screen};
use crate::ai::{AnalysisEvent, Analyzer, Budget, Progress};
use crate::ai::{JobId, Report};
use crate::game::{Fork, Game, PlyAnalysis};
use crate::tui::analysis_text::Underway;
use crate::tui::dialogs::BudgetChoice;
use crate::tui::effect::Effect;

/// An analysis running on the worker.
#[derive(Clone, Debug)]
pub(super) struct Analyzing {
    pub(super) id: JobId,
    pub(super) underway: Underway,
    /// Moves whose analysis has been stored.
    pub(super) stored: usize,
    /// The line analyzed: the side lines taken to it (none for the main line).
    pub(super) forks: Vec<Fork>,
}

impl LocalGame {
    /// `a`: asks how long to analyze each position of the line reviewed (the game's, opened
    /// in review first from the game, under its rules: not while the AI thinks on a person's
    /// game).
    pub(super) fn ask_analysis(&mut self) {
        if self.ai.analysis.is_some() {
            self.error("the analysis is running: Esc stops it".to_owned());
            return;
        }
        if self.session.moves().is_empty() && !self.session.game().has_side_lines() {
            self.error("no moves to analyze yet".to_owned());
            return;
        }
        if !matches!(self.screen, Screen::Review(_)) {
            self.open_review();
            if !matches!(self.screen, Screen::Review(_)) {
                return;
            }
        }
        let Some((forks, line)) = self.line_to_analyze() else {
            return;
        };
        if line.moves().is_empty() {
            self.error("no moves to analyze yet".to_owned());
            return;
        }
        let positions = Analyzer::positions(&line);
        let choice = BudgetChoice::new(self.ai.budgets.clone(), positions);
        self.show(Overlay::Budget(if forks.is_empty() {
            choice
        } else {
            choice.on_side_line()
        }));
    }

    /// The line the review shows, as the side lines taken to it and a game of its own moves
    /// (the game itself for the main line).
    fn line_to_analyze(&self) -> Option<(Vec<Fork>, Game)> {
        let forks = match &self.screen {
            Screen::Review(review) => review.forks().to_vec(),
            Screen::Game => Vec::new(),
        };
        let game = self.session.game();
        if forks.is_empty() {
            return Some((forks, game.clone()));
        }
        let line = game.line_game(&forks)?;
        Some((forks, line))
    }

    /// Starts analyzing the line reviewed at `budget` per position on the worker.
    pub(super) fn start_analysis(&mut self, budget: Budget) {
        let Some((forks, line)) = self.line_to_analyze() else {
            return;
        };
        let total = Analyzer::positions(&line);
        let id = self.next_job();
        self.effects.push(Effect::Analyze {
            id,
            game: Box::new(line),
            budget,
        });
        self.ai.analysis = Some(Analyzing {
            id,
            underway: Underway {
                budget,
                progress: Progress { done: 0, total },
            },
            stored: 0,
            forks,
        });
        self.status = None;
    }

    /// Whether the line through `forks` is being analyzed.
    pub(super) fn analyzes_line(&self, forks: &[Fork]) -> bool {
        self.ai.analysis.as_ref().is_some_and(|a| a.forks == forks)
    }

    /// The analysis under way, if any.
    pub(super) fn analysis_underway(&self) -> Option<Underway> {
        self.ai.analysis.as_ref().map(|a| a.underway)
    }

    /// Records the analysis of the move at index `ply` (from 0) of the line through `forks`;
    /// a move of a parent line already analyzed keeps its analysis.
    fn store_analysis(
        &mut self,
        forks: &[Fork],
        ply: usize,
        analysis: &PlyAnalysis,
    ) -> Result<(), String> {
        if forks.is_empty() {
            return self
                .session
                .set_analysis(ply, analysis)
                .map_err(|e| e.to_string());
        }
        let game = self.session.game_mut();
        let place = game
            .place_along(forks, ply + 1)
            .ok_or_else(|| "the side line is no longer there".to_owned())?;
        // A move the line shares with its parents keeps the analysis it has.
        if place.forks() != forks && game.analysis_at(&place).is_some() {
            return Ok(());
        }
        game.set_analysis_at(&place, analysis)
            .map_err(|e| e.to_string())
    }

    /// Takes a report of the analysis; returns whether it changed anything (reports of an
    /// analysis stopped before are dropped).
    pub(super) fn on_analysis_report(&mut self, report: Report) -> bool {
        let Some(analyzing) = self.ai.analysis.as_mut() else {
            return false;
        };
        match report {
            Report::Analysis(id, AnalysisEvent::Progress(progress)) if id == analyzing.id => {
                analyzing.underway.progress = progress;
            }
            Report::Analysis(id, AnalysisEvent::Ply { ply, analysis }) if id == analyzing.id => {
                analyzing.stored += 1;
                let forks = analyzing.forks.clone();
                self.saved = false;
                if let Err(e) = self.store_analysis(&forks, ply, &analysis) {
                    self.error(format!("the analysis of move {} is refused: {e}", ply + 1));
                }
            }
            Report::Analyzed(id, ended) if id == analyzing.id => {
                if let Some(analyzing) = self.ai.analysis.take() {
                    self.end_analysis(&analyzing, ended.is_ok());
                }
            }
            _ => return false,
        }
        true
    }

    /// Stops the analysis under way; the moves analyzed so far keep their analysis.
    pub(super) fn stop_analysis(&mut self) {
        let Some(analyzing) = self.ai.analysis.take() else {
            return;
        };
        self.effects.push(Effect::Stop(analyzing.id));
        self.end_analysis(&analyzing, false);
    }

    /// Says how the analysis ended, and autosaves the game if it gained any.
    fn end_analysis(&mut self, analyzing: &Analyzing, complete: bool) {
        let Progress { done, total } = analyzing.underway.progress;
        if complete {
            self.info(format!(
                "analysis done ({}) · s saves it with the game",
                analyzing.underway.budget.name()
            ));
        } else if analyzing.stored == 0 {
            self.info(format!(
                "analysis stopped at {done} of {total} positions, before any move was analyzed"
            ));
        } else {
            self.info(format!(
                "analysis stopped at {done} of {total} positions; the {} moves analyzed keep \
                 it · s saves it with the game",
                analyzing.stored
            ));
        }
        if analyzing.stored > 0 {
            // After the message: a failed autosave says so instead.
            self.changed();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};

    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    use super::super::ai::{Purpose, Thinking};
    use super::super::{Overlay, Screen};
    use super::*;
    use crate::ai::Limits;
    use crate::game::storage::AUTOSAVE_DIR;
    use crate::game::{EngineKind, Game, Level, Player, PlyAnalysis};
    use crate::rules::Side;
    use crate::tui::input::{Action, Direction, Mode};
    use crate::tui::runtime::Runtime;
    use crate::tui::session::{Session, Storage};
    use crate::tui::{App, Config};

    const ESCAPE: &str = include_str!("../../../assets/games/escape.json");

    /// The escape game loaded from a copy in `dir` (it opens in review), analyzed at `budget`.
    fn escape_config(dir: &Path, budget: Budget) -> (Config, PathBuf) {
        let file = dir.join("escape.json");
        std::fs::write(&file, ESCAPE).unwrap();
        let config = Config {
            resume: Some(Session::load(&file).unwrap()),
            storage: Storage::in_dir(dir.join("saves")),
            analysis_budgets: vec![budget],
            ..Config::default()
        };
        (config, file)
    }

    /// The app of [`escape_config`].
    fn escape(dir: &Path, budget: Budget) -> (App, PathBuf) {
        let (config, file) = escape_config(dir, budget);
        (App::new(config), file)
    }

    /// The app of [`escape_config`] with its worker, to analyze on.
    fn escape_running(dir: &Path, budget: Budget) -> (Runtime, PathBuf) {
        let (config, file) = escape_config(dir, budget);
        (Runtime::new(config).unwrap(), file)
    }

    fn screen(app: &mut App) -> String {
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        terminal.draw(|f| app.draw(f)).unwrap();
        format!("{}", terminal.backend())
    }

    /// Lets time pass until `done` holds.
    fn tick_until(rt: &mut Runtime, done: impl Fn(&App) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !done(&rt.app) {
            assert!(Instant::now() < deadline, "the analysis did not come");
            rt.tick(Instant::now()).unwrap();
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    fn analyzed(app: &App) -> usize {
        app.session.game().analysis().iter().flatten().count()
    }

    /// The library's analysis of the escape game at `budget`, by a fresh analyzer.
    fn library(budget: Budget) -> Vec<PlyAnalysis> {
        let game = Game::from_json(ESCAPE).unwrap();
        let stop = AtomicBool::new(false);
        Analyzer::default()
            .analyze(&game, budget, &stop, &mut |_| {})
            .unwrap()
    }

    #[test]
    fn a_side_line_is_analysed_on_its_own_and_its_review_shows_it() {
        let dir = tempfile::tempdir().unwrap();
        let budget = Budget::Limits(Limits::depth(2));
        let (mut rt, _) = escape_running(dir.path(), budget);
        // A side line at move 2 (c4-c6 instead of d5-c5), two moves long.
        rt.update(Action::ToStart);
        rt.update(Action::Move(Direction::Right));
        for mv in ["c4-c6", "d2-b2"] {
            rt.update(Action::StartTyping);
            for c in mv.chars() {
                rt.update(Action::Type(c));
            }
            rt.update(Action::Confirm);
        }
        let Screen::Review(review) = &rt.app.screen else {
            panic!("not in review")
        };
        let forks = review.forks().to_vec();
        assert_eq!(forks.len(), 1);
        // The game's first move, shared with the line, analyzed before at another depth.
        let first = library(Budget::Limits(Limits::depth(1))).remove(0);
        rt.app.session.set_analysis(0, &first).unwrap();
        rt.update(Action::Analyze);
        let asked = screen(&mut rt.app);
        assert!(
            asked.contains("Search each of its 4 positions"),
            "the side line's positions: {asked}"
        );
        rt.update(Action::Confirm);
        tick_until(&mut rt, |app| app.ai.analysis.is_none());
        let game = rt.app.session.game();
        assert_eq!(analyzed(&rt.app), 1, "only the game's first move");
        assert_eq!(
            game.analysis()[0].as_ref(),
            Some(&first),
            "a move shared with the game keeps its analysis"
        );
        let line: Vec<PlyAnalysis> = (2..=3)
            .map(|n| {
                let place = game.place_along(&forks, n).unwrap();
                game.analysis_at(&place).cloned().expect("analyzed")
            })
            .collect();
        let stop = AtomicBool::new(false);
        let expected = Analyzer::default()
            .analyze(&game.line_game(&forks).unwrap(), budget, &stop, &mut |_| {})
            .unwrap();
        assert_eq!(line, expected[1..]);
        // The review of the line shows its analysis: the summaries and the graph.
        let shown = screen(&mut rt.app);
        assert!(shown.contains("best "), "{shown}");
        assert!(rt.app.is_dirty(), "the analysis changed the game");
    }

    #[test]
    fn a_game_is_analysed_on_the_worker_and_saved_only_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        let budget = Budget::Limits(Limits::depth(3));
        let (mut rt, file) = escape_running(dir.path(), budget);
        assert_eq!(rt.app.mode(), Mode::Review);
        rt.update(Action::Analyze);
        assert_eq!(rt.app.mode(), Mode::Menu, "the budgets are offered");
        assert!(screen(&mut rt.app).contains("Search each of its 16 positions"));
        rt.update(Action::Confirm);
        assert_eq!(rt.app.mode(), Mode::Review);
        let underway = rt.app.analysis_underway().expect("under way");
        assert_eq!(underway.progress, Progress { done: 0, total: 16 });
        assert!(screen(&mut rt.app).contains("analyzing (custom) 0/16 positions"));
        // A second `a` while it runs says how to stop it.
        rt.update(Action::Analyze);
        assert!(rt.app.status().unwrap().text.contains("Esc stops it"));

        tick_until(&mut rt, |app| app.ai.analysis.is_none());
        let stored: Vec<PlyAnalysis> = rt
            .app
            .session
            .game()
            .analysis()
            .iter()
            .map(|a| a.clone().expect("every move analyzed"))
            .collect();
        assert_eq!(
            stored,
            library(budget),
            "what the library gives, at each move"
        );
        let status = rt.app.status().unwrap().text.clone();
        assert_eq!(status, "analysis done (custom) · s saves it with the game");
        let text = screen(&mut rt.app);
        assert!(text.contains("c7-a7--"), "{text}");
        assert!(!text.contains("analyzing"), "{text}");

        // The file is as it was; the autosave has the analysis; `s` writes it to the file.
        assert!(rt.app.is_dirty());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), ESCAPE);
        let autosaves: Vec<PathBuf> =
            std::fs::read_dir(dir.path().join("saves").join(AUTOSAVE_DIR))
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
        let [autosave] = &autosaves[..] else {
            panic!("one autosave: {autosaves:?}")
        };
        let in_autosave = Game::from_json(&std::fs::read_to_string(autosave).unwrap()).unwrap();
        assert_eq!(in_autosave.analysis(), rt.app.session.game().analysis());
        rt.update(Action::Save);
        assert_eq!(
            rt.app.mode(),
            Mode::Text,
            "the save prompt, from the review"
        );
        rt.update(Action::Confirm);
        assert!(!rt.app.is_dirty());
        let saved = Game::from_json(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(saved.analysis(), rt.app.session.game().analysis());
        assert_eq!(saved.moves(), rt.app.session.game().moves());
    }

    #[test]
    fn progress_and_results_show_as_they_come_and_stale_reports_are_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let budget = Budget::Limits(Limits::depth(2));
        let (mut app, _) = escape(dir.path(), budget);
        let plies = library(budget);
        app.ai.analysis = Some(Analyzing {
            id: 7,
            underway: Underway {
                budget: Budget::Quick,
                progress: Progress { done: 0, total: 16 },
            },
            stored: 0,
            forks: Vec::new(),
        });
        let progress =
            |done| Report::Analysis(7, AnalysisEvent::Progress(Progress { done, total: 16 }));
        assert!(app.take_report(progress(3), Instant::now()));
        let text = screen(&mut app);
        assert!(
            text.contains("analyzing (quick) 3/16 positions · 1.3 s left · Esc cancels"),
            "{text}"
        );
        assert!(text.contains("not analyzed"), "{text}");
        // The last move's result: the review at the end shows it, the list marks nothing yet.
        let last = Report::Analysis(
            7,
            AnalysisEvent::Ply {
                ply: 15,
                analysis: plies[15].clone(),
            },
        );
        assert!(app.take_report(last, Instant::now()));
        assert_eq!(analyzed(&app), 1);
        assert!(app.is_dirty(), "the game gained an analysis");
        let text = screen(&mut app);
        // The last move ended the game: the result takes the place of its scores.
        assert!(text.contains("Defenders win"), "{text}");
        assert!(text.contains(plies[15].class.name()), "{text}");
        // Reports of another job change nothing.
        let stale = Report::Analysis(
            6,
            AnalysisEvent::Ply {
                ply: 3,
                analysis: plies[3].clone(),
            },
        );
        assert!(!app.take_report(stale, Instant::now()));
        assert!(!app.take_report(Report::Analyzed(6, Ok(())), Instant::now()));
        assert_eq!(analyzed(&app), 1);
        assert!(app.ai.analysis.is_some());
        assert!(app.take_report(Report::Analyzed(7, Ok(())), Instant::now()));
        assert!(app.ai.analysis.is_none());
        assert!(
            app.status()
                .unwrap()
                .text
                .starts_with("analysis done (quick)")
        );
    }

    #[test]
    fn quitting_after_analysing_a_loaded_finished_game_asks_and_says_the_file_lacks_it() {
        let dir = tempfile::tempdir().unwrap();
        let budget = Budget::Limits(Limits::depth(1));
        let (mut app, _) = escape(dir.path(), budget);
        app.update(Action::Quit);
        assert!(app.should_quit(), "as loaded: nothing to ask");

        let (mut rt, _) = escape_running(dir.path(), budget);
        rt.app.ai.analysis = Some(Analyzing {
            id: 7,
            underway: Underway {
                budget,
                progress: Progress { done: 0, total: 16 },
            },
            stored: 0,
            forks: Vec::new(),
        });
        let analysis = library(budget)[15].clone();
        let now = Instant::now();
        rt.app.take_report(
            Report::Analysis(7, AnalysisEvent::Ply { ply: 15, analysis }),
            now,
        );
        rt.app.take_report(Report::Analyzed(7, Ok(())), now);
        rt.carry_out_asked();
        rt.update(Action::Quit);
        assert!(!rt.app.should_quit(), "the analysis is in no file");
        assert_eq!(rt.app.mode(), Mode::Question);
        let text = screen(&mut rt.app);
        assert!(
            text.contains("analyzed since it was loaded from") && text.contains("escape"),
            "{text}"
        );
        rt.update(Action::Yes);
        assert!(rt.app.should_quit());
    }

    #[test]
    fn esc_stops_the_analysis_and_keeps_the_moves_analyzed() {
        let dir = tempfile::tempdir().unwrap();
        // Deep enough never to end while the test runs, except where the end is proven: the
        // last moves of the escape game.
        let (mut rt, file) = escape_running(dir.path(), Budget::Limits(Limits::depth(40)));
        rt.update(Action::Analyze);
        rt.update(Action::Confirm);
        tick_until(&mut rt, |app| analyzed(app) > 0);
        let kept = analyzed(&rt.app);
        assert!(kept < 16, "{kept}");
        rt.update(Action::Cancel);
        assert!(rt.app.ai.analysis.is_none());
        assert_eq!(rt.app.mode(), Mode::Review, "Esc stopped the analysis only");
        let status = rt.app.status().unwrap().text.clone();
        assert!(
            status.contains("analysis stopped") && status.contains("keep it"),
            "{status}"
        );
        // What the worker sends after the stop is dropped.
        std::thread::sleep(Duration::from_millis(100));
        rt.tick(Instant::now()).unwrap();
        assert_eq!(analyzed(&rt.app), kept);
        let analysis = rt.app.session.game().analysis();
        assert!(analysis[15].is_some(), "from the last move back");
        assert!(analysis[0].is_none());
        assert!(rt.app.is_dirty());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), ESCAPE);
        rt.update(Action::Cancel);
        assert_eq!(rt.app.mode(), Mode::Board, "then Esc leaves the review");
    }

    #[test]
    fn leaving_the_review_stops_the_analysis() {
        let dir = tempfile::tempdir().unwrap();
        let (mut app, _) = escape(dir.path(), Budget::Limits(Limits::depth(40)));
        app.update(Action::Analyze);
        app.update(Action::Move(Direction::Down));
        app.update(Action::Confirm);
        assert!(app.ai.analysis.is_some());
        app.update(Action::Review);
        assert_eq!(app.mode(), Mode::Board);
        assert!(app.ai.analysis.is_none());
        assert!(app.status().unwrap().text.contains("analysis stopped"));
        // From the game-over banner, `a` opens the review and its budgets.
        app.update(Action::Analyze);
        assert!(matches!(app.screen, Screen::Review(_)));
        assert!(matches!(app.overlays.last(), Some(Overlay::Budget(_))));
        app.update(Action::Cancel);
        assert_eq!(app.mode(), Mode::Review);
        assert!(
            app.ai.analysis.is_none(),
            "Esc in the dialog starts nothing"
        );
    }

    #[test]
    fn no_analysis_while_the_ai_thinks_for_a_person_or_without_moves() {
        let mut app = App::new(Config {
            skip_setup: true,
            defenders: Player::Ai {
                engine: EngineKind::Search,
                level: Level::Hard,
                time: None,
            },
            ..Config::default()
        });
        app.update(Action::Analyze);
        assert_eq!(app.mode(), Mode::Board);
        assert!(app.status().unwrap().text.contains("no moves"));
        app.session.play_text("d2-e2").unwrap();
        app.ai.thinking = Some(Thinking::new(
            1,
            Side::Defenders,
            Purpose::Move,
            app.session.player(Side::Defenders),
        ));
        app.update(Action::Analyze);
        assert_eq!(app.mode(), Mode::Board);
        assert!(app.status().unwrap().text.contains("AI is thinking"));
        assert!(app.overlays.is_empty());
    }
}
