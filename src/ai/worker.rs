//! An engine's own thread, for any interface: the caller hands it a position (or a whole game
//! to analyze) as a job numbered by the caller, and gets the job's progress and its end back on
//! a channel of its own choosing (the event loop's, in the terminal game), so that it stays
//! free to do other things while the engine thinks: start, stop, progress, done. Each job has
//! its own stop flag, so stopping one never stops the next, and a new job stops the one
//! before. A search for a move on main time is paced: the worker stops it once the [`Pacer`]
//! says it has thought enough.
//!
//! The terminal game, `otep` and `match` all think through it. A worker either builds its
//! engines from their kind and level, one per side kept while they stay ([`Worker::spawn`],
//! the terminal game's), or is given one engine that plays every search
//! ([`Worker::with_engine`]: `otep`'s, whose table lives from search to search, and each
//! engine of a `match` game, built-in or in another program).
use std::collections::HashMap;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use super::engine::{Ai, NoMove, SearchInfo};
use super::game_analyzer::{AnalysisEvent, Analyzer, Budget, Stopped};
use super::levels::engine_for;
use super::limits::Limits;
use super::pacing::Pacer;
use crate::game::{Clocks, EngineKind, Game, Level, MoveBudget};
use crate::rules::{GameState, Move, Outcome, Position, Side};

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

impl MoveLimits {
    /// `limits` (a level's own, as [`limits_with`](super::limits_with) gives them) for a move
    /// whose clock allows `budget`: the clock may shorten the level's time, never lengthen
    /// it, so that however long the clock (days per move, or an absurd one from a file) the
    /// AI thinks no longer than its level says. A level without a time of its own (bounded
    /// by depth) gets the clock's most. The clock's target is kept only when it is shorter
    /// than that time: else the time is used whole, as without a clock.
    pub fn on_clock(limits: Limits, budget: MoveBudget) -> MoveLimits {
        let time = limits.time.map_or(budget.most, |own| own.min(budget.most));
        MoveLimits {
            limits: limits.with_time(time),
            target: budget.target.filter(|&target| target < time),
        }
    }
}

impl MoveLimits {
    /// `limits` for `side`'s move in `position`, on `clocks` if the game has them: their
    /// time cut to the most the clock allows ([`Clocks::move_budget`], from the pieces on
    /// the board) and on main time the target the pacer aims at ([`MoveLimits::on_clock`]);
    /// `limits` alone without clocks. The terminal game and `brandubh bot` budget by it.
    pub fn on_clocks(
        limits: Limits,
        clocks: Option<&Clocks>,
        side: Side,
        position: &Position,
    ) -> MoveLimits {
        let Some(clocks) = clocks else {
            return limits.into();
        };
        let pieces = position.occupied().count();
        MoveLimits::on_clock(limits, clocks.move_budget(side, pieces))
    }
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
    /// Search the position of `state` for its side to move, with the engine of this kind and
    /// level (`None`: the worker's own).
    Search {
        engine: Option<(EngineKind, Level)>,
        state: GameState,
        limits: MoveLimits,
    },
    /// The `count` best lines of `state`, by the worker's own engine.
    Lines {
        state: GameState,
        count: usize,
        limits: Limits,
    },
    /// Analyze every move of `game`.
    Analyze { game: Box<Game>, budget: Budget },
    /// Tell the engines that the game is over; nothing is reported.
    GameOver(Outcome),
    /// Run a piece of work of the caller's (an exact proof, for the puzzle trainer), which
    /// reports by itself; the worker reports nothing.
    Call(Box<dyn FnOnce() + Send>),
}

/// The engines a worker plays with.
enum Engines {
    /// Built from their kind and level, seeded with `seed`: one per side, kept while its kind
    /// and level stay the same (so its tables carry over).
    Built {
        seed: u64,
        by_side: HashMap<Side, (EngineKind, Level, Box<dyn Ai>)>,
    },
    /// One engine, given by the caller, that plays every search.
    Given(Box<dyn Ai>),
}

