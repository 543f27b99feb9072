//! `brandubh otep` driven through pipes as OpenTafl drives it.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

use brandubh::otep::MAX_LINE_BYTES;
use brandubh::rules::{GameState, Move, Preset, Side, parse_position_record, position_record};

const BUILT_IN: &str = "rules dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
const WAIT: Duration = Duration::from_secs(20);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        Engine::start_with(&["--time", "100ms"])
    }

    /// The engine started with `brandubh otep ARGS`.
    fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_brandubh"))
            .arg("otep")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
        };
        assert_eq!(engine.next_line(), "hello");
        engine
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    fn next_line(&mut self) -> String {
        self.lines.recv_timeout(WAIT).expect("the engine answers")
    }

    /// The next line that is not a `status` report.
    fn reply(&mut self) -> String {
        self.reply_and_status().0
    }

    /// The next line that is not a `status` report, and the status reports before it.
    fn reply_and_status(&mut self) -> (String, Vec<String>) {
        let mut status = Vec::new();
        loop {
            let line = self.next_line();
            if !line.starts_with("status ") {
                return (line, status);
            }
            status.push(line);
        }
    }

    fn quit(mut self) {
        self.send("goodbye");
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attackers",
        Side::Defenders => "defenders",
    }
}

/// Asks the engine to move for the side to move in `state`, checks the move and plays it.
/// (When the move must come, by the clock, is tested with a time source the test moves, in
/// src/otep/session.rs.)
fn engine_turn(engine: &mut Engine, state: &mut GameState) -> Move {
    engine_turn_on(engine, state, "clock 9000 9000 0 0 0")
}

/// [`engine_turn`] with `clock` sent after `play`.
fn engine_turn_on(engine: &mut Engine, state: &mut GameState, clock: &str) -> Move {
    let side = state.position().side_to_move();
    engine.send(&format!("play {}", side_name(side)));
    engine.send(clock);
    let reply = engine.reply();
    let text = reply
        .strip_prefix("move ")
        .unwrap_or_else(|| panic!("{reply}"));
    let mv: Move = text.parse().unwrap();
    state.play(mv).unwrap_or_else(|e| panic!("{text}: {e}"));
    engine.send(&format!("move {}", position_record(state.position())));
    mv
}

#[test]
fn plays_whole_games_on_both_sides() {
    for engine_side in [Side::Attackers, Side::Defenders] {
        // Bounded by depth, with an hour on the clock: it plays the same moves on any
        // machine (at level max, a slower machine would search less deep).
        let mut engine = Engine::start_with(&["--level", "hard"]);
        engine.send(BUILT_IN);
        let mut state = GameState::start(Preset::OpenTafl.rules());
        let mut plies = 0;
        while !state.is_over() && plies < 160 {
            if state.position().side_to_move() == engine_side {
                engine_turn_on(&mut engine, &mut state, "clock 3600000 3600000 0 0 0");
            } else {
                let moves = state.legal_moves();
                let mv = moves[(plies * 7) % moves.len()];
                state.play(mv).unwrap();
                engine.send(&format!(
                    "opponent-move {mv} {}",
                    position_record(state.position())
                ));
            }
            plies += 1;
        }
        let code = match state.outcome().map(|o| o.winner) {
            None => 0,
            Some(None) => 1,
            Some(Some(Side::Attackers)) => 2,
            Some(Some(Side::Defenders)) => 3,
        };
        engine.send(&format!("finish {code}"));
        assert_eq!(
            state.outcome().and_then(|o| o.winner),
            Some(engine_side),
            "the engine beats a fixed-pattern opponent as {engine_side}"
        );
        engine.quit();
    }
}

/// Asks for `count` lines of analysis from the start in `seconds`; checks that the answer
/// has that many lines, each legal from the start with a score. Returns each line's moves.
fn analysis_lines(engine: &mut Engine, count: usize, seconds: &str) -> Vec<Vec<Move>> {
    engine.send(&format!("analyze {count} {seconds}"));
    let reply = engine.reply();
    let words: Vec<&str> = reply.split_whitespace().collect();
    assert_eq!(words[..2], ["analysis", &count.to_string()], "{reply}");
    assert_eq!(words.len(), 2 + 2 * count, "{reply}");
    words[2..]
        .chunks(2)
        .map(|pair| {
            let mut state = GameState::start(Preset::OpenTafl.rules());
            let moves: Vec<Move> = pair[0].split('|').map(|t| t.parse().unwrap()).collect();
            for &mv in &moves {
                state.play(mv).unwrap_or_else(|e| panic!("{reply}: {e}"));
            }
            pair[1].parse::<i32>().unwrap();
            moves
        })
        .collect()
}

