//! An engine's own thread, for any interface: the caller hands it a position (or a whole game
//! to analyse) as a job numbered by the caller, and gets the job's progress and its end back on
//! a channel of its own choosing (the event loop's, in the terminal game), so that it stays
//! free to do other things while the engine thinks: start, stop, progress, done. Each job has
//! its own stop flag, so stopping one never stops the next. A search for a move on main time
//! is paced: the worker stops it once the [`Pacer`] says it has thought enough. The terminal
//! game uses it; it is shaped so that `otep` and `match` can too (a job, reports on a sender of
//! the caller's type).
use std::collections::HashMap;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use super::{Ai, Analyser, Budget, Event, Limits, Pacer, SearchInfo, Stopped, engine_for};
use crate::game::{EngineKind, Game, Level};
use crate::rules::{GameState, Move, Side};

/// Identifies one job, so that reports of a cancelled one can be told apart; the caller
/// numbers its jobs.
pub type JobId = u64;

/// A job to run, with its stop flag.
struct Job {
    id: JobId,
    task: Task,
    stop: Arc<AtomicBool>,
}

/// How long a search may run: its limits, and for a move on main time the time it aims at.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default)]
pub struct MoveLimits {
    /// The search's own bounds; their time is never passed.
    pub limits: Limits,
    /// The time to aim at (a move's target on main time, see
    /// [`MoveBudget`](crate::game::MoveBudget)): a [`Pacer`] follows the completed depths and
    /// the search is stopped, and plays its best move, once the pacer says it has thought
    /// enough. `None`: the search runs to its limits.
    pub target: Option<Duration>,
}

impl From<Limits> for MoveLimits {
    /// `limits` alone, with no target.
    fn from(limits: Limits) -> MoveLimits {
        MoveLimits {
            limits,
            target: None,
        }
    }
}

/// What a job does.
enum Task {
    /// Search the position of `state` for its side to move.
    Search {
        engine: EngineKind,
        level: Level,
        state: GameState,
        limits: MoveLimits,
    },
    /// Analyse every move of `game`.
    Analyse { game: Box<Game>, budget: Budget },
}

/// What the worker reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// A search depth completed.
    Progress(JobId, SearchInfo),
    /// The search ended with this move (`None` if there was none).
    Done(JobId, Option<Move>),
    /// An analysis searched a position or completed a move's analysis.
    Analysis(JobId, Event),
    /// An analysis ended: every move analysed, or stopped first.
    Analysed(JobId, Result<(), Stopped>),
    /// The thread has ended (an engine failed): no more reports will come.
    Gone,
}

