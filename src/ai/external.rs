//! An engine in another program, driven through the OpenTafl Engine Protocol as OpenTafl
//! drives it: `rules`, then for each of its moves `opponent-move` (the moves it has not
//! seen), `play` and `clock`, its `move` answered by `move <position>`, and `finish` and
//! `goodbye` at the end. Any OTEP engine can play a `match` this way: OpenTafl's own, or
//! another build of this one.
//!
//! An engine that crashes, does not say `hello` in time ([`ExternalOptions::hello_wait`]), says
//! `error -1`, answers with an illegal move, or takes more than [`SLOWNESS_ALLOWED`] times its
//! budget gives no move but [`NoMove::Failed`], which says why, and the match scores the game as
//! its loss.
//! Those deadlines read the time from [`ExternalOptions::time`].
//!
//! On Unix the engine runs in a process group of its own, which is killed when the engine is
//! done with: whatever it started (a script's `sleep`) ends with it.
//!
//! What is kept of an engine's output is bounded: lines over [`MAX_LINE_BYTES`](crate::capped_lines::MAX_LINE_BYTES) are skipped,
//! and at most [`LINES_KEPT`] lines wait to be read (while the other engine thinks, say); an
//! engine that writes more waits on its pipe.

use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use super::engine::{Ai, Failure, NoMove, SLOWNESS_ALLOWED, SearchInfo};
use super::limits::Limits;
use super::time_source::{RealTime, TimeSource};
use crate::capped_lines::read_line;
use crate::game::format_duration;
use crate::quote::{MESSAGE_CHARS, escaped, excerpt};
use crate::rules::{
    GameState, Move, MoveText, Outcome, Position, Rules, Side, position_record, rules_string,
};

/// The budget per move when the limits give no time.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);
/// How long an engine has to say `hello` by default (OpenTafl's own limit).
pub const HELLO_WAIT: Duration = Duration::from_secs(5);
/// How long an engine has to exit after `goodbye` before it is killed (on the system's
/// clock: this gives a real process the time to end, and decides nothing).
const GOODBYE_TIME: Duration = Duration::from_millis(500);
/// Lines of an engine's output kept until they are read, at most.
const LINES_KEPT: usize = 16;
/// How often a wait for the engine looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(20);

/// How an engine in another program is given its time.
#[derive(Clone, Debug)]
pub struct ExternalOptions {
    /// How long it has to say `hello` once started ([`HELLO_WAIT`] by default).
    pub hello_wait: Duration,
    /// Where its deadlines (the `hello`, each move) read the time ([`RealTime`] by default).
    pub time: Arc<dyn TimeSource>,
}

impl Default for ExternalOptions {
    fn default() -> ExternalOptions {
        ExternalOptions {
            hello_wait: HELLO_WAIT,
            time: Arc::new(RealTime),
        }
    }
}

/// An OTEP engine run as a subprocess, started at its first move.
pub struct ExternalAi {
    /// The command line, as given (`./engine --flag`).
    command: String,
    options: ExternalOptions,
    process: Option<Process>,
    /// The game the engine knows: its rules, and its positions up to the last the engine saw.
    game: Option<(Rules, Vec<Position>)>,
    failure: Option<Failure>,
}

/// Why a wait for the engine ended without its move.
enum Halt {
    /// The stop flag was set: the engine is not at fault.
    Stopped,
    Failed(Failure),
}

impl From<Failure> for Halt {
    fn from(failure: Failure) -> Halt {
        Halt::Failed(failure)
    }
}

/// The running engine: its input, and its output lines as a reading thread receives them.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// What waiting for a line gave.
enum Wait {
    Line(String),
    TimedOut,
    Stopped,
    Closed,
}

impl ExternalAi {
    /// The engine that `command` starts: a program and its arguments, separated by spaces,
    /// given its time as `options` say. Nothing runs until its first move.
    pub fn new(command: &str, options: ExternalOptions) -> ExternalAi {
        ExternalAi {
            command: command.trim().to_owned(),
            options,
            process: None,
            game: None,
            failure: None,
        }
    }

