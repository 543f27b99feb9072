//! The real binary in a pseudo-terminal: keys and mouse escape sequences in, the screen read
//! back through a vt100 parser.

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

const ROWS: u16 = 24;
const COLS: u16 = 80;
const WAIT: Duration = Duration::from_secs(20);

/// The game running in a pseudo-terminal.
struct Term {
    parser: Arc<Mutex<vt100::Parser>>,
    /// The screen as the last whole frame left it (see [`FrameEnds`]).
    frame: Arc<Mutex<vt100::Screen>>,
    raw: Arc<Mutex<Vec<u8>>>,
    writer: Box<dyn Write + Send>,
    child: Process,
    master: Box<dyn MasterPty + Send>,
    /// Asks the reading thread to stop after its next read.
    stop_reading: Arc<AtomicBool>,
    reading: JoinHandle<()>,
    /// Disconnected when the reading thread has read the terminal's last output.
    read_all: Receiver<()>,
}

/// Where the game's frames end in its output. ratatui writes a frame's cells, then hides the
/// cursor (`ESC [ ? 25 l`), or shows it (`ESC [ ? 25 h`) and places it, as its last writes;
/// nothing else in a frame touches the cursor's visibility. A screen read between those
/// marks may hold part of a frame: the pseudo-terminal passes the output on in pieces.
#[derive(Default)]
struct FrameEnds {
    /// How much of [`FrameEnds::CURSOR`] the bytes read so far end with.
    matched: usize,
}

impl FrameEnds {
    /// What both marks begin with.
    const CURSOR: &[u8] = b"\x1b[?25";

    /// The offsets in `bytes`, the next piece of the output, just after each frame's end.
    fn scan(&mut self, bytes: &[u8]) -> Vec<usize> {
        let mut ends = Vec::new();
        for (at, &byte) in bytes.iter().enumerate() {
            self.matched = if self.matched == Self::CURSOR.len() {
                if byte == b'l' || byte == b'h' {
                    ends.push(at + 1);
                }
                usize::from(byte == 0x1b)
            } else if byte == Self::CURSOR[self.matched] {
                self.matched + 1
            } else {
                usize::from(byte == 0x1b)
            };
        }
        ends
    }
}

impl Term {
    fn start(args: &[&str], home: &Path) -> Term {
        Term::start_program(env!("CARGO_BIN_EXE_brandubh"), args, home)
    }