/// The AI thread. Dropping it stops the running search and waits for the thread to end.
pub struct Worker {
    jobs: Option<Sender<Job>>,
    /// The job sent last, and its stop flag.
    running: Option<(JobId, Arc<AtomicBool>)>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the thread; engines are seeded with `seed`, and every report is sent on
    /// `reports` (as the channel's own type, so that the reports can share a channel with
    /// other events). A thread that ends by a panic sends [`Report::Gone`] last.
    pub fn spawn<T: From<Report> + Send + 'static>(
        seed: u64,
        reports: Sender<T>,
    ) -> io::Result<Worker> {
        let (jobs, job_rx) = mpsc::channel::<Job>();
        let thread = thread::Builder::new()
            .name("brandubh-ai".to_owned())
            .spawn(move || {
                let deliver = |report: Report| reports.send(T::from(report)).is_ok();
                let _gone = Farewell(&deliver);
                serve(&job_rx, &deliver, seed);
            })?;
        Ok(Worker {
            jobs: Some(jobs),
            running: None,
            thread: Some(thread),
        })
    }

    /// Starts job `id`: a search for the side to move in `state` by `engine` at `level` within
    /// `limits` (each side's engine is kept while its kind and level stay, so its tables carry
    /// over); a running job is stopped. With a target, the search stops as soon as its pacer
    /// says so, and reports the best move so far.
    pub fn start(
        &mut self,
        id: JobId,
        engine: EngineKind,
        level: Level,
        state: &GameState,
        limits: impl Into<MoveLimits>,
    ) {
        let limits = limits.into();
        self.submit(
            id,
            Task::Search {
                engine,
                level,
                state: state.clone(),
                limits,
            },
        );
    }

    /// Starts job `id`: analysing every move of `game` within `budget` per position, with a
    /// fresh analyser (so that a depth budget gives what `brandubh analyze --game` gives); a
    /// running job is stopped. Each move's analysis is reported as it completes, from the last
    /// move to the first.
    pub fn analyse(&mut self, id: JobId, game: &Game, budget: Budget) {
        self.submit(
            id,
            Task::Analyse {
                game: Box::new(game.clone()),
                budget,
            },
        );
    }

    /// Stops the running job and sends `task` to the thread as job `id`.
    fn submit(&mut self, id: JobId, task: Task) {
        if let Some((_, stop)) = self.running.take() {
            stop.store(true, Ordering::Relaxed);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let job = Job {
            id,
            task,
            stop: Arc::clone(&stop),
        };
        if let Some(jobs) = &self.jobs {
            // The thread only ends when the sender is dropped, or by a panic, which it
            // reports (`Report::Gone`); a job sent after that simply does not happen.
            let _ = jobs.send(job);
        }
        self.running = Some((id, stop));
    }

    /// Asks job `id` to end now, if it is the one sent last: a search reports the best move
    /// found so far, an analysis the moves analysed so far. A job already over is left alone.
    pub fn stop(&mut self, id: JobId) {
        if let Some((running, stop)) = &self.running
            && *running == id
        {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        if let Some((_, stop)) = self.running.take() {
            stop.store(true, Ordering::Relaxed);
        }
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            // A panic in the AI thread has already been reported by the panic hook.
            let _ = thread.join();
        }
    }
}

/// Sends [`Report::Gone`] when dropped while the thread unwinds from a panic (an engine
/// failed): the interface learns that no report will come.
struct Farewell<'a>(&'a dyn Fn(Report) -> bool);

impl Drop for Farewell<'_> {
    fn drop(&mut self) {
        if thread::panicking() {
            (self.0)(Report::Gone);
        }
    }
}

/// The thread's loop: runs jobs until the interface hangs up; `deliver` hands a report over and
/// says whether anyone still listens.
fn serve(jobs: &Receiver<Job>, deliver: &dyn Fn(Report) -> bool, seed: u64) {
    // One engine per side, kept while its kind and level stay the same.
    let mut engines: HashMap<Side, (EngineKind, Level, Box<dyn Ai>)> = HashMap::new();
    while let Ok(Job { id, task, stop }) = jobs.recv() {
        let last = match task {
            // Stopped before it started: it ends at once.
            Task::Search { .. } if stop.load(Ordering::Relaxed) => Report::Done(id, None),
            Task::Analyse { .. } if stop.load(Ordering::Relaxed) => {
                Report::Analysed(id, Err(Stopped))
            }
            Task::Search {
                engine,
                level,
                state,
                limits,
            } => {
                let side = state.position().side_to_move();
                let slot = engines
                    .entry(side)
                    .or_insert_with(|| (engine, level, engine_for(engine, level, seed)));
                if (slot.0, slot.1) != (engine, level) {
                    *slot = (engine, level, engine_for(engine, level, seed));
                }
                let mut pacer = limits.target.map(Pacer::new);
                let mv = slot.2.choose(&state, &limits.limits, &stop, &mut |info| {
                    deliver(Report::Progress(id, info.clone()));
                    pace(pacer.as_mut(), info, &stop);
                });
                Report::Done(id, mv)
            }
            Task::Analyse { game, budget } => {
                let ended = Analyser::default().analyse(&game, budget, &stop, &mut |event| {
                    deliver(Report::Analysis(id, event));
                });
                Report::Analysed(id, ended.map(|_| ()))
            }
        };
        if !deliver(last) {
            return;
        }
    }
}