    /// Starts the program and waits for its `hello`.
    fn start(&mut self, stop: &AtomicBool) -> Result<(), Halt> {
        let mut words = self.command.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| Failure::Crashed("no command to run".to_owned()))?;
        let mut command = Command::new(program);
        command
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| Failure::Crashed(format!("cannot start \"{}\": {e}", excerpt(program))))
            .map_err(Halt::from)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            kill(&mut child);
            return Err(Failure::Crashed("no pipes to the engine".to_owned()).into());
        };
        let (tx, lines) = mpsc::sync_channel(LINES_KEPT);
        thread::spawn(move || {
            let mut output = BufReader::new(stdout);
            let mut bytes = Vec::new();
            // A line over the length limit is skipped: nothing the engine must say is long.
            while let Ok(Some(fits)) = read_line(&mut output, &mut bytes) {
                let line = String::from_utf8_lossy(&bytes).trim().to_owned();
                if fits && tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut process = Process {
            child,
            stdin,
            lines,
        };
        let time = &*self.options.time;
        let deadline = time.now() + self.options.hello_wait;
        loop {
            match process.wait_line(deadline, stop, time) {
                Wait::Line(line) if line.trim() == "hello" => break,
                Wait::Line(_) => {}
                Wait::TimedOut => {
                    process.end();
                    let why = format!(
                        "no hello within {}",
                        format_duration(self.options.hello_wait)
                    );
                    return Err(Failure::Crashed(why).into());
                }
                Wait::Stopped => {
                    process.end();
                    return Err(Halt::Stopped);
                }
                Wait::Closed => {
                    let failure = process.crashed("before its hello");
                    process.end();
                    return Err(failure.into());
                }
            }
        }
        self.process = Some(process);
        Ok(())
    }

    /// Brings the engine to `state`: the rules of a new game (when `state` does not go on
    /// from the positions the engine knows), then the moves it has not seen.
    fn catch_up(&mut self, process: &mut Process, state: &GameState) -> Result<(), Failure> {
        let rules = *state.rules();
        let seen = match &self.game {
            Some((r, known)) if *r == rules && state.history().starts_with(known) => known.len(),
            _ => {
                let start = state.start_position();
                let text = rules_string(&rules, start).ok_or_else(|| {
                    Failure::Protocol("these rules have no OpenTafl rules string".to_owned())
                })?;
                process.send(&format!("rules {text}"))?;
                1
            }
        };
        let unseen = &state.history()[seen - 1..];
        if unseen.len() > 1 {
            let moves = unseen
                .windows(2)
                .map(|pair| move_between(rules, &pair[0], &pair[1]).map(|mv| mv.to_string()))
                .collect::<Result<Vec<String>, Failure>>()?;
            process.send(&format!(
                "opponent-move {} {}",
                moves.join("|"),
                position_record(state.position())
            ))?;
        }
        self.game = Some((rules, state.history().to_vec()));
        Ok(())
    }

    /// Asks for a move for the side to move in `state` and checks it.
    fn ask(
        &mut self,
        process: &mut Process,
        state: &GameState,
        budget: Duration,
        stop: &AtomicBool,
    ) -> Result<Move, Halt> {
        let side = state.position().side_to_move();
        process.send(&format!("play {}", side.name()))?;
        process.send(&clock_line(budget))?;
        let time = &*self.options.time;
        let asked = time.now();
        let deadline = asked + budget * SLOWNESS_ALLOWED;
        let mv = loop {
            match process.wait_line(deadline, stop, time) {
                Wait::Line(line) => {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    match words.as_slice() {
                        ["move", text] => break parse_move(state, text)?,
                        ["error", "-1", ..] => {
                            let why = format!("it gave up: {}", excerpt(&line));
                            return Err(Failure::Protocol(why).into());
                        }
                        _ => {}
                    }
                }
                Wait::TimedOut => {
                    let taken = time.now().saturating_duration_since(asked);
                    return Err(Failure::Time { budget, taken }.into());
                }
                Wait::Stopped => return Err(Halt::Stopped),
                Wait::Closed => return Err(process.crashed("while thinking").into()),
            }
        };
        let mut after = state.clone();
        after.play_unchecked(mv);
        process.send(&format!("move {}", position_record(after.position())))?;
        self.game = Some((*state.rules(), after.history().to_vec()));
        Ok(mv)
    }

    /// Starts the engine if needed, brings it to `state` and asks for its move.
    fn move_in(
        &mut self,
        state: &GameState,
        budget: Duration,
        stop: &AtomicBool,
    ) -> Result<Move, Halt> {
        if self.process.is_none() {
            self.start(stop)?;
        }
        let mut process = self.process.take().ok_or(Halt::Stopped)?;
        let result = self
            .catch_up(&mut process, state)
            .map_err(Halt::from)
            .and_then(|()| self.ask(&mut process, state, budget, stop));
        self.process = Some(process);
        result
    }
}

impl Ai for ExternalAi {
    fn name(&self) -> String {
        otep_name(&self.command)
    }

    /// The engine's move within the limits' time (or [`DEFAULT_MOVE_TIME`]); no progress is
    /// reported. Once it has failed, it fails at every move.
    fn choose(
        &mut self,
        state: &GameState,
        limits: &Limits,
        stop: &AtomicBool,
        _progress: &mut dyn FnMut(&SearchInfo),
    ) -> Result<Move, NoMove> {
        if let Some(failure) = &self.failure {
            return Err(NoMove::Failed(failure.clone()));
        }
        if state.legal_moves().is_empty() {
            return Err(NoMove::GameOver);
        }
        let budget = limits.time.unwrap_or(DEFAULT_MOVE_TIME);
        match self.move_in(state, budget, stop) {
            Ok(mv) => Ok(mv),
            Err(Halt::Stopped) => {
                // Its answer to this `play` would come when no one waits for it: the engine
                // starts afresh at the next move.
                if let Some(mut process) = self.process.take() {
                    process.end();
                }
                self.game = None;
                Err(NoMove::Stopped)
            }
            Err(Halt::Failed(failure)) => {
                self.failure = Some(failure.clone());
                Err(NoMove::Failed(failure))
            }
        }
    }

    fn game_over(&mut self, outcome: &Outcome) {
        if let Some(process) = &mut self.process {
            let code = match outcome.winner {
                None => 1,
                Some(Side::Attackers) => 2,
                Some(Side::Defenders) => 3,
            };
            let _ = process.send(&format!("finish {code}"));
        }
        self.game = None;
    }
}

impl Drop for ExternalAi {
    fn drop(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.end();
        }
    }
}

