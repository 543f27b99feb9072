//! Running the `brandubh` binary as a user runs it.

use std::process::{Command, Output};

/// Runs the binary with `args`.
pub fn brandubh(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_brandubh"))
        .args(args)
        .output()
        .unwrap()
}

/// Runs a command that must succeed and returns its standard output.
pub fn success(args: &[&str]) -> String {
    let out = brandubh(args);
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    assert!(out.status.success(), "{args:?}: {err}");
    String::from_utf8(out.stdout).unwrap()
}

/// Runs a command that must fail with exit code 2 and one line on stderr, without a panic;
/// returns the line.
pub fn failure(args: &[&str]) -> String {
    let out = brandubh(args);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err.trim_end().to_owned()
}
