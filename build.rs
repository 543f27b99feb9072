//! Names the commit in `brandubh --version`: sets `BRANDUBH_VERSION` to the crate's version and,
//! in a git checkout, the short hash of the commit built (`0.1.0 (4c7c86e)`); from a source
//! tree without `.git` (a crates tarball), to the version alone.

use std::path::Path;
use std::process::Command;

fn main() {
    let version = env!("CARGO_PKG_VERSION");
    println!("cargo::rerun-if-changed=build.rs");
    let commit = Path::new(".git").exists().then(checked_out).flatten();
    let named = match commit {
        Some(hash) => format!("{version} ({hash})"),
        None => version.to_owned(),
    };
    println!("cargo::rustc-env=BRANDUBH_VERSION={named}");
}

/// The short hash of the commit checked out, and a rebuild asked for when it changes: when
/// `HEAD` moves to another branch, or its branch to another commit. `None` if git cannot say.
fn checked_out() -> Option<String> {
    let hash = git(&["rev-parse", "--short", "HEAD"])?;
    // The files that change with the commit, wherever git keeps them (a worktree's `.git`
    // is a file naming the folder).
    let branch = git(&["symbolic-ref", "--quiet", "HEAD"]);
    let watched = ["HEAD", "packed-refs"]
        .into_iter()
        .map(str::to_owned)
        .chain(branch);
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name])
            && Path::new(&path).exists()
        {
            println!("cargo::rerun-if-changed={path}");
        }
    }
    Some(hash)
}

/// What `git ARGS` prints on its first line, if it succeeds.
fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    let line = text.lines().next()?.trim();
    (output.status.success() && !line.is_empty()).then(|| line.to_owned())
}