/// Takes a search's progress report `info` into its pacer, if it has one; sets `stop` when the
/// pacer says the search has thought enough (it then plays its best move so far).
fn pace(pacer: Option<&mut Pacer>, info: &SearchInfo, stop: &AtomicBool) {
    if pacer.is_some_and(|p| p.enough(info)) {
        stop.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::rules::Preset;

    /// A worker and the channel of its reports.
    fn spawn() -> (Worker, Receiver<Report>) {
        let (tx, rx) = mpsc::channel();
        (Worker::spawn(7, tx).unwrap(), rx)
    }

    /// The next report, waiting until `deadline`.
    fn next(reports: &Receiver<Report>, deadline: Instant) -> Report {
        reports
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .expect("no answer from the worker")
    }

    fn wait_done(reports: &Receiver<Report>, id: JobId) -> (Option<Move>, usize) {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut progress = 0;
        loop {
            match next(reports, deadline) {
                Report::Done(done, mv) if done == id => return (mv, progress),
                Report::Progress(p, _) if p == id => progress += 1,
                _ => {}
            }
        }
    }

    #[test]
    fn a_search_reports_progress_and_a_legal_move() {
        let (mut worker, reports) = spawn();
        let state = GameState::start(Preset::Standard.rules());
        let id = 1;
        worker.start(
            id,
            EngineKind::Search,
            Level::Easy,
            &state,
            Limits::depth(2),
        );
        let (mv, progress) = wait_done(&reports, id);
        assert!(state.check_move(mv.unwrap()).is_ok());
        assert!(progress >= 1);
    }

    #[test]
    fn stopping_a_long_search_answers_quickly() {
        let (mut worker, reports) = spawn();
        let state = GameState::start(Preset::Standard.rules());
        let id = 1;
        worker.start(
            id,
            EngineKind::Search,
            Level::Max,
            &state,
            Limits::time(Duration::from_secs(60)),
        );
        thread::sleep(Duration::from_millis(100));
        // Without the stop, the answer would take a minute and `wait_done` would give up.
        worker.stop(id);
        let (mv, _) = wait_done(&reports, id);
        assert!(state.check_move(mv.unwrap()).is_ok());
    }

    #[test]
    fn the_pacer_stops_a_search_that_has_thought_enough() {
        use crate::ai::Score;
        use crate::rules::Square;
        let square = |s: &str| s.parse::<Square>().unwrap();
        let best = Move::new(square("d2"), square("c2"));
        let report = |elapsed_ms, partial| SearchInfo {
            depth: 3,
            score: Score::Eval(0),
            nodes: 0,
            nps: 0,
            elapsed: Duration::from_millis(elapsed_ms),
            pv: vec![best],
            partial,
        };
        let stop = AtomicBool::new(false);
        // Without a pacer, nothing stops the search early.
        pace(None, &report(10_000, false), &stop);
        assert!(!stop.load(Ordering::Relaxed));
        let mut pacer = Pacer::new(Duration::from_secs(1));
        // A first depth, early: think on. An unfinished one changes nothing.
        pace(Some(&mut pacer), &report(100, false), &stop);
        pace(Some(&mut pacer), &report(5_000, true), &stop);
        assert!(!stop.load(Ordering::Relaxed));
        // The same best move a depth later, past the target: enough.
        pace(Some(&mut pacer), &report(1_000, false), &stop);
        assert!(stop.load(Ordering::Relaxed));
    }

    #[test]
    fn a_paced_search_plays_before_its_hard_limit() {
        let (mut worker, reports) = spawn();
        let state = GameState::start(Preset::Standard.rules());
        // A minute at most, but nothing to aim at: the pacer stops the search once it has
        // completed a depth, long before `wait_done` would give up (30 s).
        let id = 1;
        worker.start(
            id,
            EngineKind::Search,
            Level::Max,
            &state,
            MoveLimits {
                limits: Limits::time(Duration::from_secs(60)),
                target: Some(Duration::ZERO),
            },
        );
        let (mv, progress) = wait_done(&reports, id);
        assert!(state.check_move(mv.unwrap()).is_ok());
        assert!(progress >= 1);
    }

    /// Every report of job `id` until its last one.
    fn analysis_reports(received: &Receiver<Report>, id: JobId) -> Vec<Report> {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut reports = Vec::new();
        loop {
            match next(received, deadline) {
                report @ Report::Analysed(done, _) if done == id => {
                    reports.push(report);
                    return reports;
                }
                report @ Report::Analysis(of, _) if of == id => reports.push(report),
                _ => {}
            }
        }
    }

    fn three_moves() -> Game {
        let mut game = Game::new(
            Preset::Standard.rules(),
            crate::rules::Position::start(),
            crate::game::Player::Human,
            crate::game::Player::Human,
        );
        for mv in ["d2-c2", "c4-c3", "d1-d2"] {
            game.play_text(mv).unwrap();
        }
        game
    }

    #[test]
    fn an_analysis_reports_each_move_and_what_the_library_gives() {
        let (mut worker, reports) = spawn();
        let game = three_moves();
        let budget = Budget::Limits(Limits::depth(2));
        let id = 1;
        worker.analyse(id, &game, budget);
        let reports = analysis_reports(&reports, id);
        assert_eq!(reports.last(), Some(&Report::Analysed(id, Ok(()))));
        let stop = AtomicBool::new(false);
        let expected = Analyser::default()
            .analyse(&game, budget, &stop, &mut |_| {})
            .unwrap();
        let plies: Vec<(usize, crate::game::PlyAnalysis)> = reports
            .iter()
            .filter_map(|r| match r {
                Report::Analysis(_, Event::Ply { ply, analysis }) => Some((*ply, analysis.clone())),
                _ => None,
            })
            .collect();
        let in_order: Vec<_> = expected.into_iter().enumerate().rev().collect();
        assert_eq!(plies, in_order, "from the last move to the first");
        let progress = reports
            .iter()
            .filter(|r| matches!(r, Report::Analysis(_, Event::Progress(_))))
            .count();
        assert_eq!(
            progress, 4,
            "the position after the last move, and one before each"
        );
    }

    #[test]
    fn stopping_an_analysis_ends_it_with_what_it_has() {
        let (mut worker, reports) = spawn();
        let id = 1;
        worker.analyse(
            id,
            &three_moves(),
            Budget::Limits(Limits::time(Duration::from_secs(60))),
        );
        thread::sleep(Duration::from_millis(100));
        // Without the stop, the analysis would take four minutes and the wait would give up.
        worker.stop(id);
        let analysed = analysis_reports(&reports, id);
        assert_eq!(analysed.last(), Some(&Report::Analysed(id, Err(Stopped))));
        // The worker takes the next job.
        let next = 2;
        worker.start(
            next,
            EngineKind::Random,
            Level::Easy,
            &GameState::start(Preset::Standard.rules()),
            Limits::depth(1),
        );
        assert!(wait_done(&reports, next).0.is_some());
    }

    #[test]
    fn a_thread_that_panics_says_it_is_gone() {
        let (tx, rx) = mpsc::channel();
        let thread = thread::spawn(move || {
            let deliver = |report: Report| tx.send(report).is_ok();
            let _gone = Farewell(&deliver);
            panic!("an engine failed (this panic is the test's)");
        });
        assert!(thread.join().is_err());
        assert_eq!(rx.try_iter().collect::<Vec<_>>(), [Report::Gone]);
    }

    #[test]
    fn a_new_search_replaces_the_running_one() {
        let (mut worker, reports) = spawn();
        let state = GameState::start(Preset::Standard.rules());
        let (first, second) = (1, 2);
        worker.start(
            first,
            EngineKind::Search,
            Level::Max,
            &state,
            Limits::time(Duration::from_secs(60)),
        );
        worker.start(
            second,
            EngineKind::Random,
            Level::Easy,
            &state,
            Limits::depth(1),
        );
        let (mv, _) = wait_done(&reports, second);
        assert!(mv.is_some());
    }
}
