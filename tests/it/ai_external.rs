//! `match` against engines in other programs, through the OpenTafl Engine Protocol: this
//! program's own `otep` engine plays whole games, and engines that crash, play an illegal
//! move or think too long lose, with the reason in the record.

use crate::common;

use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use brandubh::ai::{EngineSpec, ExternalOptions, Failure, GameResult, MatchConfig, play_match};
use brandubh::game::{Game, Player};
use brandubh::rules::{Position, Preset, Reason, Side};

/// Time enough for any move here: the engines that answer are bounded by depth, or answer at
/// once, so this only turns a hang into a loss on time.
const NO_HURRY: Duration = Duration::from_secs(60);

/// A match of `games` between `first` and `second`, `time` a move.
fn config(first: &str, second: &str, games: u32, time: Duration) -> MatchConfig {
    MatchConfig {
        rules: Preset::OpenTafl.rules(),
        start: Position::start(),
        first: first.parse::<EngineSpec>().unwrap(),
        second: second.parse::<EngineSpec>().unwrap(),
        games,
        seed: 5,
        jobs: 1,
        time: Some(time),
        max_plies: 60,
        opening_plies: 2,
        external: ExternalOptions::default(),
    }
}

/// The games of the match `config`, in order.
fn games_of(config: &MatchConfig) -> Vec<GameResult> {
    let mut games = Vec::new();
    play_match(config, &AtomicBool::new(false), &mut |game| {
        games.push(game);
        ControlFlow::Continue(())
    })
    .unwrap();
    games.sort_by_key(|g| g.index);
    games
}

/// The game's record read back from its save text, as any later reader sees it.
fn reread(game: &Game) -> Game {
    Game::from_json(&game.to_json()).unwrap()
}

#[test]
fn this_programs_otep_engine_plays_a_match() {
    let engine = format!(
        "otep:{} otep --level medium",
        env!("CARGO_BIN_EXE_brandubh")
    );
    let games = games_of(&config(&engine, "search:medium", 2, NO_HURRY));
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(game.forfeit, None, "game {}: {}", game.index, game.outcome);
        assert_ne!(game.outcome.reason, Reason::Resignation);
        assert!(
            game.game.moves().len() > game.opening_plies,
            "{}",
            game.outcome
        );
        let external = game.first_side;
        assert_eq!(game.game.players().side(external), Player::Program);
        let names = game.game.start_comment().unwrap();
        assert!(names.contains(&format!("{external}: {engine}")), "{names}");
        assert_eq!(reread(&game.game).moves(), game.game.moves());
    }
}

#[cfg(unix)]
mod failing {
    use super::common::engine::script;
    use super::*;

    /// One game of the script (first, attackers) against the random mover.
    fn one_game(body: &str) -> GameResult {
        one_game_with(body, NO_HURRY, ExternalOptions::default())
    }

    /// One game of the script against the random mover, `time` a move, the script given its
    /// time as `external` says.
    fn one_game_with(body: &str, time: Duration, external: ExternalOptions) -> GameResult {
        let (_dir, path) = script(body);
        let engine = format!("otep:{}", path.display());
        let config = MatchConfig {
            external,
            ..config(&engine, "random", 1, time)
        };
        let mut games = games_of(&config);
        games.pop().unwrap()
    }

    /// The game is the attackers' (the script's) loss for `reason`, and its last comment
    /// says why, in the game and in its save.
    fn lost(game: &GameResult, reason: Reason, words: &str) {
        assert_eq!(game.first_side, Side::Attackers);
        assert_eq!(
            game.outcome.winner,
            Some(Side::Defenders),
            "{}",
            game.outcome
        );
        assert_eq!(game.outcome.reason, reason);
        let failure = game.forfeit.as_ref().expect("a failure").to_string();
        assert!(failure.contains(words), "{failure}");
        let saved = reread(&game.game);
        let comment = match saved.moves().len() {
            0 => saved.start_comment().map(str::to_owned),
            n => saved.comments()[n - 1].clone(),
        };
        let comment = comment.expect("the record says why");
        assert!(
            comment.contains("attackers lose") && comment.contains(words),
            "{comment}"
        );
    }

    #[test]
    fn an_engine_that_crashes_loses() {
        let game = one_game("echo hello\nread line\nexit 3");
        lost(&game, Reason::Resignation, "crashed");
        assert!(matches!(game.forfeit, Some(Failure::Crashed(_))));
    }

    #[test]
    fn an_engine_that_plays_an_illegal_move_loses() {
        let body = "echo hello\nwhile read line; do\n  case \"$line\" in play*) echo 'move a1-a2';; esac\ndone";
        let game = one_game(body);
        lost(&game, Reason::Resignation, "illegal move \"a1-a2\"");
    }

    #[test]
    fn an_over_long_line_from_an_engine_is_skipped() {
        // A line of 1 MiB before its hello: skipped as it comes, and the hello still read.
        let body = "head -c 1048576 /dev/zero | tr '\\0' x\necho\necho hello\nwhile read line; do\n  case \"$line\" in play*) echo 'move a1-a2';; esac\ndone";
        let game = one_game(body);
        lost(&game, Reason::Resignation, "illegal move \"a1-a2\"");
    }

    #[test]
    fn an_engine_that_thinks_too_long_loses_on_time() {
        // It never answers: whatever the machine's speed, its time runs out (the exact
        // deadline is tested with a time source the test moves, in src/ai/external.rs).
        let game = one_game_with(
            "echo hello\nwhile read line; do :; done",
            Duration::from_millis(300),
            ExternalOptions::default(),
        );
        lost(&game, Reason::Time, "3 times its 300ms");
        assert!(
            matches!(game.forfeit, Some(Failure::Time { budget, .. }) if budget == Duration::from_millis(300)),
            "{:?}",
            game.forfeit
        );
    }

    #[test]
    fn an_engine_that_never_says_hello_loses() {
        // It never says hello: the wait for it, 5 s by default, decides only how long the
        // test takes.
        let external = ExternalOptions {
            hello_wait: Duration::from_millis(100),
            ..ExternalOptions::default()
        };
        let game = one_game_with("while read line; do :; done", NO_HURRY, external);
        lost(&game, Reason::Resignation, "no hello within 100ms");
    }

    #[test]
    fn a_command_that_cannot_start_loses() {
        let game = one_game("");
        assert!(game.forfeit.is_some());
        let missing = games_of(&config("otep:/nonexistent/engine", "random", 1, NO_HURRY));
        let failure = missing[0].forfeit.as_ref().unwrap().to_string();
        assert!(
            failure.contains("cannot start \"/nonexistent/engine\""),
            "{failure}"
        );
    }
}