impl Engines {
    /// The engine that searches for `side` (the kind and level asked, or the default engine,
    /// when they are `None`, for a worker that builds them; the given one else).
    fn for_side(&mut self, side: Side, asked: Option<(EngineKind, Level)>) -> &mut dyn Ai {
        match self {
            Engines::Given(engine) => engine.as_mut(),
            Engines::Built { seed, by_side } => {
                let (kind, level) = asked.unwrap_or_default();
                let slot = by_side
                    .entry(side)
                    .or_insert_with(|| (kind, level, engine_for(kind, level, *seed)));
                if (slot.0, slot.1) != (kind, level) {
                    *slot = (kind, level, engine_for(kind, level, *seed));
                }
                slot.2.as_mut()
            }
        }
    }

    /// Tells every engine that its game is over with `outcome`.
    fn game_over(&mut self, outcome: Outcome) {
        match self {
            Engines::Given(engine) => engine.game_over(&outcome),
            Engines::Built { by_side, .. } => {
                for slot in by_side.values_mut() {
                    slot.2.game_over(&outcome);
                }
            }
        }
    }
}

/// What the worker reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// A search depth completed.
    Progress(JobId, SearchInfo),
    /// The search ended with this move, or why it has none.
    Done(JobId, Result<Move, NoMove>),
    /// The search for lines ended with these, best first.
    Lines(JobId, Vec<SearchInfo>),
    /// An analysis searched a position or completed a move's analysis.
    Analysis(JobId, AnalysisEvent),
    /// An analysis ended: every move analyzed, or stopped first.
    Analyzed(JobId, Result<(), Stopped>),
    /// The thread has ended (an engine failed): no more reports will come.
    Gone,
}

impl Report {
    /// The job it reports on (`None`: the thread ended, which concerns every job).
    pub const fn job(&self) -> Option<JobId> {
        match self {
            Report::Progress(id, _)
            | Report::Done(id, _)
            | Report::Lines(id, _)
            | Report::Analysis(id, _)
            | Report::Analyzed(id, _) => Some(*id),
            Report::Gone => None,
        }
    }
}

