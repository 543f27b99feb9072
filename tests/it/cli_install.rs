//! What an installed `brandubh` brings besides the game: shell completions and manual pages
//! made from the command line's own definitions, and `--version` naming the commit built.

use std::path::Path;
use std::process::Command;

use brandubh::cli::Cli;
use clap::CommandFactory;

use crate::common::cli::{failure, success};

/// The names of the commands, as the command line defines them.
fn commands() -> Vec<String> {
    Cli::command()
        .get_subcommands()
        .map(|command| command.get_name().to_owned())
        .collect()
}

/// Checks the syntax of `script` with `shell` (run with `check`, the flag that reads without
/// running), if that shell is installed here; whether it was.
fn parses(shell: &str, check: &str, script: &str) -> bool {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("completions");
    std::fs::write(&file, script).unwrap();
    let Ok(out) = Command::new(shell).arg(check).arg(&file).output() else {
        eprintln!("{shell} is not installed: its completions' syntax is not checked");
        return false;
    };
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{shell} {check}: {err}");
    true
}

#[test]
fn completions_for_each_shell_name_every_command_and_parse() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = success(&["completions", shell]);
        assert!(!script.trim().is_empty(), "{shell}");
        for command in commands() {
            assert!(script.contains(&command), "{shell}: {command}");
        }
        match shell {
            "bash" => assert!(parses("bash", "-n", &script), "bash is needed"),
            "zsh" => _ = parses("zsh", "-n", &script),
            "fish" => _ = parses("fish", "--no-execute", &script),
            _ => {}
        }
    }
}

#[test]
fn a_shell_not_known_is_one_line_and_exit_code_2() {
    let line = failure(&["completions", "tcsh"]);
    assert!(line.contains("'tcsh'") && line.contains("bash"), "{line}");
}

#[test]
fn the_man_page_names_every_command_and_each_has_a_page_of_its_own() {
    let page = success(&["manpage"]);
    assert!(page.contains(".TH brandubh 1"), "{page}");
    for command in commands() {
        assert!(
            page.contains(&format!("brandubh\\-{command}(1)")),
            "{command}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let man1 = dir.path().join("man").join("man1");
    success(&["manpage", "--dir", man1.to_str().unwrap()]);
    assert_eq!(
        std::fs::read_to_string(man1.join("brandubh.1")).unwrap(),
        page
    );
    for command in commands() {
        let own = std::fs::read_to_string(man1.join(format!("brandubh-{command}.1"))).unwrap();
        assert!(own.contains(&format!(".TH brandubh-{command} 1")), "{own}");
    }
}

#[test]
fn the_version_names_the_commit_built_in_a_git_checkout() {
    let version = success(&["--version"]);
    let crate_version = env!("CARGO_PKG_VERSION");
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR"));
    let head = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(checkout)
        .output()
        .ok()
        .filter(|out| out.status.success() && checkout.join(".git").exists());
    let expected = match head {
        Some(out) => {
            let hash = String::from_utf8(out.stdout).unwrap();
            format!("brandubh {crate_version} ({})\n", hash.trim())
        }
        None => format!("brandubh {crate_version}\n"),
    };
    assert_eq!(version, expected);
}
