//! The protocol loop: reads OpenTafl's commands, keeps the game in step, and answers with the
//! search engine's moves and analysis. The search runs on the engine's worker
//! ([`ai::Worker`]), so `goodbye`, `finish` or a new `rules` stop it at once and nothing waits
//! on a blocked read.
//!
//! Nothing grows with the input: the worker's one engine (and its transposition table) lives
//! from search to search, a new request stopping the one before; and lines are read at most
//! [`LINES_AHEAD`] ahead of the session, so a writer faster than the engine waits on its pipe
//! instead of filling a queue.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::thread;
use std::time::{Duration, Instant};

use super::clock::Clock;
use crate::ai::{
    self, DEFAULT_TT_MB, JobId, Limits, NoMove, Pacer, Report, SearchAi, SearchInfo, TimeSource,
    Worker,
};
use crate::capped_lines::{MAX_LINE_BYTES, read_line};
use crate::game::{Level, MoveBudget};
use crate::quote::{MESSAGE_CHARS, escaped, excerpt};
use crate::rules::{
    GameState, Move, MoveText, Preset, Rules, Side, parse_position_record, parse_rules_string,
    position_record,
};

/// Lines read ahead of the session, at most.
const LINES_AHEAD: usize = 16;

/// How the engine plays.
#[derive(Clone, Debug)]
pub struct Options {
    /// The search level (`max` by default: the clock decides how long it thinks).
    pub level: Level,
    /// Thinking time per move when OpenTafl sends no running clock.
    pub default_time: Duration,
    /// Seed of the engine's randomness.
    pub seed: u64,
    /// Where the time a move may take is measured ([`RealTime`](crate::ai::RealTime) but in
    /// tests).
    pub time: Arc<dyn TimeSource>,
}