impl Process {
    fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| Failure::Crashed(format!("its input is closed: {e}")))
    }

    /// The next line of output before `time` says `deadline` has come, looking at `stop`
    /// as it waits.
    fn wait_line(&self, deadline: Instant, stop: &AtomicBool, time: &dyn TimeSource) -> Wait {
        loop {
            if stop.load(Ordering::Relaxed) {
                return Wait::Stopped;
            }
            let left = deadline.saturating_duration_since(time.now());
            if left.is_zero() {
                return Wait::TimedOut;
            }
            match self.lines.recv_timeout(left.min(STOP_POLL)) {
                Ok(line) => return Wait::Line(line),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Wait::Closed,
            }
        }
    }

    /// The failure of an engine whose output ended `when`, with its exit status if it has one.
    fn crashed(&mut self, when: &str) -> Failure {
        let status = match self.child.try_wait() {
            Ok(Some(status)) => format!(" ({status})"),
            _ => String::new(),
        };
        Failure::Crashed(format!("its output ended {when}{status}"))
    }

    /// Says `goodbye`, and kills the engine if it has not exited soon after, and whatever it
    /// started in any case.
    fn end(&mut self) {
        let _ = self.send("goodbye");
        let deadline = Instant::now() + GOODBYE_TIME;
        while Instant::now() < deadline && !matches!(self.child.try_wait(), Ok(Some(_))) {
            thread::sleep(Duration::from_millis(10));
        }
        kill(&mut self.child);
    }
}

