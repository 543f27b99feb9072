//! Ratings in the terminal client: beside the names in the lobby and on the board, the
//! change at the end of a rated game, the leaderboard (`L`) and a player's profile (`P`).

use super::*;
use crate::net::protocol::{Leaderboard, PlayerStatus, PoolRecord, Profile, Ranked, RatingPoint};
use crate::net::ratings::{Change, Pool, Shown, Speed};

fn shown(rating: i32, deviation: i32) -> Shown {
    Shown { rating, deviation }
}

/// What `online` draws at 100 × 30, as text.
fn drawn(online: &Online) -> String {
    format!("{:?}", screen(online, 100, 30).backend())
}

#[test]
fn the_lobby_shows_ratings_beside_names_rated_or_casual_spectators_and_who_plays() {
    let mut online = connected("ann");
    let mut watched = summary(4, Some("dan"), Some("eve"), 5);
    watched.setup.rated = true;
    watched.ratings.attackers = Some(shown(1523, 60));
    watched.ratings.defenders = Some(shown(1500, 350));
    watched.spectators = 3;
    let mut open = summary(7, None, Some("cat"), 0);
    open.ratings.creator = Some(shown(1610, 80));
    message(
        &mut online,
        ServerMessage::Lobby(Lobby {
            open: vec![open],
            open_total: 1,
            playing: vec![watched],
            playing_total: 1,
            players: vec!["ann".into(), "dan".into()],
            players_total: 2,
            players_status: vec![
                PlayerStatus {
                    playing: false,
                    rating: None,
                },
                PlayerStatus {
                    playing: true,
                    rating: Some(shown(1523, 60)),
                },
            ],
            ..Lobby::default()
        }),
    );
    let text = drawn(&online);
    for shown in [
        "#4 dan 1523 vs eve 1500? · ply 5 · standard 5m+3s rated · 3 watching",
        "#7 cat 1610 waits (random) · standard 5m+3s casual",
        "ann, dan 1523 (playing)",
    ] {
        assert!(text.contains(shown), "{shown:?} not in {text}");
    }
}

/// The first page of the live standard leaderboard: alice, then bob, one game each.
fn standard_board() -> ServerMessage {
    let ranked = |rank, name: &str, rating| Ranked {
        rank,
        name: name.into(),
        rating,
        games: 1,
    };
    ServerMessage::Leaderboard(Leaderboard {
        rules: Preset::Standard,
        speed: Speed::Live,
        page: 0,
        bots: false,
        total: 2,
        players: vec![
            ranked(1, "alice", shown(1662, 290)),
            ranked(2, "bob", shown(1338, 290)),
        ],
    })
}