/// The AI thread. Dropping it stops the running search and waits for the thread to end.
pub struct Worker {
    jobs: Option<Sender<Job>>,
    /// The job sent last, and its stop flag.
    running: Option<(JobId, Arc<AtomicBool>)>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the thread, which builds its engines from the kind and level each search asks
    /// for, seeded with `seed`; every report is sent on `reports` (as the channel's own type,
    /// so that the reports can share a channel with other events). A thread that ends by a
    /// panic sends [`Report::Gone`] last.
    pub fn spawn<T: From<Report> + Send + 'static>(
        seed: u64,
        reports: Sender<T>,
    ) -> io::Result<Worker> {
        Worker::run(
            Engines::Built {
                seed,
                by_side: HashMap::new(),
            },
            reports,
        )
    }

    /// Starts the thread with `engine`, which plays every search (whatever kind and level a
    /// search asks for) and lives as long as the worker; reports as [`Worker::spawn`] sends
    /// them.
    pub fn with_engine<T: From<Report> + Send + 'static>(
        engine: Box<dyn Ai>,
        reports: Sender<T>,
    ) -> io::Result<Worker> {
        Worker::run(Engines::Given(engine), reports)
    }

    /// Starts the thread with `engines`.
    fn run<T: From<Report> + Send + 'static>(
        engines: Engines,
        reports: Sender<T>,
    ) -> io::Result<Worker> {
        let (jobs, job_rx) = mpsc::channel::<Job>();
        let thread = thread::Builder::new()
            .name("brandubh-ai".to_owned())
            .spawn(move || {
                let deliver = |report: Report| reports.send(T::from(report)).is_ok();
                let _gone = Farewell(&deliver);
                serve(&job_rx, &deliver, engines);
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
                engine: Some((engine, level)),
                state: state.clone(),
                limits,
            },
        );
    }

    /// Starts job `id`: a search for the side to move in `state` by the worker's own engine
    /// (the one it was given, see [`Worker::with_engine`]) within `limits`; a running job is
    /// stopped. It ends as [`Worker::start`]'s searches do.
    pub fn play(&mut self, id: JobId, state: &GameState, limits: impl Into<MoveLimits>) {
        self.submit(
            id,
            Task::Search {
                engine: None,
                state: state.clone(),
                limits: limits.into(),
            },
        );
    }

    /// Starts job `id`: the `count` best lines of `state` by the worker's own engine within
    /// `limits` (see [`Ai::lines`]), reported at the end as [`Report::Lines`]; a running job
    /// is stopped. Stopped, it reports the lines found so far.
    pub fn lines(&mut self, id: JobId, state: &GameState, count: usize, limits: Limits) {
        self.submit(
            id,
            Task::Lines {
                state: state.clone(),
                count,
                limits,
            },
        );
    }

    /// Tells the engines that their game is over with `outcome` (an engine in another
    /// program is sent `finish`), after the job running; nothing is reported.
    pub fn game_over(&mut self, outcome: Outcome) {
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(Job {
                id: 0,
                task: Task::GameOver(outcome),
                stop: Arc::new(AtomicBool::new(false)),
            });
        }
    }

    /// Runs `work` on the engine's thread after the job running (the puzzle trainer's exact
    /// judgements, which must not hold up the interface either); `work` sends its own result,
    /// and the worker reports nothing for it.
    pub fn call(&mut self, work: Box<dyn FnOnce() + Send>) {
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(Job {
                id: 0,
                task: Task::Call(work),
                stop: Arc::new(AtomicBool::new(false)),
            });
        }
    }

    /// Starts job `id`: analyzing every move of `game` within `budget` per position, with a
    /// fresh analyzer (so that a depth budget gives what `brandubh analyze --game` gives); a
    /// running job is stopped. Each move's analysis is reported as it completes, from the last
    /// move to the first.
    pub fn analyze(&mut self, id: JobId, game: &Game, budget: Budget) {
        self.submit(
            id,
            Task::Analyze {
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
    /// found so far, an analysis the moves analyzed so far. A job already over is left alone.
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

/// The thread's loop: runs jobs with `engines` until the interface hangs up; `deliver` hands a
/// report over and says whether anyone still listens.
fn serve(jobs: &Receiver<Job>, deliver: &dyn Fn(Report) -> bool, mut engines: Engines) {
    while let Ok(Job { id, task, stop }) = jobs.recv() {
        let last = match task {
            Task::GameOver(outcome) => {
                engines.game_over(outcome);
                continue;
            }
            Task::Call(work) => {
                work();
                continue;
            }
            // Stopped before it started: it ends at once. (A search still asks its engine,
            // which answers at once with the move it would play without thinking, if it has
            // one: a move whose time ran out before it started is still played.)
            Task::Lines { .. } if stop.load(Ordering::Relaxed) => Report::Lines(id, Vec::new()),
            Task::Analyze { .. } if stop.load(Ordering::Relaxed) => {
                Report::Analyzed(id, Err(Stopped))
            }
            Task::Search {
                engine,
                state,
                limits,
            } => {
                let side = state.position().side_to_move();
                let mut pacer = limits.target.map(Pacer::new);
                let mv = engines.for_side(side, engine).choose(
                    &state,
                    &limits.limits,
                    &stop,
                    &mut |info| {
                        deliver(Report::Progress(id, info.clone()));
                        pace(pacer.as_mut(), info, &stop);
                    },
                );
                Report::Done(id, mv)
            }
            Task::Lines {
                state,
                count,
                limits,
            } => {
                let side = state.position().side_to_move();
                let lines = engines
                    .for_side(side, None)
                    .lines(&state, count, &limits, &stop);
                Report::Lines(id, lines)
            }
            Task::Analyze { game, budget } => {
                let ended = Analyzer::default().analyze(&game, budget, &stop, &mut |event| {
                    deliver(Report::Analysis(id, event));
                });
                Report::Analyzed(id, ended.map(|_| ()))
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
    use std::sync::atomic::AtomicUsize;
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

    fn wait_done(reports: &Receiver<Report>, id: JobId) -> (Result<Move, NoMove>, usize) {
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
        use crate::game::Score;
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
                report @ Report::Analyzed(done, _) if done == id => {
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
        worker.analyze(id, &game, budget);
        let reports = analysis_reports(&reports, id);
        assert_eq!(reports.last(), Some(&Report::Analyzed(id, Ok(()))));
        let stop = AtomicBool::new(false);
        let expected = Analyzer::default()
            .analyze(&game, budget, &stop, &mut |_| {})
            .unwrap();
        let plies: Vec<(usize, crate::game::PlyAnalysis)> = reports
            .iter()
            .filter_map(|r| match r {
                Report::Analysis(_, AnalysisEvent::Ply { ply, analysis }) => {
                    Some((*ply, analysis.clone()))
                }
                _ => None,
            })
            .collect();
        let in_order: Vec<_> = expected.into_iter().enumerate().rev().collect();
        assert_eq!(plies, in_order, "from the last move to the first");
        let progress = reports
            .iter()
            .filter(|r| matches!(r, Report::Analysis(_, AnalysisEvent::Progress(_))))
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
        worker.analyze(
            id,
            &three_moves(),
            Budget::Limits(Limits::time(Duration::from_secs(60))),
        );
        thread::sleep(Duration::from_millis(100));
        // Without the stop, the analysis would take four minutes and the wait would give up.
        worker.stop(id);
        let analyzed = analysis_reports(&reports, id);
        assert_eq!(analyzed.last(), Some(&Report::Analyzed(id, Err(Stopped))));
        // The worker takes the next job.
        let next = 2;
        worker.start(
            next,
            EngineKind::Random,
            Level::Easy,
            &GameState::start(Preset::Standard.rules()),
            Limits::depth(1),
        );
        assert!(wait_done(&reports, next).0.is_ok());
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

    /// An engine that plays the first legal move and counts the games it is told are over.
    struct Counting(Arc<AtomicUsize>);

    impl Ai for Counting {
        fn name(&self) -> String {
            "counting".to_owned()
        }

        fn choose(
            &mut self,
            state: &GameState,
            _limits: &Limits,
            _stop: &AtomicBool,
            _progress: &mut dyn FnMut(&SearchInfo),
        ) -> Result<Move, NoMove> {
            state.legal_moves().first().copied().ok_or(NoMove::GameOver)
        }

        fn game_over(&mut self, _outcome: &Outcome) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn a_given_engine_plays_every_search_and_hears_the_game_is_over() {
        let over = Arc::new(AtomicUsize::new(0));
        let (tx, reports) = mpsc::channel();
        let mut worker = Worker::with_engine(Box::new(Counting(Arc::clone(&over))), tx).unwrap();
        let state = GameState::start(Preset::Standard.rules());
        let first = state.legal_moves().first().copied();
        worker.play(1, &state, Limits::depth(1));
        assert_eq!(wait_done(&reports, 1).0.ok(), first);
        // Whatever engine a search asks for, the given one plays it.
        worker.start(2, EngineKind::Search, Level::Max, &state, Limits::depth(9));
        assert_eq!(wait_done(&reports, 2).0.ok(), first);
        worker.game_over(crate::rules::Outcome::draw(
            crate::rules::Reason::Adjudicated,
        ));
        drop(worker);
        assert_eq!(over.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_search_says_why_it_has_no_move() {
        let (mut worker, reports) = spawn();
        let over = GameState::new(
            Preset::Standard.rules(),
            "/7/7/7/7/7/7/7/ a".parse().unwrap(),
        );
        worker.start(1, EngineKind::Search, Level::Easy, &over, Limits::depth(2));
        assert_eq!(wait_done(&reports, 1).0, Err(NoMove::GameOver));
    }

    #[test]
    fn the_search_engine_gives_its_best_lines() {
        let (tx, reports) = mpsc::channel();
        let engine = crate::ai::search::SearchAi::new(Level::Max, 1, 1);
        let mut worker = Worker::with_engine(Box::new(engine), tx).unwrap();
        let state = GameState::start(Preset::Standard.rules());
        worker.lines(1, &state, 3, Limits::depth(2));
        let deadline = Instant::now() + Duration::from_secs(30);
        let lines = loop {
            if let Report::Lines(1, lines) = next(&reports, deadline) {
                break lines;
            }
        };
        assert_eq!(lines.len(), 3);
        assert!(lines.windows(2).all(|w| w[0].pv[0] != w[1].pv[0]));
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
        assert!(mv.is_ok());
    }
}

#[cfg(test)]
mod call_tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use super::*;

    #[test]
    fn work_called_runs_on_the_thread_after_the_job_running_and_reports_itself() {
        let (reports, _reports_rx) = mpsc::channel::<Report>();
        let mut worker = Worker::spawn(7, reports).unwrap();
        let (tx, rx) = mpsc::channel();
        let ours = thread::current().id();
        worker.call(Box::new(move || {
            let _ = tx.send(thread::current().id());
        }));
        let theirs = rx.recv_timeout(Duration::from_secs(30)).unwrap();
        assert_ne!(theirs, ours, "on the worker's thread");
    }
}