#[test]
fn analysis_returns_a_legal_line() {
    let mut engine = Engine::start();
    engine.send(BUILT_IN);
    analysis_lines(&mut engine, 1, "0.3");
    engine.quit();
}

#[test]
fn analysis_of_a_position_set_by_position_and_side() {
    let mut engine = Engine::start();
    engine.send(BUILT_IN);
    // The king on d7 escapes to a7 or g7 at once.
    engine.send("position /7/7/3t3/7/7/7/3K3/");
    engine.send("side defenders");
    engine.send("analyze 1 0.3");
    let reply = engine.reply();
    assert!(
        reply.starts_with("analysis 1 d7-a7 ") || reply.starts_with("analysis 1 d7-g7 "),
        "{reply}"
    );
    engine.quit();
}

#[test]
fn bad_input_gets_errors_and_the_engine_carries_on() {
    let mut engine = Engine::start();
    engine.send(BUILT_IN);
    let cases = [
        ("frobnicate now", "error 0 unknown command \"frobnicate\""),
        ("play sideways", "error 0 unknown side \"sideways\""),
        (
            "opponent-move",
            "error 0 malformed opponent-move command \"opponent-move\"",
        ),
        ("clock 1 2", "error 0 malformed clock \"clock 1 2\""),
        ("analyze x 1", "error 0 malformed analyze \"analyze x 1\""),
        (
            "position /3t3/",
            "error 0 bad position \"/3t3/\": the board has 1 rank, expected 7 separated by /",
        ),
        (
            "rules dim:11 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
            "error -1 rules entry \"dim:11\": only the 7×7 board is supported",
        ),
        (
            "rules dim:7 ks:w esc:e start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
            "error -1 rules entry \"esc:e\": only escape to the corners is supported",
        ),
    ];
    for (input, expected) in cases {
        engine.send(input);
        assert_eq!(engine.reply(), expected, "{input}");
    }
    engine.send_bytes(b"\xff\xfe\n");
    assert!(engine.reply().starts_with("error 0 unknown command"));
    engine.send(BUILT_IN);
    let mut state = GameState::start(Preset::OpenTafl.rules());
    engine_turn(&mut engine, &mut state);
    engine.quit();
}

#[test]
fn control_bytes_in_input_are_echoed_escaped() {
    let mut engine = Engine::start();
    engine.send_bytes(b"frob\x1b[2J\x07\x00 now\n");
    let reply = engine.reply();
    assert_eq!(reply, "error 0 unknown command \"frob\\u{1b}[2J\\u{7}\\0\"");
    engine.send_bytes(b"play \x1b]0;title\x07\n");
    let reply = engine.reply();
    assert!(reply.starts_with("error 0 unknown side"), "{reply:?}");
    assert!(!reply.chars().any(char::is_control), "{reply:?}");
    engine.quit();
}

#[test]
fn a_line_over_the_cap_is_refused_and_the_session_goes_on() {
    let mut engine = Engine::start();
    // 1 MiB: far more than the pipe holds, so the engine skips it as it comes.
    let mut long = vec![b'x'; MAX_LINE_BYTES * 16 + 1];
    long.push(b'\n');
    engine.send_bytes(&long);
    let reply = engine.reply();
    assert_eq!(
        reply,
        format!("error 0 line longer than {MAX_LINE_BYTES} bytes: skipped")
    );
    // Exactly at the cap is still a line (an unknown command here).
    let mut longest = vec![b'y'; MAX_LINE_BYTES];
    longest.push(b'\n');
    engine.send_bytes(&longest);
    let reply = engine.reply();
    assert!(
        reply.starts_with("error 0 unknown command \"yyy"),
        "{reply}"
    );
    engine.send(BUILT_IN);
    let mut state = GameState::start(Preset::OpenTafl.rules());
    engine_turn(&mut engine, &mut state);
    engine.quit();
}

#[test]
fn an_illegal_opponent_move_is_reported_and_the_engine_resyncs() {
    let mut engine = Engine::start();
    engine.send(BUILT_IN);
    let mut state = GameState::start(Preset::OpenTafl.rules());
    engine_turn(&mut engine, &mut state);
    // A defender move the engine's board forbids; OpenTafl's board is authoritative.
    let record = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    engine.send(&format!("opponent-move d5-d2 {record}"));
    let reply = engine.reply();
    assert!(
        reply.starts_with("error 0 opponent move \"d5-d2\""),
        "{reply}"
    );
    let mut synced = GameState::new(
        Preset::OpenTafl.rules(),
        parse_position_record(record, Side::Attackers).unwrap(),
    );
    engine_turn(&mut engine, &mut synced);
    engine.quit();
}