#[test]
fn l_shows_the_leaderboard_of_a_pool_and_enter_a_player_s_profile() {
    let mut online = connected("ann");
    message(&mut online, ServerMessage::Lobby(Lobby::default()));
    online.update(Action::Type('L'), SIZE);
    let standard = ClientMessage::Leaderboard(crate::net::protocol::LeaderboardAsk {
        rules: Preset::Standard,
        speed: Speed::Live,
        page: 0,
        bots: false,
    });
    assert_eq!(sent(&mut online), std::slice::from_ref(&standard));
    message(&mut online, standard_board());
    let text = drawn(&online);
    assert!(text.contains("Leaderboard · standard live"), "{text}");
    assert!(
        text.contains("1  alice") && text.contains("1662?"),
        "{text}"
    );
    assert!(
        text.contains("1662?     1 game\n") || text.contains("1662?     1 game "),
        "one game, not 1 games: {text}"
    );
    online.update(Action::Move(Direction::Right), SIZE);
    let walker = ClientMessage::Leaderboard(crate::net::protocol::LeaderboardAsk {
        rules: Preset::Walker,
        speed: Speed::Live,
        page: 0,
        bots: false,
    });
    assert_eq!(sent(&mut online), [walker]);
    online.update(Action::Move(Direction::Left), SIZE);
    assert_eq!(sent(&mut online), std::slice::from_ref(&standard));
    // Before the first pool, the last: the bots' pools come after the people's.
    online.update(Action::Move(Direction::Left), SIZE);
    let last = Pool::all().last().unwrap();
    assert!(last.bots);
    let text = drawn(&online);
    assert!(text.contains(&format!("{last} (")), "{text}");
    assert!(text.contains("· with bots"), "{text}");
    assert_eq!(
        sent(&mut online),
        [ClientMessage::Leaderboard(
            crate::net::protocol::LeaderboardAsk {
                rules: last.rules,
                speed: last.speed,
                page: 0,
                bots: true,
            }
        )]
    );
    online.update(Action::Move(Direction::Right), SIZE);
    assert_eq!(sent(&mut online), [standard]);
    message(&mut online, standard_board());
    online.update(Action::Move(Direction::Down), SIZE);
    online.update(Action::Confirm, SIZE);
    assert_eq!(
        sent(&mut online),
        [ClientMessage::Profile { name: "bob".into() }]
    );
    let pool = Pool::default();
    message(
        &mut online,
        ServerMessage::Profile(Box::new(Profile {
            name: "bob".into(),
            online: true,
            playing: false,
            pools: vec![PoolRecord {
                pool,
                rating: shown(1338, 290),
                wins: 0,
                draws: 0,
                losses: 1,
            }],
            history: vec![RatingPoint {
                pool,
                game: 3,
                rating: 1338,
            }],
            recent: Vec::new(),
        })),
    );
    let text = drawn(&online);
    assert!(text.contains("Player · bob · online"), "{text}");
    assert!(
        text.contains("standard live") && text.contains("W 0 D 0 L 1"),
        "{text}"
    );
    assert!(
        text.contains("standard live · 1 rated game · 1338"),
        "one game's chart: {text}"
    );
    online.update(Action::Cancel, SIZE);
    assert!(
        drawn(&online).contains("Players online"),
        "back in the lobby"
    );
}

#[test]
fn p_asks_whose_profile_offering_the_selected_game_s_other_player() {
    let mut online = connected("ann");
    message(
        &mut online,
        ServerMessage::Lobby(Lobby {
            mine: vec![summary(3, Some("ann"), Some("bob"), 2)],
            mine_total: 1,
            ..Lobby::default()
        }),
    );
    online.update(Action::Type('P'), SIZE);
    assert!(drawn(&online).contains("profile of: bob▏"));
    online.update(Action::Confirm, SIZE);
    assert_eq!(
        sent(&mut online),
        [ClientMessage::Profile { name: "bob".into() }]
    );
}

#[test]
fn the_board_shows_the_ratings_and_the_change_after_a_rated_game() {
    let mut online = connected("ann");
    let mut state = view(5, Some(Side::Attackers), &["d2-c2", "d3-e3"]);
    state.summary.setup.rated = true;
    state.summary.ratings.attackers = Some(shown(1500, 350));
    state.summary.ratings.defenders = Some(shown(1500, 350));
    message(&mut online, ServerMessage::State(Box::new(state)));
    online.show_game(5);
    let text = drawn(&online);
    assert!(text.contains("ann 1500? (you)"), "{text}");
    assert!(text.contains("rated · engine help"), "{text}");
    let outcome = Outcome {
        winner: Some(Side::Attackers),
        reason: Reason::Resignation,
    };
    message(
        &mut online,
        ServerMessage::Result {
            game: 5,
            outcome,
            clocks: None,
        },
    );
    let change = |after| Change {
        before: shown(1500, 350),
        after: shown(after, 290),
    };
    message(
        &mut online,
        ServerMessage::Rated(crate::net::protocol::RatedGame {
            game: 5,
            attackers: change(1662),
            defenders: change(1338),
        }),
    );
    let text = drawn(&online);
    assert!(text.contains("ann 1500? → 1662? (+162)"), "{text}");
    assert!(text.contains("bob 1500? → 1338? (-162)"), "{text}");
}

#[test]
fn the_board_counts_the_spectators_as_they_come_and_go() {
    let mut online = connected("ann");
    message(
        &mut online,
        ServerMessage::State(Box::new(view(5, Some(Side::Attackers), &[]))),
    );
    online.show_game(5);
    assert!(drawn(&online).contains("casual · engine help"));
    message(&mut online, ServerMessage::Spectators { game: 5, count: 2 });
    let text = drawn(&online);
    assert!(text.contains("casual · 2 watching"), "{text}");
}
