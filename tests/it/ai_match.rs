//! A short match: the search engine beats the random mover in every game.

use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;

use brandubh::ai::{EngineSpec, ExternalOptions, MatchConfig, play_match};
use brandubh::rules::{Position, Preset, Side};

#[test]
fn search_beats_random_in_every_game() {
    let config = MatchConfig {
        rules: Preset::Standard.rules(),
        start: Position::start(),
        first: "search:medium".parse::<EngineSpec>().unwrap(),
        second: "random".parse::<EngineSpec>().unwrap(),
        games: 4,
        seed: 11,
        jobs: 2,
        time: None,
        max_plies: 200,
        opening_plies: 2,
        external: ExternalOptions::default(),
    };
    let mut games = Vec::new();
    let summary = play_match(&config, &AtomicBool::new(false), &mut |game| {
        games.push(game);
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(games.len(), 4);
    // Handed over as they end: with two at once, not necessarily in order.
    games.sort_by_key(|g| g.index);
    for game in &games {
        assert_eq!(
            game.outcome.winner,
            Some(game.first_side),
            "game {}: {}",
            game.index,
            game.outcome
        );
        assert_eq!(game.opening_plies, 2);
    }
    assert_eq!(games[0].first_side, Side::Attackers);
    assert_eq!(games[1].first_side, Side::Defenders);
    let opening = |i: usize| games[i].game.moves()[..2].to_vec();
    assert_eq!(opening(0), opening(1), "a pair shares its opening");
    assert_eq!(games[0].game.players().attackers.to_string(), "ai:medium");
    assert_eq!(summary.total().wins, 4);
    assert_eq!(
        (summary.as_attackers.wins, summary.as_defenders.wins),
        (2, 2)
    );
}

#[test]
fn a_match_stops_when_asked() {
    let config = MatchConfig {
        rules: Preset::Standard.rules(),
        start: Position::start(),
        first: "random".parse::<EngineSpec>().unwrap(),
        second: "random".parse::<EngineSpec>().unwrap(),
        games: 1000,
        seed: 3,
        jobs: 2,
        time: None,
        max_plies: 20,
        opening_plies: 0,
        external: ExternalOptions::default(),
    };
    let stop = AtomicBool::new(false);
    let mut seen = 0;
    let summary = play_match(&config, &stop, &mut |_| {
        seen += 1;
        if seen == 3 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap();
    assert_eq!((seen, summary.total().games()), (3, 3));
    assert!(stop.load(std::sync::atomic::Ordering::Relaxed));
    // Stopped before it began: no game.
    let summary = play_match(&config, &stop, &mut |_| ControlFlow::Continue(())).unwrap();
    assert_eq!(summary.total().games(), 0);
}

#[test]
fn an_engine_in_another_program_cannot_play_rules_without_a_rules_string() {
    let config = MatchConfig {
        rules: Preset::Nielsen.rules(),
        start: Position::start(),
        first: "random".parse::<EngineSpec>().unwrap(),
        second: "otep:./engine".parse::<EngineSpec>().unwrap(),
        games: 2,
        seed: 3,
        jobs: 1,
        time: None,
        max_plies: 20,
        opening_plies: 0,
        external: ExternalOptions::default(),
    };
    let error = play_match(&config, &AtomicBool::new(false), &mut |_| {
        panic!("no game is played")
    })
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "otep:./engine cannot play these rules: they have no OpenTafl rules string to send it"
    );
}