#[test]
fn a_board_mismatch_is_reported_and_playing_the_wrong_side_is_corrected() {
    let mut engine = Engine::start();
    engine.send(BUILT_IN);
    let mut state = GameState::start(Preset::OpenTafl.rules());
    state.play("d1-c1".parse().unwrap()).unwrap();
    engine.send(&format!(
        "opponent-move d1-c1 {}",
        "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/2t4/"
    ));
    let reply = engine.reply();
    assert!(reply.starts_with("error 0 position mismatch"), "{reply}");
    engine.send("play defenders");
    engine.send("clock 3000 3000 0 0 0");
    let reply = engine.reply();
    assert!(reply.starts_with("move "), "{reply}");
    engine.send("play defenders");
    let reply = engine.reply();
    assert!(
        reply.starts_with("error 0 asked to play defenders"),
        "{reply}"
    );
    engine.quit();
}

#[test]
fn end_of_input_ends_the_engine() {
    let engine = Engine::start();
    let Engine {
        mut child, stdin, ..
    } = engine;
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

/// The depth a `status depth N ...` report names.
fn status_depth(line: &str) -> u32 {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[..2], ["status", "depth"], "{line}");
    words[2].parse().unwrap()
}

#[test]
fn the_level_bounds_the_search_within_the_clock() {
    for (level, deepest) in [("easy", 1), ("medium", 2), ("hard", 5)] {
        let mut engine = Engine::start_with(&["--level", level]);
        engine.send(BUILT_IN);
        // An hour a side: time allows far deeper searches than these levels make, and the
        // pacer (aiming at two minutes) leaves them their depth on any machine.
        engine.send("clock 3600000 3600000 0 0 0");
        engine.send("play attackers");
        let (reply, status) = engine.reply_and_status();
        assert!(reply.starts_with("move "), "{reply}");
        let depths: Vec<u32> = status.iter().map(|l| status_depth(l)).collect();
        assert_eq!(depths.last(), Some(&deepest), "{level}: {status:?}");
        engine.quit();
    }
}

#[test]
fn status_reports_never_name_a_depth_twice() {
    let mut engine = Engine::start_with(&["--time", "150ms"]);
    engine.send(BUILT_IN);
    let mut state = GameState::start(Preset::OpenTafl.rules());
    for _ in 0..12 {
        if state.is_over() {
            break;
        }
        let side = side_name(state.position().side_to_move());
        engine.send(&format!("play {side}"));
        let (reply, status) = engine.reply_and_status();
        let depths: Vec<u32> = status.iter().map(|l| status_depth(l)).collect();
        assert!(depths.windows(2).all(|w| w[0] < w[1]), "{status:#?}");
        let mv: Move = reply.strip_prefix("move ").unwrap().parse().unwrap();
        state.play(mv).unwrap();
        engine.send(&format!("move {}", position_record(state.position())));
    }
    engine.quit();
}

#[test]
fn analysis_answers_as_many_lines_as_asked() {
    let mut engine = Engine::start();
    engine.send(BUILT_IN);
    let mut firsts: Vec<Move> = analysis_lines(&mut engine, 3, "0.6")
        .iter()
        .map(|line| line[0])
        .collect();
    firsts.sort_unstable_by_key(ToString::to_string);
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "three different first moves: {firsts:?}");
    engine.quit();
}

/// Requests queued faster than the engine answers them: each one replaces the one before, so
/// the engine's memory stays that of one search however many are queued.
#[cfg(target_os = "linux")]
#[test]
fn queued_requests_keep_memory_flat() {
    /// Requests queued at once.
    const QUEUED: usize = 40;
    /// The peak resident set allowed, in KiB: one search with its 8 MiB table, and room.
    const BOUND_KIB: u64 = 64 * 1024;
    for request in ["play attackers", "analyze 1 5"] {
        let mut engine = Engine::start();
        engine.send(BUILT_IN);
        engine.send(&vec![request; QUEUED].join("\n"));
        // Its answer comes once every request before it has been read and handled.
        engine.send("frobnicate");
        while !engine
            .next_line()
            .starts_with("error 0 unknown command \"frobnicate\"")
        {}
        let peak = common::rss::peak_kib(engine.child.id()).unwrap();
        assert!(
            peak < BOUND_KIB,
            "{QUEUED} × {request}: peak resident set {peak} KiB"
        );
        engine.quit();
    }
}
