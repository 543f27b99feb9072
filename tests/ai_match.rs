//! A short match: the search engine beats the random mover in every game.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use brandubh::ai::{EngineSpec, MatchConfig, MatchSummary, play_match};
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
    };
    let mut seen = 0;
    let games = play_match(&config, &mut |_| seen += 1);
    assert_eq!((seen, games.len()), (4, 4));
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
    let summary = MatchSummary::of(&games);
    assert_eq!(summary.total().wins, 4);
    assert_eq!(
        (summary.as_attackers.wins, summary.as_defenders.wins),
        (2, 2)
    );
}