enum Incoming {
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`], skipped.
    LineTooLong,
    Closed,
    /// The engine's worker reports.
    Engine(Report),
}

impl From<Report> for Incoming {
    fn from(report: Report) -> Incoming {
        Incoming::Engine(report)
    }
}

/// What a search is for.
#[derive(Copy, Clone, Debug)]
enum Job {
    /// A move for this side, on the clock.
    Play(Side),
    /// Up to this many lines.
    Analyze(usize),
}

/// What a finished search found.
enum Answer {
    Move(Result<Move, NoMove>),
    Lines(Vec<SearchInfo>),
}

struct Running {
    id: JobId,
    job: Job,
    /// Whether the session has stopped it (it then answers with its best move).
    stopped: bool,
    /// When the search began.
    started: Instant,
    /// When the session stops it (a move's time, from the clock); `None` once stopped, or for
    /// a search that ends by its own limits.
    deadline: Option<Instant>,
    /// For a move on main time: says when the search has thought enough, before the deadline.
    pacer: Option<Pacer>,
}

/// Speaks the protocol on `input`/`output` until `goodbye` or the end of input. `log`, if
/// given, receives every line in (`<`) and out (`>`).
pub fn serve<R, W>(
    input: R,
    output: W,
    log: Option<Box<dyn Write + Send>>,
    options: Options,
) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let (tx, rx) = mpsc::channel();
    let (credit, credits) = mpsc::sync_channel(LINES_AHEAD);
    for _ in 0..LINES_AHEAD {
        let _ = credit.try_send(());
    }
    spawn_reader(input, tx.clone(), credits);
    let mut conversation = Conversation::new(output, log, options, tx, credit)?;
    conversation.send("hello")?;
    let result = conversation.run(&rx);
    conversation.cancel_search();
    result
}

/// Reads the input on a thread of its own, one line for each credit the session gives back as
/// it handles a line (it starts with [`LINES_AHEAD`]).
fn spawn_reader<R: BufRead + Send + 'static>(
    mut input: R,
    tx: Sender<Incoming>,
    credits: Receiver<()>,
) {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        while credits.recv().is_ok() {
            let event = match read_line(&mut input, &mut bytes) {
                Ok(Some(true)) => Incoming::Line(String::from_utf8_lossy(&bytes).trim().to_owned()),
                Ok(Some(false)) => Incoming::LineTooLong,
                Ok(None) | Err(_) => break,
            };
            if tx.send(event).is_err() {
                return;
            }
        }
        let _ = tx.send(Incoming::Closed);
    });
}

struct Conversation<W> {
    out: W,
    log: Option<Box<dyn Write + Send>>,
    options: Options,
    tx: Sender<Incoming>,
    /// Lets the reader read one more line.
    credit: SyncSender<()>,
    rules: Rules,
    state: GameState,
    clock: Option<Clock>,
    /// The engine's thread, with its one engine.
    worker: Worker,
    search: Option<Running>,
    next_id: JobId,
    /// Whether our last output was a move OpenTafl has not yet confirmed.
    move_unconfirmed: bool,
    quit: bool,
}

impl<W: Write> Conversation<W> {
    fn new(
        out: W,
        log: Option<Box<dyn Write + Send>>,
        options: Options,
        tx: Sender<Incoming>,
        credit: SyncSender<()>,
    ) -> io::Result<Self> {
        let rules = Preset::OpenTafl.rules();
        let engine = SearchAi::new(options.level, options.seed, DEFAULT_TT_MB);
        let worker = Worker::with_engine(Box::new(engine), tx.clone())?;
        Ok(Conversation {
            out,
            log,
            options,
            tx,
            credit,
            rules,
            state: GameState::start(rules),
            clock: None,
            worker,
            search: None,
            next_id: 0,
            move_unconfirmed: false,
            quit: false,
        })
    }

    fn run(&mut self, rx: &Receiver<Incoming>) -> io::Result<()> {
        while !self.quit {
            let event = match self.time_left() {
                Some(wait) => match rx.recv_timeout(wait) {
                    Ok(event) => event,
                    // The time source says whether the move's time is up.
                    Err(RecvTimeoutError::Timeout) => continue,
                    Err(RecvTimeoutError::Disconnected) => break,
                },
                None => match rx.recv() {
                    Ok(event) => event,
                    Err(_) => break,
                },
            };
            match event {
                Incoming::Line(line) => {
                    let _ = self.credit.try_send(());
                    self.note('<', &line);
                    self.handle(&line)?;
                }
                Incoming::LineTooLong => {
                    let _ = self.credit.try_send(());
                    self.note('<', "(a line over the length limit, skipped)");
                    self.error(
                        0,
                        &format!("line longer than {MAX_LINE_BYTES} bytes: skipped"),
                    )?;
                }
                Incoming::Closed => break,
                Incoming::Engine(report) => self.on_report(report)?,
            }
        }
        Ok(())
    }

    /// How long the running search may go on before its move's time is up; `None` when
    /// nothing stops it but itself. Once the time source says the time is up, the search is
    /// stopped (it then answers with its best move), and it is `None` too.
    fn time_left(&mut self) -> Option<Duration> {
        let deadline = self.search.as_ref()?.deadline?;
        let left = deadline.saturating_duration_since(self.options.time.now());
        if left.is_zero() {
            self.out_of_time();
            return None;
        }
        Some(left)
    }

    /// Takes a report of the engine's worker.
    fn on_report(&mut self, report: Report) -> io::Result<()> {
        match report {
            Report::Progress(id, info) => self.progress(id, &info),
            Report::Done(id, result) => self.finish_search(id, Answer::Move(result)),
            Report::Lines(id, lines) => self.finish_search(id, Answer::Lines(lines)),
            Report::Gone => {
                // The engine failed: a new one plays from the next request.
                self.search = None;
                self.worker = Worker::with_engine(
                    Box::new(SearchAi::new(
                        self.options.level,
                        self.options.seed,
                        DEFAULT_TT_MB,
                    )),
                    self.tx.clone(),
                )?;
                self.error(-1, "the engine stopped working")
            }
            Report::Analysis(..) | Report::Analyzed(..) => Ok(()),
        }
    }

    /// Search `id` reports `info`: it goes to OpenTafl as a status line, and to the pacer,
    /// which may say the search has thought enough.
    fn progress(&mut self, id: JobId, info: &SearchInfo) -> io::Result<()> {
        if let Some(running) = self.search.as_mut().filter(|s| s.id == id) {
            let enough = running.pacer.as_mut().is_some_and(|p| p.enough(info));
            self.send(&status_line(info))?;
            if enough {
                self.out_of_time();
            }
        }
        Ok(())
    }

    fn note(&mut self, direction: char, line: &str) {
        if let Some(log) = &mut self.log {
            let _ = writeln!(log, "{direction} {line}");
            let _ = log.flush();
        }
    }

    fn send(&mut self, line: &str) -> io::Result<()> {
        self.note('>', line);
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    /// Reports an error; whatever input the message quotes cannot put a control character on
    /// the line.
    fn error(&mut self, code: i32, message: &str) -> io::Result<()> {
        self.send(&format!("error {code} {}", escaped(message, MESSAGE_CHARS)))
    }

    fn handle(&mut self, line: &str) -> io::Result<()> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] | ["hello" | "start" | "simple-moves", ..] => Ok(()),
            ["rules", ..] => {
                self.cancel_search();
                let text = line.trim_start().trim_start_matches("rules");
                match parse_rules_string(text) {
                    Ok((rules, start)) => {
                        self.rules = rules;
                        self.state = GameState::new(rules, start);
                        Ok(())
                    }
                    Err(e) => self.error(-1, &e.to_string()),
                }
            }
            ["position", record] => {
                self.cancel_search();
                let side = self.state.position().side_to_move();
                self.set_position(record, side)
            }
            ["side", side] => match parse_side(side) {
                Some(side) => {
                    self.cancel_search();
                    let record = position_record(self.state.position());
                    self.set_position(&record, side)
                }
                None => self.error(0, &format!("unknown side \"{}\"", excerpt(side))),
            },
            ["clock", args @ ..] => match Clock::parse(args) {
                Some(clock) => {
                    self.clock = Some(clock);
                    self.time_the_move();
                    Ok(())
                }
                None => self.error(0, &format!("malformed clock \"{}\"", excerpt(line))),
            },
            ["play", side] => match parse_side(side) {
                Some(side) => self.play(side),
                None => self.error(0, &format!("unknown side \"{}\"", excerpt(side))),
            },
            ["move", record] => self.confirm_our_move(record),
            ["opponent-move", moves, record] => self.opponent_moved(moves, record),
            ["analyze", count, seconds] => match (count.parse::<u32>(), seconds.parse::<f64>()) {
                (Ok(n), Ok(s)) if n > 0 && s.is_finite() && s > 0.0 => {
                    self.cancel_search();
                    let limits = Limits::time(Duration::from_secs_f64(s.min(86_400.0)));
                    let lines = usize::try_from(n).unwrap_or(usize::MAX);
                    self.start_search(Job::Analyze(lines), limits);
                    Ok(())
                }
                _ => self.error(0, &format!("malformed analyze \"{}\"", excerpt(line))),
            },
            ["finish", ..] => {
                self.cancel_search();
                self.state = GameState::new(self.rules, *self.state.start_position());
                Ok(())
            }
            ["goodbye"] => {
                self.cancel_search();
                self.quit = true;
                Ok(())
            }
            ["error", code, ..] => {
                if self.move_unconfirmed && matches!(*code, "1" | "2" | "3") {
                    self.state.undo();
                    self.move_unconfirmed = false;
                }
                Ok(())
            }
            [
                command @ ("position" | "side" | "play" | "move" | "opponent-move" | "analyze"),
                ..,
            ] => self.error(
                0,
                &format!("malformed {command} command \"{}\"", excerpt(line)),
            ),
            [command, ..] => self.error(0, &format!("unknown command \"{}\"", excerpt(command))),
        }
    }

    fn set_position(&mut self, record: &str, side: Side) -> io::Result<()> {
        match parse_position_record(record, side) {
            Ok(position) => {
                self.state = GameState::new(self.rules, position);
                Ok(())
            }
            Err(e) => self.error(0, &format!("bad position \"{}\": {e}", excerpt(record))),
        }
    }

    fn play(&mut self, side: Side) -> io::Result<()> {
        self.cancel_search();
        if self.state.position().side_to_move() != side {
            let record = position_record(self.state.position());
            self.error(
                0,
                &format!(
                    "asked to play {side} but {} are to move here; playing {side}",
                    side.opponent()
                ),
            )?;
            self.set_position(&record, side)?;
        }
        if let Some(outcome) = self.state.outcome() {
            return self.error(-1, &format!("the game is already over here ({outcome})"));
        }
        // Thinking starts at once, bounded by the level alone (a depth for the lower levels);
        // the session stops it when the move's time from the clock is up. A `clock` line
        // before `play` (as OpenTafl sends it) or after it (as its specification has it) sets
        // that time.
        let limits = Limits {
            time: None,
            ..ai::limits_for(self.options.level)
        };
        self.start_search(Job::Play(side), limits);
        self.time_the_move();
        Ok(())
    }

    /// Sets when the move being thought about must be played: the clock's budget for its
    /// side from when thinking began (on main time, a search that has settled plays sooner),
    /// or the default time without a running clock.
    fn time_the_move(&mut self) {
        let Some(running) = &mut self.search else {
            return;
        };
        if let Job::Play(side) = running.job {
            let pieces = self.state.position().occupied().count();
            let budget = self
                .clock
                .and_then(|c| c.budget(side, pieces))
                .unwrap_or(MoveBudget {
                    most: self.options.default_time,
                    target: None,
                });
            running.deadline = Some(running.started + budget.most);
            running.pacer = budget.target.map(Pacer::new);
        }
    }

    /// The move's time is up: the search stops and answers with its best move so far.
    fn out_of_time(&mut self) {
        if let Some(running) = &mut self.search {
            self.worker.stop(running.id);
            running.stopped = true;
            running.deadline = None;
        }
    }

    /// Starts a search with the worker's engine, stopping the one running first: there is
    /// never more than one engine.
    fn start_search(&mut self, job: Job, limits: Limits) {
        self.cancel_search();
        let id = self.next_id;
        self.next_id += 1;
        match job {
            Job::Play(_) => self.worker.play(id, &self.state, limits),
            Job::Analyze(count) => self.worker.lines(id, &self.state, count, limits),
        }
        self.search = Some(Running {
            id,
            job,
            stopped: false,
            started: self.options.time.now(),
            deadline: None,
            pacer: None,
        });
    }

    /// Stops a running search; its result is dropped.
    fn cancel_search(&mut self) {
        if let Some(running) = self.search.take() {
            self.worker.stop(running.id);
        }
    }

    fn finish_search(&mut self, id: JobId, answer: Answer) -> io::Result<()> {
        // The answer of a search stopped meanwhile is stale.
        if self.search.take_if(|s| s.id == id).is_none() {
            return Ok(());
        }
        match answer {
            Answer::Move(Ok(mv)) => {
                if self.state.play(mv).is_err() {
                    return self.error(-1, &format!("the engine chose an illegal move {mv}"));
                }
                self.move_unconfirmed = true;
                self.send(&format!("move {mv}"))
            }
            Answer::Move(Err(NoMove::GameOver)) => self.error(-1, "no legal move"),
            Answer::Move(Err(why)) => self.error(-1, &format!("no move: {why}")),
            Answer::Lines(lines) => self.send(&analysis_line(&lines)),
        }
    }

    /// `move <record>`: OpenTafl accepted our move; its board must be ours.
    fn confirm_our_move(&mut self, record: &str) -> io::Result<()> {
        self.move_unconfirmed = false;
        self.check_board(record, "after our move")
    }

    /// `opponent-move <list> <record>`: plays the listed moves and checks the board.
    fn opponent_moved(&mut self, moves: &str, record: &str) -> io::Result<()> {
        self.cancel_search();
        self.move_unconfirmed = false;
        let moves: Vec<&str> = moves.split('|').filter(|t| !t.is_empty()).collect();
        let side_now = self.state.position().side_to_move();
        let side_after = if moves.len() % 2 == 1 {
            side_now.opponent()
        } else {
            side_now
        };
        for text in moves {
            let played = parse_protocol_move(text)
                .and_then(|mv| self.state.play(mv).map_err(|e| e.to_string()));
            if let Err(why) = played {
                self.error(
                    0,
                    &format!(
                        "opponent move \"{}\": {why}; resynchronising",
                        excerpt(text)
                    ),
                )?;
                return self.set_position(record, side_after);
            }
        }
        self.check_board(record, "after the opponent's move")
    }

    fn check_board(&mut self, record: &str, when: &str) -> io::Result<()> {
        let ours = position_record(self.state.position());
        if ours == record {
            return Ok(());
        }
        let side = self.state.position().side_to_move();
        self.error(
            0,
            &format!("position mismatch {when}: ours {ours}, given {record}; resynchronising"),
        )?;
        self.set_position(record, side)
    }
}

fn parse_side(text: &str) -> Option<Side> {
    match text {
        "attackers" => Some(Side::Attackers),
        "defenders" => Some(Side::Defenders),
        _ => None,
    }
}

/// A move in simple or full OpenTafl notation (`e5-e1`, `Ke5-e1xe2+`); only the move is
/// taken: the board after it comes with every message and is checked against ours.
fn parse_protocol_move(text: &str) -> Result<Move, String> {
    text.parse::<MoveText>()
        .map(|t| t.mv)
        .map_err(|e| e.to_string())
}

/// A progress report for OpenTafl's status line. A report from an unfinished iteration (a
/// new best move found before time ran out) names the depth it was searching, marked
/// `unfinished`, so no depth is reported twice.
fn status_line(info: &SearchInfo) -> String {
    let pv: Vec<String> = info.pv.iter().map(ToString::to_string).collect();
    let depth = if info.partial {
        format!("{} unfinished", info.depth + 1)
    } else {
        info.depth.to_string()
    };
    format!(
        "status depth {depth} score {} nodes {} nps {} pv {}",
        info.score,
        info.nodes,
        info.nps,
        pv.join(" ")
    )
}

/// `analysis <n> <line> <eval> ...`: each line's moves joined by `|`, its score for the side
/// to move.
fn analysis_line(lines: &[SearchInfo]) -> String {
    let mut text = format!("analysis {}", lines.len());
    for line in lines {
        let moves: Vec<String> = line.pv.iter().map(ToString::to_string).collect();
        text = format!("{text} {} {}", moves.join("|"), line.score.value());
    }
    text
}

#[cfg(test)]
mod tests {
    use std::io::Read;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::ai::ManualTime;
    use crate::ai::Score;

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    /// A session at level `max` writing into a buffer, its time given by `time`; and the
    /// channel of its searches' reports, which the test hands to it.
    fn conversation(time: &Arc<ManualTime>) -> (Conversation<Vec<u8>>, Receiver<Incoming>) {
        let (tx, reports) = mpsc::channel();
        let (credit, _) = mpsc::sync_channel(LINES_AHEAD);
        let time: Arc<dyn TimeSource> = time.clone();
        let options = Options {
            level: Level::Max,
            default_time: ms(2_000),
            seed: 1,
            time,
        };
        (
            Conversation::new(Vec::new(), None, options, tx, credit).unwrap(),
            reports,
        )
    }

    /// The running search's deadline, whether it has a pacer, and whether it was stopped.
    fn running(conversation: &Conversation<Vec<u8>>) -> (Option<Instant>, bool, bool) {
        let running = conversation.search.as_ref().expect("a search");
        (running.deadline, running.pacer.is_some(), running.stopped)
    }

    /// A report of a completed depth with `best` first, `elapsed_ms` into the search.
    fn report(depth: u32, best: &str, elapsed_ms: u64) -> SearchInfo {
        SearchInfo {
            depth,
            score: Score::Eval(0),
            nodes: 0,
            nps: 0,
            elapsed: ms(elapsed_ms),
            pv: vec![best.parse().unwrap()],
            partial: false,
        }
    }

    /// Hands the search's reports to the session until it answers; the session's last line.
    fn answer(mut conversation: Conversation<Vec<u8>>, reports: &Receiver<Incoming>) -> String {
        // A hang guard only: a stopped search answers at once.
        while let Ok(event) = reports.recv_timeout(Duration::from_secs(60)) {
            if let Incoming::Engine(report) = event {
                let done = matches!(report, Report::Done(..));
                conversation.on_report(report).unwrap();
                if done {
                    break;
                }
            }
        }
        let out = String::from_utf8(std::mem::take(&mut conversation.out)).unwrap();
        out.lines().last().unwrap_or_default().to_owned()
    }

    #[test]
    fn an_overtime_period_is_used_whole_and_the_move_played_when_the_time_source_says() {
        let time = Arc::new(ManualTime::new());
        let (mut conversation, reports) = conversation(&time);
        conversation.handle("clock 1000* 1000* 1 1 1").unwrap();
        conversation.handle("play attackers").unwrap();
        // A 1 s period: what the move leaves is lost, so it thinks until an eighth is left,
        // with no pacer to play sooner.
        assert_eq!(
            running(&conversation),
            (Some(time.at(ms(875))), false, false)
        );
        for (depth, elapsed) in [(1, 100), (2, 200), (3, 300), (4, 400), (5, 800)] {
            conversation
                .progress(0, &report(depth, "d2-c2", elapsed))
                .unwrap();
        }
        time.advance(ms(874));
        assert_eq!(conversation.time_left(), Some(ms(1)));
        assert!(!running(&conversation).2, "not stopped before the deadline");
        time.advance(ms(1));
        assert_eq!(conversation.time_left(), None);
        assert!(running(&conversation).2, "stopped at the deadline");
        assert!(answer(conversation, &reports).starts_with("move "));
    }

    #[test]
    fn on_main_time_a_settled_search_plays_before_its_deadline() {
        let time = Arc::new(ManualTime::new());
        let (mut conversation, reports) = conversation(&time);
        conversation.handle("clock 60000 60000 0 0 0").unwrap();
        conversation.handle("play attackers").unwrap();
        // A minute: it aims at 2 s and may take 6 s (less the margin, 150 ms).
        assert_eq!(
            running(&conversation),
            (Some(time.at(ms(5_850))), true, false)
        );
        // The same best move depth after depth: past 3/8 of the target once settled for
        // four depths, it has thought enough, long before the deadline.
        for (depth, elapsed) in [(1, 100), (2, 200), (3, 300), (4, 900)] {
            conversation
                .progress(0, &report(depth, "d2-c2", elapsed))
                .unwrap();
            assert!(!running(&conversation).2, "depth {depth}: thinks on");
        }
        conversation
            .progress(0, &report(5, "d2-c2", 1_000))
            .unwrap();
        assert_eq!(running(&conversation), (None, true, true));
        assert!(conversation.time_left().is_none());
        assert!(answer(conversation, &reports).starts_with("move "));
    }

    #[test]
    fn the_move_time_counts_from_when_thinking_began() {
        let time = Arc::new(ManualTime::new());
        let (mut conversation, reports) = conversation(&time);
        // Without a clock, the default time.
        conversation.handle("play attackers").unwrap();
        assert_eq!(running(&conversation).0, Some(time.at(ms(2_000))));
        // A clock that comes after `play` (as the protocol's specification has it) sets the
        // time from when thinking began, not from when it came.
        time.advance(ms(500));
        conversation.handle("clock 1000* 1000* 1 1 1").unwrap();
        assert_eq!(running(&conversation).0, Some(time.at(ms(875))));
        assert_eq!(conversation.time_left(), Some(ms(375)));
        time.advance(ms(375));
        assert_eq!(conversation.time_left(), None);
        assert!(answer(conversation, &reports).starts_with("move "));
    }

    /// Endless `play attackers` lines, handed out one line per read, counting the reads.
    struct Requests(Arc<AtomicUsize>);

    impl Read for Requests {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let line = b"play attackers\n";
            self.0.fetch_add(1, Ordering::SeqCst);
            let n = line.len().min(buf.len());
            buf[..n].copy_from_slice(&line[..n]);
            Ok(n)
        }
    }

    /// Output that OpenTafl never reads: every write waits until the test ends it.
    struct Stuck(Receiver<()>);

    impl Write for Stuck {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            let _ = self.0.recv();
            Err(io::ErrorKind::BrokenPipe.into())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn input_is_read_at_most_a_few_lines_ahead() {
        let reads = Arc::new(AtomicUsize::new(0));
        let input = io::BufReader::with_capacity(16, Requests(Arc::clone(&reads)));
        let (release, stuck) = mpsc::channel();
        let options = Options {
            level: Level::Easy,
            default_time: Duration::from_millis(10),
            seed: 1,
            time: Arc::new(crate::ai::RealTime),
        };
        let conversation = thread::spawn(move || serve(input, Stuck(stuck), None, options));
        // The session is stuck writing its hello: the reader, left to itself meanwhile,
        // stops after the lines it may read ahead (one read each, and one more buffered).
        // Counted once it has read that far: a reader that did not stop would be past it.
        let deadline = Instant::now() + Duration::from_secs(20);
        while reads.load(Ordering::SeqCst) < LINES_AHEAD {
            assert!(Instant::now() < deadline, "the reader did not read ahead");
            thread::yield_now();
        }
        let read = reads.load(Ordering::SeqCst);
        assert!(read <= LINES_AHEAD + 1, "{read} lines read ahead");
        drop(release);
        assert!(conversation.join().unwrap().is_err());
    }

    #[test]
    fn protocol_moves_in_either_notation() {
        let mv: Move = "e5-e1".parse().unwrap();
        for text in [
            "e5-e1", "Ke5-e1", "Ke5-e1-", "e5-e1+", "e5-e1xe2", "Ke5-e1--", "e5-e1++",
        ] {
            assert_eq!(parse_protocol_move(text), Ok(mv), "{text}");
        }
        assert!(parse_protocol_move("e5").is_err());
        assert!(parse_protocol_move("").is_err());
    }
}
