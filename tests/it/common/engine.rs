//! Engines for `match` written as shell scripts: each speaks just enough of the OpenTafl Engine
//! Protocol to misbehave in one way.

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

/// A shell script with `body` as an engine, in a fresh folder that lives as long as the
/// returned guard.
pub fn script(body: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("engine.sh");
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    (dir, path)
}