    /// Runs `program` (the game, or a shell that runs it) in a new terminal.
    fn start_program(program: &str, args: &[&str], home: &Path) -> Term {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd = CommandBuilder::new(program);
        cmd.args(args);
        cmd.env("TERM", "xterm-256color");
        cmd.env("HOME", home);
        cmd.env("BRANDUBH_SAVE_DIR", home.join("saves"));
        cmd.env("BRANDUBH_CONFIG_DIR", home.join("config"));
        cmd.env("BRANDUBH_CACHE_DIR", home.join("cache"));
        // A folder of its own to start in: nothing may be written there.
        let cwd = home.join("cwd");
        std::fs::create_dir_all(&cwd).unwrap();
        cmd.cwd(cwd);
        cmd.env_remove("NO_COLOR");
        let child = Process(pair.slave.spawn_command(cmd).unwrap());
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().unwrap();
        let writer = pair.master.take_writer().unwrap();
        let parser = Arc::new(Mutex::new(vt100::Parser::new(nz(ROWS), nz(COLS), 0)));
        let frame = Arc::new(Mutex::new(parser.lock().unwrap().screen().clone()));
        let raw = Arc::new(Mutex::new(Vec::new()));
        let stop_reading = Arc::new(AtomicBool::new(false));
        let (p, f, r, stop) = (
            Arc::clone(&parser),
            Arc::clone(&frame),
            Arc::clone(&raw),
            Arc::clone(&stop_reading),
        );
        let (reading_on, read_all) = mpsc::channel();
        let reading = thread::spawn(move || {
            let _reading_on = reading_on;
            let mut ends = FrameEnds::default();
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut parser = p.lock().unwrap();
                let mut from = 0;
                for end in ends.scan(&buf[..n]) {
                    parser.process(&buf[from..end]);
                    *f.lock().unwrap() = parser.screen().clone();
                    from = end;
                }
                parser.process(&buf[from..n]);
                drop(parser);
                r.lock().unwrap().extend_from_slice(&buf[..n]);
                if stop.load(Ordering::SeqCst) {
                    break;
                }
            }
        });
        Term {
            parser,
            frame,
            raw,
            writer,
            child,
            master: pair.master,
            stop_reading,
            reading,
            read_all,
        }
    }

    /// Sends `signal` (a name for `kill -s`: TERM, HUP, ...) to the game.
    fn kill(&self, signal: &str) {
        let pid = self.child.0.process_id().unwrap().to_string();
        let status = std::process::Command::new("kill")
            .args(["-s", signal, &pid])
            .status()
            .unwrap();
        assert!(status.success(), "kill -s {signal} {pid}: {status}");
    }

    /// Whether the terminal echoes and edits lines (it is not raw).
    #[cfg(unix)]
    fn cooked(&self) -> bool {
        use nix::sys::termios::LocalFlags;
        let modes = self
            .master
            .get_termios()
            .expect("termios of the pseudo-terminal");
        modes
            .local_flags
            .contains(LocalFlags::ECHO | LocalFlags::ICANON)
    }

    /// Waits until the terminal's state (its modes, what it shows) satisfies `test`, frames
    /// finished or not; panics with `what` if it never does.
    fn wait_until(&self, what: &str, test: impl Fn(&vt100::Screen) -> bool) {
        let start = Instant::now();
        while !test(self.parser.lock().unwrap().screen()) {
            assert!(start.elapsed() < WAIT, "timed out waiting until {what}");
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Closes the terminal, as when its window is closed: the game gets a hangup. The reading
    /// thread's copy of the terminal is closed too: it stops after the output of `key`.
    fn hang_up(self, key: &str) -> Process {
        let Term {
            mut writer,
            child,
            master,
            stop_reading,
            reading,
            ..
        } = self;
        stop_reading.store(true, Ordering::SeqCst);
        writer.write_all(key.as_bytes()).unwrap();
        writer.flush().unwrap();
        reading.join().unwrap();
        drop(writer);
        drop(master);
        child
    }

    /// What the screen shows as the last whole frame left it.
    fn screen(&self) -> String {
        self.frame.lock().unwrap().contents()
    }

    /// What the screen shows now, frames finished or not: text printed outside the game's
    /// frames (a question asked before it starts), or what is there when a test fails.
    fn shown(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// Waits until the game's output has ended and all of it is read (the game and whatever
    /// shares its terminal have exited): the screen is then the last one.
    fn wait_read_all(&self) {
        match self.read_all.recv_timeout(WAIT) {
            Err(RecvTimeoutError::Disconnected) => {}
            Ok(()) | Err(RecvTimeoutError::Timeout) => {
                panic!("the terminal's output did not end:\n{}", self.shown());
            }
        }
    }

    fn send(&mut self, bytes: &str) {
        self.writer.write_all(bytes.as_bytes()).unwrap();
        self.writer.flush().unwrap();
    }

    /// Waits for a whole frame that shows `text`, and returns it. Panics with the screen if
    /// `text` never shows.
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                start.elapsed() < WAIT,
                "timed out waiting for {text:?}; screen:\n{}",
                self.shown()
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the screen no longer shows `text`.
    fn wait_without(&self, text: &str) {
        let start = Instant::now();
        while self.screen().contains(text) {
            assert!(
                start.elapsed() < WAIT,
                "{text:?} stayed on screen:\n{}",
                self.screen()
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// The screen cell (column, row), 0-based, at the centre of `square` ("d2"), found from
    /// the board's labels: the file letters below the board, the rank digits on its left.
    fn square_cell(&self, square: &str) -> (u16, u16) {
        let screen = self.screen();
        let lines: Vec<&str> = screen.lines().collect();
        let mut chars = square.chars();
        let (file, rank) = (chars.next().unwrap(), chars.next().unwrap());
        let labels = lines
            .iter()
            .find(|l| l.trim_start().starts_with("a ") && l.contains(" g"))
            .expect("file labels");
        let col = labels.chars().position(|c| c == file).unwrap();
        let row = lines
            .iter()
            .position(|l| l.starts_with(rank))
            .expect("rank label");
        (u16::try_from(col).unwrap(), u16::try_from(row).unwrap())
    }

    /// A left click (press and release) on `square`, as an SGR mouse report.
    fn click(&mut self, square: &str) {
        let (col, row) = self.square_cell(square);
        let (x, y) = (col + 1, row + 1);
        self.send(&format!("\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m"));
    }

    /// Resizes the pseudo-terminal (the program gets SIGWINCH) and the parser with it.
    fn resize(&mut self, rows: u16, cols: u16) {
        // The parser first: the program can only draw for the new size once the terminal has
        // it, and a parser resized after that frame arrived could lose it.
        self.parser.lock().unwrap().set_size(nz(rows), nz(cols));
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
    }

    /// Waits for the game to end, and for all it wrote to be read.
    fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        let parser = &self.parser;
        let status = self
            .child
            .wait_exit(|| parser.lock().unwrap().screen().contents());
        self.wait_read_all();
        status
    }
}

/// The game's process, killed if a test ends while it runs.
struct Process(Box<dyn Child + Send + Sync>);

impl Process {
    /// Waits for the game to end; panics with what `screen` shows if it does not.
    fn wait_exit(&mut self, screen: impl Fn() -> String) -> portable_pty::ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.0.try_wait().unwrap() {
                return status;
            }
            assert!(
                start.elapsed() < WAIT,
                "the game did not exit:\n{}",
                screen()
            );
            thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if self.0.try_wait().ok().flatten().is_none() {
            let _ = self.0.kill();
        }
    }
}

fn nz(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n).unwrap()
}

/// The autosaves in the save folder of `home`: each file with its moves, sorted by moves.
fn autosaves(home: &Path) -> Vec<(PathBuf, Vec<String>)> {
    let dir = home.join("saves").join("autosave");
    let mut found: Vec<_> = std::fs::read_dir(&dir)
        .map(|entries| entries.map(|e| e.unwrap().path()).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|path| {
            let moves = moves_in(&path);
            (path, moves)
        })
        .collect();
    found.sort_by(|a, b| a.1.cmp(&b.1));
    found
}

/// The autosaves in the save folder of `home` once their moves are `expected` (sorted, as
/// [`autosaves`] gives them): the game writes them on a thread of its own, a moment after the
/// screen shows the move. Files being written (that do not read as a game yet) are passed
/// over meanwhile. Panics with what they hold if they never come to it.
fn wait_for_autosaves(home: &Path, expected: &[&[&str]]) -> Vec<(PathBuf, Vec<String>)> {
    let start = Instant::now();
    loop {
        let dir = home.join("saves").join("autosave");
        let mut found: Vec<(PathBuf, Vec<String>)> = std::fs::read_dir(&dir)
            .map(|entries| entries.map(|e| e.unwrap().path()).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .filter_map(|path| {
                let game = brandubh::game::storage::load(&path).ok()?;
                let moves = game.moves().iter().map(ToString::to_string).collect();
                Some((path, moves))
            })
            .collect();
        found.sort_by(|a, b| a.1.cmp(&b.1));
        if found.iter().map(|(_, m)| m).eq(expected.iter()) {
            return found;
        }
        assert!(
            start.elapsed() < WAIT,
            "the autosaves hold {found:?}, not {expected:?}"
        );
        thread::sleep(Duration::from_millis(20));
    }
}

/// The moves of the saved game at `path`.
fn moves_in(path: &Path) -> Vec<String> {
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect()
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(files_under(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// A fresh home folder for one test, removed when the test ends.
struct TempHome(tempfile::TempDir);

impl std::ops::Deref for TempHome {
    type Target = Path;

    fn deref(&self) -> &Path {
        self.0.path()
    }
}

fn temp_home(name: &str) -> TempHome {
    TempHome(
        tempfile::Builder::new()
            .prefix(&format!("brandubh-e2e-{name}-"))
            .tempdir()
            .unwrap(),
    )
}

#[test]
fn a_game_played_by_keys_and_mouse_then_quit() {
    let home = temp_home("play");
    let mut term = Term::start(&[], &home);
    term.wait_for("Brandubh: new game");
    term.send("\r");
    term.wait_for("Attackers to move");

    // By keys: the cursor starts on the attacker on d2 (nearest the throne); select, left
    // three times to a2, move.
    term.send(" ");
    term.wait_for("attacker on d2 selected");
    term.send("hhh\r");
    term.wait_for("played d2-a2");

    // By mouse: the defender on c4 to c2.
    term.click("c4");
    term.wait_for("defender on c4 selected");
    term.click("c2");
    term.wait_for("played c4-c2");

    // Typed.
    term.send(":d1-d2\r");
    let screen = term.wait_for("played d1-d2");
    assert!(screen.contains("d2-a2"), "move list:\n{screen}");
    assert!(screen.contains("c4-c2"));

    // An illegal click is explained.
    term.click("e4");
    term.click("f3");
    term.wait_for("cannot move e4-f3");

    // Quitting with unsaved moves asks first; n keeps playing, y quits.
    term.send("\x1b");
    term.send("q");
    term.wait_for("Quit anyway?");
    term.send("n");
    term.wait_for("Defenders to move");

    // Save under the offered name in the save folder; then q quits without asking.
    term.send("s");
    term.wait_for("Save game");
    term.send("\r");
    term.wait_for("saved to");
    let saves: Vec<_> = std::fs::read_dir(home.join("saves"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    assert_eq!(saves.len(), 1, "{saves:?}");
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&saves[0]).unwrap()).unwrap();
    let text = record.to_string();
    for mv in ["d2-a2", "c4-c2", "d1-d2"] {
        assert!(text.contains(mv), "{mv} in {text}");
    }
    term.send("q");
    let status = term.wait_exit();
    assert!(status.success(), "{status:?}");

    let raw = term.raw.lock().unwrap().clone();
    let text = String::from_utf8_lossy(&raw);
    assert!(text.contains("\x1b[?1049h"), "entered the alternate screen");
    assert!(
        text.rfind("\x1b[?1049l") > text.rfind("\x1b[?1049h"),
        "left the alternate screen at the end"
    );
    assert!(!term.parser.lock().unwrap().screen().alternate_screen());
}

#[test]
fn ctrl_c_asks_like_q_a_second_one_quits_and_the_terminal_is_restored() {
    let home = temp_home("ctrlc");
    let mut term = Term::start(&["play", "--rules", "walker"], &home);
    term.wait_for("Brandubh · walker");
    term.send(":d2-e2\r");
    term.wait_for("played d2-e2");
    term.send("\x03");
    term.wait_for("Quit anyway?");
    term.send("\x03");
    let status = term.wait_exit();
    assert!(status.success(), "{status:?}");
    assert!(!term.parser.lock().unwrap().screen().alternate_screen());
    let autosaves = autosaves(&home);
    assert_eq!(autosaves.len(), 1, "{autosaves:?}");
    assert_eq!(autosaves[0].1, ["d2-e2"]);

    // The autosaved game continues with --resume.
    let mut term = Term::start(&["play", "--resume"], &home);
    let screen = term.wait_for("Defenders to move");
    assert!(
        screen.contains("d2-e2") && screen.contains("walker"),
        "{screen}"
    );
    term.send("q");
    term.wait_for("Quit anyway?");
    term.send("y");
    assert!(term.wait_exit().success());
}

/// Whether the game's process is stopped (its state in `/proc`: `T`).
#[cfg(target_os = "linux")]
fn stopped(term: &Term) -> bool {
    let pid = term.child.0.process_id().unwrap();
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let after_name = stat.rsplit_once(')')?.1;
            after_name
                .split_whitespace()
                .next()
                .map(|state| state == "T")
        })
        .unwrap_or(false)
}

/// Suspends the game with `suspend` (a signal, or Ctrl-z typed), checks that it gave the
/// terminal back and stopped, continues it, and checks that it redraws everything and takes
/// keys again.
#[cfg(target_os = "linux")]
fn suspended_and_continued(term: &mut Term, suspend: impl FnOnce(&mut Term), mv: &str) {
    suspend(term);
    term.wait_until("the terminal is given back", |screen| {
        !screen.alternate_screen()
            && !screen.hide_cursor()
            && screen.mouse_protocol_mode() == vt100::MouseProtocolMode::None
    });
    let start = Instant::now();
    while !stopped(term) {
        assert!(start.elapsed() < WAIT, "the game did not stop");
        thread::sleep(Duration::from_millis(20));
    }
    assert!(
        term.cooked(),
        "echo and line editing are back while it is stopped"
    );
    term.kill("CONT");
    term.wait_until("the game's screen is back", |screen| {
        screen.alternate_screen()
            && screen.mouse_protocol_mode() != vt100::MouseProtocolMode::None
            && screen.contents().contains("Brandubh · standard")
    });
    assert!(!term.cooked(), "raw again");
    let screen = term.wait_for("to move");
    assert!(
        screen.contains("a  ") || screen.contains(" a "),
        "the board:\n{screen}"
    );
    term.send(&format!(":{mv}\r"));
    term.wait_for(&format!("played {mv}"));
}

#[cfg(target_os = "linux")]
#[test]
fn sigtstp_and_ctrl_z_suspend_and_the_game_comes_back_whole() {
    let home = temp_home("suspend");
    let mut term = Term::start(&["play", "--rules", "standard"], &home);
    term.wait_for("Attackers to move");
    suspended_and_continued(&mut term, |t| t.kill("TSTP"), "d2-e2");
    suspended_and_continued(&mut term, |t| t.send("\x1a"), "c4-c5");
    term.send("q");
    term.wait_for("Quit anyway?");
    term.send("y");
    assert!(term.wait_exit().success());
}

#[test]
fn a_tiny_terminal_asks_to_be_enlarged_and_recovers() {
    let home = temp_home("tiny");
    let mut term = Term::start(&["play", "--rules", "standard"], &home);
    term.wait_for("Attackers to move");
    // 40×12 plays in the compact layout; 28×10 is too small.
    term.resize(12, 40);
    term.wait_for("Tab panel");
    term.resize(10, 28);
    term.wait_for("enlarge the terminal");
    term.resize(ROWS, COLS);
    term.wait_for("Attackers to move");
    term.send("q");
    assert!(term.wait_exit().success());
}

#[test]
fn the_ai_answers_and_ai_games_can_be_watched_and_paused() {
    let home = temp_home("ai");
    let mut term = Term::start(&["--attackers", "human", "--defenders", "ai:easy"], &home);
    term.wait_for("Attackers to move");
    term.send(":d2-e2\r");
    let screen = term.wait_for("the AI played");
    assert!(screen.contains("Attackers to move"), "{screen}");
    term.send("q");
    term.wait_for("Quit anyway?");
    term.send("y");
    assert!(term.wait_exit().success());

    // Two AIs, watched at the slowest pace (4 s between moves): from the start no game ends
    // in fewer than 8 plies (the king needs four moves to reach a corner), so it takes a
    // machine stalled for half a minute, not a fast game, to end it before the pause.
    let mut term = Term::start(&["--attackers", "random", "--defenders", "random"], &home);
    term.wait_for("Watching AI vs AI");
    term.send("---");
    term.wait_for("pace 4s");
    term.wait_for("│  1 ");
    term.send("p");
    term.wait_for("AI paused");
    term.send("\x03");
    term.wait_for("Quit anyway?");
    term.send("\x03");
    assert!(term.wait_exit().success());
}

/// The moves the signal tests play, by typing them.
const MOVES: [&str; 3] = ["d2-a2", "c4-c2", "d1-d2"];

/// Plays [`MOVES`] in the game started in `term`.
fn play_moves(mut term: Term) -> Term {
    term.wait_for("Attackers to move");
    for mv in MOVES {
        term.send(&format!(":{mv}\r"));
        term.wait_for(&format!("played {mv}"));
    }
    term
}

/// Every game file in the save folder is valid, and one of them holds [`MOVES`] (the autosave,
/// whatever its name).
fn assert_autosaved(home: &Path) {
    let files = files_under(&home.join("saves"));
    let games: Vec<Vec<String>> = files
        .iter()
        .map(|file| {
            let game = brandubh::game::storage::load(file)
                .unwrap_or_else(|e| panic!("{} is not a valid save: {e}", file.display()));
            game.moves().iter().map(ToString::to_string).collect()
        })
        .collect();
    assert!(
        games.iter().any(|moves| moves == &MOVES),
        "no save holds {MOVES:?}: {files:?} hold {games:?}"
    );
}

/// An ending signal sent with `kill`: the game autosaves every move, gives the terminal back
/// as it found it, and exits with 128 + the signal's number. The game is started with SIGINT
/// and SIGQUIT ignored, as a shell without job control starts a job in the background (a test
/// run in the background, say): the game catches them all the same.
#[cfg(unix)]
pub(crate) fn an_ending_signal_restores_the_terminal_and_keeps_the_game(name: &str, number: i32) {
    let home = temp_home(&format!("signal-{name}"));
    let ignoring = [
        "-c",
        "trap '' INT QUIT; exec \"$0\" \"$@\"",
        env!("CARGO_BIN_EXE_brandubh"),
        "play",
        "--rules",
        "standard",
    ];
    let mut term = play_moves(Term::start_program("sh", &ignoring, &home));
    assert!(!term.cooked(), "the game runs in raw mode");
    {
        let parser = term.parser.lock().unwrap();
        let screen = parser.screen();
        assert!(screen.alternate_screen() && screen.hide_cursor());
        assert_ne!(screen.mouse_protocol_mode(), vt100::MouseProtocolMode::None);
    }

    term.kill(name);
    let status = term.wait_exit();
    assert_eq!(
        status.exit_code(),
        u32::try_from(128 + number).unwrap(),
        "{status:?}"
    );
    term.wait_until("the terminal is restored", |screen| {
        !screen.alternate_screen()
            && !screen.hide_cursor()
            && screen.mouse_protocol_mode() == vt100::MouseProtocolMode::None
    });
    assert!(term.cooked(), "echo and line editing are back");
    assert_autosaved(&home);
}

#[cfg(unix)]
#[test]
fn sigterm_restores_the_terminal_and_keeps_the_game() {
    an_ending_signal_restores_the_terminal_and_keeps_the_game("TERM", 15);
}

#[cfg(unix)]
#[test]
fn sighup_restores_the_terminal_and_keeps_the_game() {
    an_ending_signal_restores_the_terminal_and_keeps_the_game("HUP", 1);
}

#[cfg(unix)]
#[test]
fn sigquit_restores_the_terminal_and_keeps_the_game() {
    an_ending_signal_restores_the_terminal_and_keeps_the_game("QUIT", 3);
}

#[cfg(unix)]
#[test]
fn sigint_restores_the_terminal_and_keeps_the_game() {
    an_ending_signal_restores_the_terminal_and_keeps_the_game("INT", 2);
}

/// Closing the terminal window: the terminal is gone (every write fails), the game still
/// keeps every move, and exits at once with 128 + SIGHUP, without a panic.
#[cfg(unix)]
#[test]
fn a_closed_terminal_ends_the_game_without_losing_it() {
    let home = temp_home("hangup");
    let term = play_moves(Term::start(&["play", "--rules", "standard"], &home));
    // The help screen's drawing wakes the reading thread, so that it lets go of the terminal.
    let mut game = term.hang_up("?");
    let status = game.wait_exit(String::new);
    assert_eq!(status.exit_code(), 129, "{status:?}");
    assert_autosaved(&home);
}

/// The same when the hangup signal reaches only a parent that ignores it (a shell with
/// `trap '' HUP`): the game sees for itself that the terminal is gone.
#[cfg(unix)]
#[test]
fn a_closed_terminal_ends_the_game_even_without_a_signal() {
    let home = temp_home("hangup-unsignalled");
    let script = r#"trap '' HUP; "$@"; exit $?"#;
    let game = env!("CARGO_BIN_EXE_brandubh");
    let term = Term::start_program(
        "sh",
        &["-c", script, "sh", game, "play", "--rules", "standard"],
        &home,
    );
    let mut shell = play_moves(term).hang_up("?");
    let status = shell.wait_exit(String::new);
    assert_eq!(status.exit_code(), 129, "{status:?}");
    assert_autosaved(&home);
}

/// Under a file size limit (`ulimit -f`) smaller than the autosave, the game goes on: the
/// autosave fails as on a full disk and says so, the game quits when asked, and gives the
/// terminal back; no temporary file is left.
#[cfg(unix)]
#[test]
fn a_file_size_limit_fails_the_autosave_as_a_full_disk_does() {
    use brandubh::game::{Game, Player};
    use brandubh::rules::{Position, Preset};

    let home = temp_home("ulimit");
    // A game whose save is larger than the limit of one block (512 or 1024 bytes).
    let mut long = Game::new(
        Preset::Standard.rules(),
        Position::start(),
        Player::Human,
        Player::Human,
    );
    long.set_start_comment(Some("a note to make the save long. ".repeat(40)));
    long.play_text("d2-a2").unwrap();
    let file = home.join("long.json");
    brandubh::game::storage::save_atomic(&file, &long).unwrap();
    let game = env!("CARGO_BIN_EXE_brandubh");
    let script = r#"ulimit -f 1 && exec "$@""#;
    let mut term = Term::start_program(
        "sh",
        &[
            "-c",
            script,
            "sh",
            game,
            "play",
            "--load",
            file.to_str().unwrap(),
        ],
        &home,
    );
    term.wait_for("Defenders to move");
    term.send(":c4-c2\r");
    term.wait_for("played c4-c2");
    let screen = term.wait_for("NOT SAVED");
    assert!(screen.contains("File too large"), "{screen}");
    term.send("q");
    term.wait_for("NOT saved");
    term.send("y");
    let status = term.wait_exit();
    assert_eq!(status.exit_code(), 0, "{status:?}");
    term.wait_until("the terminal is restored", |screen| {
        !screen.alternate_screen()
    });
    for file in files_under(&home.join("saves")) {
        assert_ne!(file.extension(), Some("tmp".as_ref()), "{file:?} left");
        brandubh::game::storage::load(&file).unwrap();
    }
}

#[test]
fn a_finished_game_loaded_is_reviewed_to_its_start_without_changing_its_file() {
    let home = temp_home("review");
    let file = home.join("king-capture.json");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/games/king-capture.json"
        ),
        &file,
    )
    .unwrap();
    let before = std::fs::read(&file).unwrap();
    let mut term = Term::start(&["play", "--load", file.to_str().unwrap()], &home);
    let screen = term.wait_for("Ply 17 of 17");
    assert!(screen.contains("Attackers win"), "{screen}");
    // Home: the start position, attackers to move, every piece where it starts.
    term.send("\x1b[H");
    let screen = term.wait_for("Start · ply 0 of 17");
    assert!(screen.contains("Attackers to move"), "{screen}");
    // Every piece where it starts.
    let start = brandubh::rules::Position::start();
    let misplaced = |screen: &str| {
        brandubh::rules::Square::all().find(|&square| {
            let (col, row) = term.square_cell(&square.to_string());
            let glyph = screen
                .lines()
                .nth(usize::from(row))
                .and_then(|line| line.chars().nth(usize::from(col)));
            let expected = match start.piece_at(square) {
                Some(brandubh::rules::Piece::Attacker) => Some('●'),
                Some(brandubh::rules::Piece::Defender) => Some('○'),
                Some(brandubh::rules::Piece::King) => Some('♚'),
                None => None,
            };
            glyph.filter(|g| "●○♚".contains(*g)) != expected
        })
    };
    if let Some(square) = misplaced(&screen) {
        panic!("{square}:\n{screen}");
    }
    // One step on: the first move is marked in the list; v goes back to the game.
    term.send("\x1b[C");
    term.wait_for("Ply 1 of 17");
    term.send("v");
    term.wait_for("Brandubh · standard");
    term.send("q");
    assert!(term.wait_exit().success());
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "the file is unchanged"
    );
    assert!(autosaves(&home).is_empty(), "reviewing writes no autosave");
}

#[test]
fn a_game_starts_from_the_position_given() {
    let home = temp_home("position");
    let mut term = Term::start(&["play", "--position", "/7/7/7/3K3/7/t6/7/ d"], &home);
    let screen = term.wait_for("Defenders to move");
    assert_eq!(
        screen.matches('●').count(),
        2,
        "a6 and the panel:\n{screen}"
    );
    term.send(":d4-d7\r");
    term.wait_for("played d4-d7");
    term.send("q");
    term.wait_for("Quit anyway?");
    term.send("y");
    assert!(term.wait_exit().success());
    let saved = autosaves(&home);
    assert_eq!(saved.len(), 1, "one autosave: {saved:?}");
    let autosave = std::fs::read_to_string(&saved[0].0).unwrap();
    assert!(
        autosave.contains("\"start\": \"/7/7/7/3K3/7/t6/7/ d\""),
        "{autosave}"
    );
}

impl Term {
    /// Opens the save prompt and types `name` over the name it offers.
    fn type_save_name(&mut self, name: &str) {
        self.send("s");
        self.wait_for("Save game");
        self.send(&"\x7f".repeat(60));
        self.wait_for("name: _");
        self.send(name);
        self.wait_for(&format!("name: {name}_"));
    }

    /// Quits, answering yes if asked.
    fn quit(&mut self) {
        self.send("q");
        let start = Instant::now();
        while self.child.0.try_wait().unwrap().is_none() {
            if self.screen().contains("anyway?") {
                self.send("y");
                break;
            }
            assert!(start.elapsed() < WAIT, "no quit:\n{}", self.screen());
            thread::sleep(Duration::from_millis(20));
        }
        assert!(self.wait_exit().success());
    }
}

#[test]
fn saving_over_another_save_asks_and_names_stay_in_the_save_folder() {
    let home = temp_home("names");
    let saves = home.join("saves");
    let mut term = Term::start(&["--rules", "standard"], &home);
    term.wait_for("Attackers to move");
    term.send(":d2-e2\r");
    term.wait_for("played d2-e2");
    term.type_save_name("x");
    term.send("\r");
    term.wait_for("saved to");
    assert_eq!(moves_in(&saves.join("x.json")), ["d2-e2"]);

    // Another game under the same name: the question says what the file holds.
    term.send("n");
    term.wait_for("Brandubh: new game");
    term.send("\r");
    term.wait_for("Attackers to move");
    term.send(":d2-c2\r");
    term.wait_for("played d2-c2");
    term.type_save_name("x");
    term.send("\r");
    let screen = term.wait_for("exists");
    assert!(
        screen.contains("A save named \"x\"") && screen.contains("1 ply"),
        "{screen}"
    );
    term.send("n");
    term.wait_for("name: x_");
    term.send("\x1b");
    term.wait_without("Save game");
    assert_eq!(moves_in(&saves.join("x.json")), ["d2-e2"], "untouched");

    // Paths are refused with the reason, and nothing is written.
    for name in ["../evil/x", "/tmp/brandubh-e2e-evil"] {
        term.type_save_name(name);
        term.send("\r");
        term.wait_for("a name cannot contain /");
        term.send("\x1b");
        term.wait_without("Save game");
    }
    term.type_save_name("autosave");
    term.wait_for("\"autosave\" is a reserved name");
    term.send("\r\x1b");
    term.wait_without("Save game");

    // Saying yes replaces the file.
    term.type_save_name("x");
    term.send("\r");
    term.wait_for("exists");
    term.send("y");
    term.wait_for("saved to");
    assert_eq!(moves_in(&saves.join("x.json")), ["d2-c2"]);
    term.quit();

    assert!(!Path::new("/tmp/brandubh-e2e-evil.json").exists());
    let mut outside: Vec<_> = files_under(&home)
        .into_iter()
        .filter(|p| !p.starts_with(&saves))
        .collect();
    // The index of summaries is written only when a save's summary was read.
    outside.retain(|p| *p != home.join("cache").join("summaries.json"));
    assert_eq!(
        outside,
        [home.join("config").join("settings.json")],
        "nothing outside the save folder but the index of summaries and the remembered settings"
    );
    let mut inside: Vec<_> = files_under(&saves)
        .iter()
        .map(|p| p.strip_prefix(&saves).unwrap().to_owned())
        .collect();
    inside.sort();
    // The first game went to x.json, then was left for a new game without further moves.
    assert_eq!(inside, [PathBuf::from("x.json")], "{inside:?}");
}

#[test]
fn leaving_an_unfinished_game_keeps_it_and_continue_resumes_it() {
    let home = temp_home("continue");
    let mut term = Term::start(&[], &home);
    term.wait_for("Brandubh: new game");
    assert!(
        !term.screen().contains("Continue"),
        "nothing to continue yet"
    );
    term.send("\r");
    term.wait_for("Attackers to move");
    term.send(":d2-e2\r");
    term.wait_for("played d2-e2");

    // A new game: the first one stays in its autosave.
    term.send("n");
    term.wait_for("Brandubh: new game");
    term.send("\r");
    term.wait_for("Attackers to move");
    term.send(":d2-c2\r");
    term.wait_for("played d2-c2");
    wait_for_autosaves(&home, &[&["d2-c2"], &["d2-e2"]]);

    // Load the first one: both are listed as unfinished.
    term.send("o");
    let list = term.wait_for("Load a game");
    assert_eq!(list.matches("unfinished").count(), 1, "{list}");
    assert_eq!(list.matches("in play").count(), 1, "{list}");
    // The newest first: the game in play, then the first one.
    term.send("j\r");
    term.wait_for("continued");
    term.wait_for("Defenders to move");
    term.send(":c4-c5\r");
    term.wait_for("played c4-c5");
    // Nothing lost.
    wait_for_autosaves(&home, &[&["d2-c2"], &["d2-e2", "c4-c5"]]);
    // Quitting asks, and offers to save the game under a name.
    term.send("q");
    term.wait_for("its autosave keeps it");
    term.send("s");
    term.wait_for("Save game");
    term.send("\x1b");
    term.wait_without("Save game");
    term.quit();

    // Plain `brandubh` offers the latest unfinished game first; Enter continues it.
    let mut term = Term::start(&[], &home);
    let screen = term.wait_for("Continue");
    assert!(
        screen.contains("human vs human, standard, 2 plies"),
        "{screen}"
    );
    term.send("\r");
    let screen = term.wait_for("Attackers to move");
    assert!(
        screen.contains("d2-e2") && screen.contains("c4-c5"),
        "{screen}"
    );
    term.send(":d1-d2\r");
    term.wait_for("played d1-d2");
    term.quit();
    let games: Vec<_> = autosaves(&home).into_iter().map(|(_, m)| m).collect();
    assert_eq!(games, [vec!["d2-c2"], vec!["d2-e2", "c4-c5", "d1-d2"]]);
}

#[test]
fn two_instances_in_one_folder_keep_both_games() {
    let home = temp_home("two");
    let mut first = Term::start(&["--rules", "standard"], &home);
    let mut second = Term::start(&["--rules", "standard"], &home);
    first.wait_for("Attackers to move");
    second.wait_for("Attackers to move");
    first.send(":d2-e2\r");
    second.send(":d2-c2\r");
    first.wait_for("played d2-e2");
    second.wait_for("played d2-c2");
    // One autosave each.
    wait_for_autosaves(&home, &[&["d2-c2"], &["d2-e2"]]);

    // Both save under one name at once: the second is asked, never silently replaces.
    first.type_save_name("shared");
    second.type_save_name("shared");
    first.send("\r");
    first.wait_for("saved to");
    second.send("\r");
    second.wait_for("exists");
    second.send("n");
    second.wait_for("name: shared_");
    second.send("\x1b");
    second.wait_without("Save game");
    first.quit();
    second.quit();
    let shared = home.join("saves").join("shared.json");
    assert_eq!(moves_in(&shared), ["d2-e2"]);
    let games: Vec<_> = autosaves(&home).into_iter().map(|(_, m)| m).collect();
    assert_eq!(
        games,
        [vec!["d2-c2"]],
        "the second game stays in its autosave"
    );
}

#[test]
fn choices_are_remembered_and_a_corrupt_settings_file_is_a_warning() {
    let home = temp_home("settings");
    let config = home.join("config");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(config.join("settings.json"), "{ not json").unwrap();
    let mut term = Term::start(&["play", "--ascii"], &home);
    let screen = term.wait_for("settings ignored, defaults used");
    assert!(screen.contains("Brandubh: new game"), "{screen}");
    // Start a game (writing the settings), then quit: no moves, no question.
    term.send("\r");
    term.wait_for("Attackers to move");
    term.send("q");
    assert!(term.wait_exit().success());
    // Without --ascii, the next run is ASCII all the same.
    let mut term = Term::start(&["play"], &home);
    let screen = term.wait_for("Brandubh: new game");
    assert!(screen.is_ascii(), "{screen}");
    term.send("\x1b");
    assert!(term.wait_exit().success());
}

#[test]
fn a_side_loses_on_time_and_the_save_records_it() {
    use brandubh::game::{Clocks, Game, Player};
    use brandubh::rules::{Position, Preset};

    let home = temp_home("clock");
    // The attackers' move played on the clock before the game starts: nothing the test sends
    // has to come before a flag falls.
    let mut game = Game::new(
        Preset::Standard.rules(),
        Position::start(),
        Player::Human,
        Player::Human,
    );
    game.set_clocks(Clocks::new("3s".parse().unwrap()));
    game.play_text("d2-e2").unwrap();
    let file = home.join("on-the-clock.json");
    brandubh::game::storage::save_atomic(&file, &game).unwrap();
    let mut term = Term::start(&["play", "--load", file.to_str().unwrap()], &home);
    // The defenders do not move: their three seconds run out.
    let screen = term.wait_for("the defenders ran out of time");
    assert!(screen.contains("Attackers win"), "{screen}");
    // The loss is autosaved a moment after it shows.
    let start = Instant::now();
    let record = loop {
        let [(path, moves)] = &wait_for_autosaves(&home, &[&["d2-e2"]])[..] else {
            panic!("one autosave")
        };
        assert_eq!(moves, &["d2-e2"]);
        let record: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        if !record["result"].is_null() || start.elapsed() > WAIT {
            break record;
        }
        thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(record["result"]["reason"], "time", "{record}");
    assert_eq!(record["result"]["winner"], "attackers");
    assert_eq!(record["clock"]["defenders"]["left_ms"], 0);
    assert_eq!(record["clock"]["control"]["main_ms"], 3000);
    // Finished, but in no file: quitting asks, as for any change (issue 18, defect 1).
    term.send("q");
    term.wait_for("Quit anyway?");
    term.send("y");
    assert!(term.wait_exit().success());
}

/// `brandubh online` on a terminal, to a server not met before: its key's fingerprint is
/// shown and a question asked; no keeps nothing, yes pins the key.
#[test]
fn the_key_of_a_server_not_met_before_is_shown_and_pinned_only_on_yes() {
    use brandubh::net::server::{self, Limits, ServerConfig};
    let data = tempfile::tempdir().unwrap();
    let running = server::start(ServerConfig {
        listen: "127.0.0.1:0".to_owned(),
        data: data.path().to_owned(),
        limits: Limits::default(),
    })
    .unwrap();
    let address = running.addr().to_string();
    let home = temp_home("online-trust");
    let out = home.join("out");
    let args = [
        "online",
        &address,
        "--name",
        "reader",
        "--games",
        "nobody",
        "--out",
        out.to_str().unwrap(),
    ];
    let known = home.join("config").join("known_servers");
    for (answer, pinned) in [("n", false), ("y", true)] {
        let mut term = Term::start(&args, &home);
        // Asked in plain lines, before any frame.
        term.wait_until("the key and the question are shown", |screen| {
            let shown = screen.contents();
            shown.contains(running.fingerprint()) && shown.contains("[y/N]")
        });
        term.send(&format!("{answer}\r"));
        let status = term.wait_exit();
        assert_eq!(status.success(), pinned, "{}", term.shown());
        if !pinned {
            assert_eq!(status.exit_code(), 2);
        }
        assert_eq!(known.exists(), pinned);
    }
    let line = std::fs::read_to_string(&known).unwrap();
    assert_eq!(line, format!("{address} {}\n", running.fingerprint()));
}

/// Two terminal games against one server on the loopback: ann creates a game, bob joins it
/// from the lobby, they play moves, chat, and bob resigns; both screens show it all.
#[test]
fn two_terminal_games_play_online_against_one_server() {
    use brandubh::net::server::{self, Limits, ServerConfig};
    let data = tempfile::tempdir().unwrap();
    let running = server::start(ServerConfig {
        listen: "127.0.0.1:0".to_owned(),
        data: data.path().to_owned(),
        limits: Limits::default(),
    })
    .unwrap();
    let address = running.addr().to_string();
    let (ann_home, bob_home) = (temp_home("online-ann"), temp_home("online-bob"));
    let mut ann = Term::start(
        &["online", &address, "--name", "ann", "--insecure"],
        &ann_home,
    );
    let mut bob = Term::start(
        &["online", &address, "--name", "bob", "--insecure"],
        &bob_home,
    );
    ann.wait_for("connected");
    bob.wait_for("connected");

    // Ann creates a game as the attackers (the side is the second field of the form).
    ann.send("c");
    ann.wait_for("Create a game");
    ann.send("\x1b[A\x1b[A\x1b[A\x1b[A\x1b[A\x1b[C\r");
    ann.wait_for("waiting for an opponent");

    // Bob sees it in the lobby and joins it.
    bob.send("r");
    bob.wait_for("ann 1500? waits (attackers)");
    bob.send("\r");
    bob.wait_for("Online game #");
    ann.wait_for("your move");

    // Moves go through the server to both boards.
    // The panel lists them as a local game's does: a row a move number.
    let listed = |moves: &'static [&'static str]| {
        move |screen: &vt100::Screen| {
            let contents = screen.contents();
            contents
                .lines()
                .any(|l| l.contains(" 1 ") && moves.iter().all(|m| l.contains(m)))
        }
    };
    ann.send(":d2-c2\r");
    bob.wait_for("ann played d2-c2");
    ann.wait_until("the move list shows d2-c2", listed(&["d2-c2"]));
    bob.send(":c4-c3\r");
    ann.wait_for("bob played c4-c3");
    bob.wait_until("the move list shows both", listed(&["d2-c2", "c4-c3"]));

    // A chat line, shown on the other screen.
    bob.send("c");
    bob.send("good game\r");
    ann.wait_for("bob: good game");

    // Bob resigns: both screens show the result, and both saved the game.
    bob.send("x");
    bob.wait_for("resign this game?");
    bob.send("y");
    ann.wait_for("You win");
    bob.wait_for("You lost");
    ann.wait_for("saved as");
    bob.wait_for("saved as");
    for home in [&ann_home, &bob_home] {
        let saves = files_under(&home.join("saves"));
        assert_eq!(saves.len(), 1, "{saves:?}");
        assert_eq!(moves_in(&saves[0]), ["d2-c2", "c4-c3"]);
    }
    for term in [&mut ann, &mut bob] {
        term.send("q");
        term.wait_for("Your games");
        term.send("q");
        assert!(term.wait_exit().success());
    }
}