/// Kills `child` if it still runs, and waits for it; on Unix, kills its process group first
/// (the child and everything it started). The group is the child's own: it keeps its number
/// while any of its processes runs, so an exited child's group can be killed as well.
fn kill(child: &mut Child) {
    #[cfg(unix)]
    {
        use rustix::process::{Pid, Signal, kill_process_group};
        // Fails only when the group has no process left.
        let _ = kill_process_group(Pid::from_child(child), Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// The name of the engine `command` starts, as matches show it: `otep:COMMAND`, with control
/// characters escaped (it is safe to print).
pub(crate) fn otep_name(command: &str) -> String {
    format!("otep:{}", escaped(command, MESSAGE_CHARS))
}

/// The move that leads from `before` to `after` under `rules` (consecutive positions of a
/// game).
fn move_between(rules: Rules, before: &Position, after: &Position) -> Result<Move, Failure> {
    before
        .legal_moves()
        .iter()
        .copied()
        .find(|&mv| {
            let mut next = *before;
            next.play_unchecked(mv, &rules);
            next == *after
        })
        .ok_or_else(|| Failure::Protocol("two positions of the game are not a move apart".into()))
}

/// The engine's `move` text as a legal move of `state`.
fn parse_move(state: &GameState, text: &str) -> Result<Move, Failure> {
    let illegal = |why: String| Failure::IllegalMove(format!("\"{}\": {why}", excerpt(text)));
    let mv = text
        .parse::<MoveText>()
        .map_err(|e| illegal(e.to_string()))?
        .mv;
    state.check_move(mv).map_err(|e| illegal(e.to_string()))?;
    Ok(mv)
}

/// The clock for a move of `budget`: no main time, every side in an overtime period of the
/// budget (byo-yomi), as OpenTafl sends it for such a time control.
fn clock_line(budget: Duration) -> String {
    let ms = budget.as_millis();
    let seconds = budget.as_secs() + u64::from(budget.subsec_nanos() > 0);
    format!("clock {ms}* {ms}* {seconds} 1 1")
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;
    use crate::ai::time_source::manual::ManualTime;
    use crate::rules::Preset;

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    /// An engine given its time by `time`, waiting `hello_wait` for its `hello`.
    fn engine(command: &str, hello_wait: Duration, time: &Arc<ManualTime>) -> ExternalAi {
        let time: Arc<dyn TimeSource> = time.clone();
        ExternalAi::new(command, ExternalOptions { hello_wait, time })
    }

    /// A running process that reads what it is told and answers nothing; its output is the
    /// lines the test sends to the returned sender instead.
    fn silent_process() -> (Process, mpsc::SyncSender<String>) {
        let mut child = Command::new("sh")
            .args(["-c", "cat >/dev/null"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let (output, lines) = mpsc::sync_channel(LINES_KEPT);
        (
            Process {
                child,
                stdin,
                lines,
            },
            output,
        )
    }

    /// The failure of a wait that did not end in a move.
    fn failure(halt: Halt) -> Failure {
        match halt {
            Halt::Failed(failure) => failure,
            Halt::Stopped => panic!("stopped"),
        }
    }

    #[test]
    fn a_move_is_lost_on_time_when_the_time_source_passes_three_budgets() {
        let time = Arc::new(ManualTime::new());
        let mut ai = engine("unused", HELLO_WAIT, &time);
        let (mut process, _output) = silent_process();
        let state = GameState::start(Preset::OpenTafl.rules());
        // Asked at 0; at 2.999 s it waits on (a second's budget, three allowed); at 3 s it
        // gives up, and says how long it had waited when it did: 3.2 s.
        time.readings(&[ms(0), ms(2_999), ms(3_000), ms(3_200)]);
        let stop = AtomicBool::new(false);
        let halt = ai
            .ask(&mut process, &state, ms(1_000), &stop)
            .err()
            .unwrap();
        assert_eq!(
            failure(halt),
            Failure::Time {
                budget: ms(1_000),
                taken: ms(3_200)
            }
        );
        kill(&mut process.child);
    }

    #[test]
    fn a_move_that_comes_before_the_deadline_is_played_however_late_it_really_is() {
        let time = Arc::new(ManualTime::new());
        let mut ai = engine("unused", HELLO_WAIT, &time);
        let (mut process, output) = silent_process();
        let state = GameState::start(Preset::OpenTafl.rules());
        time.readings(&[ms(0), ms(2_999)]);
        let late = thread::spawn(move || {
            // Real time passes; the time source stands at 2.999 s.
            thread::sleep(ms(50));
            output.send("move d1-c1".to_owned()).unwrap();
            output
        });
        let stop = AtomicBool::new(false);
        let mv = ai.ask(&mut process, &state, ms(1_000), &stop).ok();
        assert_eq!(mv, Some("d1-c1".parse().unwrap()));
        drop(late.join());
        kill(&mut process.child);
    }

    #[test]
    fn the_hello_wait_is_the_one_given() {
        let time = Arc::new(ManualTime::new());
        // A minute to say hello: at 59.999 s it waits on, at a minute it gives up.
        let mut ai = engine("sleep 600", Duration::from_secs(60), &time);
        time.readings(&[ms(0), ms(59_999), ms(60_000)]);
        let halt = ai.start(&AtomicBool::new(false)).err().unwrap();
        assert_eq!(
            failure(halt),
            Failure::Crashed("no hello within 1m".to_owned())
        );
        assert!(ai.process.is_none());
    }

    #[test]
    fn the_default_hello_wait_is_opentafls_five_seconds() {
        let options = ExternalOptions::default();
        assert_eq!(options.hello_wait, Duration::from_secs(5));
        let time = Arc::new(ManualTime::new());
        let mut ai = engine("sleep 600", options.hello_wait, &time);
        time.readings(&[ms(0), ms(4_999), ms(5_000)]);
        let halt = ai.start(&AtomicBool::new(false)).err().unwrap();
        assert_eq!(
            failure(halt),
            Failure::Crashed("no hello within 5s".to_owned())
        );
    }
}
