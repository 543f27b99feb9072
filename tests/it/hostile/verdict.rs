//! Running the binary on one hostile case and judging what it did: it must end by itself, never
//! panic, exit 0 or 2, say a refusal in one line, and never write a raw control character to
//! the terminal.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// How long one run may take before it counts as a hang. Generous: a debug build on a loaded
/// two-core machine; no case needs more than a fraction of it.
const HANG: Duration = Duration::from_secs(60);

/// One run of the binary: its arguments, standard input and environment.
#[derive(Clone, Debug)]
pub struct Run {
    /// What the case is, for the failure message.
    pub label: String,
    /// The arguments after the program name.
    pub args: Vec<std::ffi::OsString>,
    /// What standard input holds (closed after it).
    pub stdin: Vec<u8>,
    /// Extra environment variables.
    pub env: Vec<(String, std::ffi::OsString)>,
    /// Whether the run must succeed (a valid input, a seed).
    pub must_succeed: bool,
    /// Whether a refusal may take more than one line (a protocol session answers each line).
    pub many_lines: bool,
}

impl Run {
    /// A run of `args` with nothing on standard input.
    pub fn new(label: impl Into<String>, args: &[&dyn AsRef<std::ffi::OsStr>]) -> Run {
        Run {
            label: label.into(),
            args: args.iter().map(|a| a.as_ref().to_owned()).collect(),
            stdin: Vec::new(),
            env: Vec::new(),
            must_succeed: false,
            many_lines: false,
        }
    }
}

/// What a run did.
pub struct Outcome {
    /// The exit code (`None`: killed by a signal).
    pub code: Option<i32>,
    /// Standard output.
    pub stdout: Vec<u8>,
    /// Standard error.
    pub stderr: Vec<u8>,
}

/// Runs `run` in `dir` and returns what it did, or why it is a failure.
pub fn run_in(dir: &Path, run: &Run) -> Result<Outcome, String> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_brandubh"));
    command
        .args(&run.args)
        .current_dir(dir)
        .env("BRANDUBH_SAVE_DIR", dir.join("saves"))
        .env("BRANDUBH_CONFIG_DIR", dir.join("config"))
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in &run.env {
        command.env(key, value);
    }
    let mut child = command
        .spawn()
        .map_err(|e| format!("{}: cannot start: {e}", run.label))?;
    let stdin = child.stdin.take();
    let input = run.stdin.clone();
    // A separate writer: a program that does not read its input must not block the test.
    let feeder = thread::spawn(move || {
        if let Some(mut stdin) = stdin {
            let _ = stdin.write_all(&input);
        }
    });
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let code = wait_bounded(&mut child).map_err(|e| format!("{}: {e}", run.label))?;
    let _ = feeder.join();
    Ok(Outcome {
        code,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}

/// Reads a pipe to its end on a thread of its own.
fn drain(pipe: Option<impl Read + Send + 'static>) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

/// Waits for `child` to end, killing it after [`HANG`].
fn wait_bounded(child: &mut Child) -> Result<Option<i32>, String> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            return Ok(status.code());
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {HANG:?}: a hang"));
        }
        thread::sleep(Duration::from_millis(5));
    }
}

/// The first control character in `bytes` that a terminal would act on (C0 but line end and
/// tab, DEL, C1), if any.
fn raw_control(bytes: &[u8]) -> Option<char> {
    String::from_utf8_lossy(bytes)
        .chars()
        .find(|&c| c.is_control() && c != '\n' && c != '\t')
}

/// Judges `outcome` of `run`: `Err` says what is wrong.
pub fn judge(run: &Run, outcome: &Outcome) -> Result<(), String> {
    let err = String::from_utf8_lossy(&outcome.stderr);
    let fail = |why: String| Err(format!("{}: {why}; stderr: {:?}", run.label, excerpt(&err)));
    if err.contains("panicked") || err.contains("RUST_BACKTRACE") {
        return fail("a panic".into());
    }
    match outcome.code {
        Some(0) => {}
        Some(2) if !run.must_succeed => {}
        Some(code) => return fail(format!("exit code {code}")),
        None => return fail("killed by a signal".into()),
    }
    let lines = err.lines().count();
    if outcome.code == Some(2) && lines != 1 && !run.many_lines {
        return fail(format!("{lines} lines on stderr, not one"));
    }
    if let Some(c) = raw_control(&outcome.stderr) {
        return fail(format!("raw control character {c:?} on stderr"));
    }
    if let Some(c) = raw_control(&outcome.stdout) {
        return fail(format!("raw control character {c:?} on stdout"));
    }
    if err.lines().any(|line| line.chars().count() > 1000) {
        return fail("a message line over 1,000 characters".into());
    }
    Ok(())
}

/// At most 300 characters of `text`, for failure messages.
pub fn excerpt(text: &str) -> String {
    text.chars().take(300).collect()
}
