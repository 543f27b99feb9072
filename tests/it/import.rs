//! Games recorded by other programs: the public archive of 525 Brandubh games, OpenTafl game
//! records (`.otg`) in and out, move records in OpenTafl's notation, and the refusals.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use brandubh::game::import::{self, Format, RecordErrorKind};
use brandubh::game::storage::{self, load};
use brandubh::game::{
    EngineKind, Game, Level, LoadError, LoadErrorKind, MoveTime, Node, Place, Player, Tag,
};
use brandubh::rules::{
    IllegalMove, MoveError, Outcome, Position, Preset, Reason, RulesStringError, Side,
};
use common::cli::{failure, success};
use proptest::prelude::*;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn new_game(preset: Preset) -> Game {
    Game::new(
        preset.rules(),
        Position::start(),
        Player::Human,
        Player::Human,
    )
}

/// Soldiers captured by each side's moves, attackers first.
fn captures_by_side(game: &Game) -> (u32, u32) {
    let mut counts = (0, 0);
    for (done, before) in game.moves().iter().zip(game.state().history()) {
        match before.side_to_move() {
            Side::Attackers => counts.0 += done.captured.count(),
            Side::Defenders => counts.1 += done.captured.count(),
        }
    }
    counts
}

#[test]
fn every_archived_game_replays_under_standard_with_its_recorded_captures() {
    let text = fs::read_to_string(data("archive/brandubh.csv")).unwrap();
    let (mut games, mut whole, mut new_forms, mut stopped_at_repetition) = (0, 0, 0, 0);
    for (i, line) in text.lines().enumerate() {
        let line_number = i + 1;
        let columns: Vec<&str> = line.split(',').collect();
        let [moves, attacker_captures, defender_captures, recorded] = columns[..] else {
            panic!("line {line_number}: four columns expected: {line}");
        };
        games += 1;
        let uses_new_forms = moves.contains("timeout")
            || moves
                .split_whitespace()
                .any(|m| m.matches(['x', 'X']).count() > 1);
        new_forms += usize::from(uses_new_forms);
        let mut game = new_game(Preset::Standard);
        // Every listed capture is checked against the move by the import itself.
        match import::play_record(&mut game, moves) {
            Ok(()) => {
                whole += 1;
                assert_eq!(
                    captures_by_side(&game),
                    (
                        attacker_captures.parse().unwrap(),
                        defender_captures.parse().unwrap()
                    ),
                    "line {line_number}: captures per side"
                );
            }
            // The site had no repetition rule: such a game plays on past the end.
            Err(RecordErrorKind::Move {
                error: MoveError::Illegal(IllegalMove::GameOver),
                ..
            }) if game.outcome().map(|o| o.reason) == Some(Reason::Repetition) => {
                stopped_at_repetition += 1;
            }
            Err(e) => panic!("line {line_number}: {e}"),
        }
        // Where our replay ends the game, the site's result is ours (a game that played on past
        // a repetition has the result of its last move, not ours).
        let winner = game.outcome().and_then(|o| o.winner);
        match (winner, recorded) {
            _ if game.outcome().map(|o| o.reason) == Some(Reason::Repetition) => {}
            (None, _) | (Some(Side::Attackers), "Black") | (Some(Side::Defenders), "White") => {}
            // Two records hold only `timeout`, with no result.
            (Some(Side::Defenders), "") if moves == "timeout" => {}
            _ => panic!("line {line_number}: {winner:?} wins, but the record says {recorded:?}"),
        }
    }
    assert_eq!(games, 525);
    assert_eq!(new_forms, 27, "games using xc2xd3 or timeout");
    assert_eq!(whole + stopped_at_repetition, games);
    assert_eq!(
        stopped_at_repetition, 5,
        "games played on past a third repetition"
    );
}

#[test]
fn an_archived_game_lost_on_time_ends_by_time() {
    let mut game = new_game(Preset::Standard);
    import::play_record(&mut game, "d7-d6 c4-c6 d6-c6 timeout").unwrap_err();
    let mut game = new_game(Preset::Standard);
    import::play_record(&mut game, "d2-e2 d3-d2 b4-b2 timeout").unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Side::Attackers, Reason::Time))
    );
    let err = import::play_record(&mut game, "timeout").unwrap_err();
    assert_eq!(
        err.to_string(),
        "move 4 \"timeout\": illegal move: the game is over"
    );
    let mut game = new_game(Preset::Standard);
    import::play_record(&mut game, "1. d1-c1 ---").unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Side::Attackers, Reason::Resignation))
    );
}

#[test]
fn an_otg_with_tags_comments_and_variations_imports_its_main_line_and_side_lines() {
    let path = data("otg/commented.otg");
    let bytes = fs::read(&path).unwrap();
    assert_eq!(import::detect(&bytes), Format::Otg);
    let storage::Loaded { game, format, .. } = storage::load_with_format(&path).unwrap();
    assert_eq!(format, Format::Otg);
    assert_eq!(game.preset(), Some(Preset::OpenTafl));
    let moves: Vec<String> = game.moves().iter().map(ToString::to_string).collect();
    assert_eq!(
        moves.join(" "),
        "d7-c7 e4-e6 f4-f6xe6 d5-b5 d6-b6xb5 d4-d6 c7-d7 d6-d4 d1-f1 d4-e4 d2-e2 e4-e3 g4-e4++"
    );
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Side::Attackers, Reason::KingCaptured))
    );
    let commented: Vec<(usize, &str)> = game
        .comments()
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.as_deref().map(|c| (i, c)))
        .collect();
    assert_eq!(
        commented,
        [
            (0, "Opens the c-file"),
            (3, "A soldier lost for nothing"),
            (11, "The losing move|with a pipe"),
        ]
    );
    assert_eq!(
        game.start_comment(),
        Some("A short game: the king walks into a trap.")
    );
    // The variation at the defenders' second move, and the one inside it.
    assert_eq!(
        tree_text(&game),
        ["4: d5-e5 {The better defence} d6-d5 (c7-c6 c4-c5) c4-c5xd5"]
    );
    // "Alice" is no player we know: a human, whose name is kept. The date is the day the game
    // was played.
    assert_eq!(game.players().attackers, Player::Human);
    assert_eq!(
        game.players().defenders,
        Player::Ai {
            engine: EngineKind::Search,
            level: Level::Hard,
            time: None,
        }
    );
    assert_eq!(game.created().to_string(), "2016-08-27T00:00:00Z");
    // Comments survive our own save format.
    let json = game.to_json();
    assert!(json.contains("\"comments\": ["), "{json}");
    let back = Game::from_json(&json).unwrap();
    assert_eq!(back.comments(), game.comments());
    assert_eq!(back.start_comment(), game.start_comment());
}

#[test]
fn an_otg_as_found_in_the_wild_loads_with_paragraphs_custom_rules_and_a_resignation() {
    // A start comment of two paragraphs, comments of several paragraphs on both moves of a
    // turn with `|` between them, the king strong on and beside the throne (`ks:c`, no
    // preset), a resignation and a result tag.
    let game = load(&data("otg/wild.otg")).unwrap();
    assert_eq!(
        game.start_comment(),
        Some("A first paragraph about the opening.\n\nA second paragraph, after a blank line.")
    );
    assert_eq!(
        game.comments(),
        [
            Some("A long comment on the first move.\n\nIts second paragraph.".to_owned()),
            Some("And the reply's comment.\n\nIn two paragraphs too.".to_owned()),
        ]
    );
    assert_eq!(game.preset(), None);
    assert!(
        game.summary().contains("custom rules"),
        "{}",
        game.summary()
    );
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Side::Defenders, Reason::Resignation))
    );
    assert_eq!(game.tags().get(Tag::Attackers), Some("Alice"));
}

#[test]
fn an_otg_records_names_and_tags_survive_our_save_and_an_export() {
    let game = load(&data("otg/commented.otg")).unwrap();
    // Saved in our format and read back, the names and tags are there...
    let json = game.to_json();
    for field in [
        "\"attackers\": \"Alice\"",
        "\"event\": \"Club night\"",
        "\"site\": \"Dublin\"",
        "\"annotator\": \"Bob\"",
        // The day is the game's creation time.
        "\"created\": \"2016-08-27T00:00:00Z\"",
    ] {
        assert!(json.contains(field), "{field}\n{json}");
    }
    let back = Game::from_json(&json).unwrap();
    assert_eq!(back, game);
    // ...and an export writes them back as tags.
    let otg = import::to_otg(&back).unwrap();
    for tag in [
        "[event:Club night]",
        "[site:Dublin]",
        "[date:2016.08.27]",
        "[attackers:Alice]",
        "[defenders:ai:hard]",
        "[annotator:Bob]",
    ] {
        assert!(otg.contains(tag), "{tag}\n{otg}");
    }
    // Read back, the record gives the same names and tags.
    let again = round_trip(&back);
    assert_eq!(again.tags(), back.tags());
    assert_eq!(again.tags().name(Side::Attackers), Some("Alice"));
    assert_eq!(again.tags().name(Side::Defenders), None);
    assert_eq!(again.tags().get(Tag::Event), Some("Club night"));
    assert_eq!(again.created(), back.created());
    // A player changed drops the name of the one before.
    let mut taken_over = again;
    taken_over.set_player(Side::Attackers, Player::Human);
    assert_eq!(taken_over.tags().name(Side::Attackers), Some("Alice"));
    taken_over.set_player(Side::Attackers, "ai:easy".parse().unwrap());
    assert_eq!(taken_over.tags().name(Side::Attackers), None);
    assert!(
        import::to_otg(&taken_over)
            .unwrap()
            .contains("[attackers:ai:easy]")
    );
}

#[test]
fn a_date_that_is_no_day_is_kept_as_written() {
    let text = format!("[date:2016.??.??]\n{RULES}\n\n1. d2-c2\n");
    let (game, _) = import::read(text.as_bytes()).unwrap();
    assert_eq!(game.tags().get(Tag::Date), Some("2016.??.??"));
    assert!(
        import::to_otg(&game)
            .unwrap()
            .starts_with("[date:2016.??.??]\n")
    );
    let back = Game::from_json(&game.to_json()).unwrap();
    assert_eq!(back.tags(), game.tags());
}

/// The parts of a game an `.otg` file carries, for comparison (not its timestamps: a record
/// holds the date tag alone).
fn essence(game: &Game) -> String {
    let mut json: serde_json::Value = serde_json::from_str(&game.to_json()).unwrap();
    json["created"] = serde_json::Value::Null;
    json["updated"] = serde_json::Value::Null;
    json.to_string()
}

fn round_trip(game: &Game) -> Game {
    let text = import::to_otg(game).unwrap();
    assert_eq!(import::detect(text.as_bytes()), Format::Otg, "{text}");
    import::read(text.as_bytes())
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .0
}

#[test]
fn the_example_games_survive_an_otg_round_trip() {
    for entry in fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/games")).unwrap() {
        let game = load(&entry.unwrap().path()).unwrap();
        assert_eq!(essence(&round_trip(&game)), essence(&game));
    }
}

/// A game of `plies` random moves (or fewer, if it ends) from a position reached by `setup`
/// random moves, with random comments and a random ending off the board.
fn random_game(
    preset: Preset,
    setup: &[usize],
    plies: &[usize],
    comments: &[Option<String>],
    players: (Player, Player),
    ending: u8,
) -> Game {
    let mut start = new_game(preset);
    for &pick in setup {
        let legal = start.state().legal_moves();
        if legal.is_empty() {
            break;
        }
        start.play(legal[pick % legal.len()]).unwrap();
    }
    let mut game = Game::new(
        preset.rules(),
        *start.state().position(),
        players.0,
        players.1,
    );
    for &pick in plies {
        let legal = game.state().legal_moves();
        if legal.is_empty() {
            break;
        }
        game.play(legal[pick % legal.len()]).unwrap();
    }
    for (i, comment) in comments.iter().enumerate() {
        game.set_comment(i, comment.clone());
    }
    game.set_start_comment(comments.last().cloned().flatten());
    let to_move = game.state().position().side_to_move();
    let _ = match ending {
        0 => game.resign(to_move),
        1 => game.resign(to_move.opponent()),
        2 => game.lose_on_time(to_move.opponent()),
        3 => game.agree_draw(),
        4 => game.adjudicate_draw(),
        _ => Ok(()),
    };
    game
}

fn player() -> impl Strategy<Value = Player> {
    let level = prop::sample::select(Level::ALL.to_vec());
    prop_oneof![
        Just(Player::Human),
        level.clone().prop_map(|level| Player::Ai {
            engine: EngineKind::Search,
            level,
            time: None,
        }),
        level.prop_map(|level| Player::Ai {
            engine: EngineKind::Random,
            level,
            time: None,
        }),
        prop::sample::select(MoveTime::ALL.to_vec()).prop_map(|time| Player::Ai {
            engine: EngineKind::Search,
            level: Level::Max,
            time: Some(time),
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn export_then_import_gives_the_same_game(
        preset in prop::sample::select(vec![
            Preset::Standard, Preset::Walker, Preset::Fellhuhn, Preset::OpenTafl,
        ]),
        setup in prop::collection::vec(any::<usize>(), 0..4),
        plies in prop::collection::vec(any::<usize>(), 0..60),
        comments in prop::collection::vec(
            // Some of two paragraphs, the second of words (a line that read as a turn or a
            // tag would be written on one line).
            prop::option::of(("[a-zA-Z0-9 ,.!?:'\\[\\]-]{1,20}", "([a-z]{1,8} ){0,3}").prop_map(|(c, more)| {
                match (c.trim(), more.trim()) {
                    // A paragraph ending in `]` would close the comment: written on one line.
                    (c, more) if !c.is_empty() && !c.ends_with(']') && !more.is_empty() => {
                        format!("{c}\n\n{more}")
                    }
                    (c, _) => c.to_owned(),
                }
            })),
            0..60,
        ),
        players in (player(), player()),
        ending in 0u8..8,
    ) {
        let game = random_game(preset, &setup, &plies, &comments, players, ending);
        prop_assert_eq!(essence(&round_trip(&game)), essence(&game));
    }
}

/// `game` with side lines grown on it: each step plays a legal move at a place reached
/// before (of the main line, or one a step made), sometimes with a comment, so that lines
/// open, lengthen and nest.
fn grow_tree(mut game: Game, steps: &[(u16, u16, Option<String>)]) -> Game {
    let mut places: Vec<Place> = (0..=game.moves().len()).map(Place::main).collect();
    for (at, choice, comment) in steps {
        let place = places[usize::from(*at) % places.len()].clone();
        let Some(state) = game.state_at(&place) else {
            continue;
        };
        let moves = state.legal_moves();
        if moves.is_empty() || state.is_over() || place == Place::main(game.moves().len()) {
            continue;
        }
        let mv = moves[usize::from(*choice) % moves.len()];
        if let Ok(next) = game.play_at(&place, mv) {
            game.set_comment_at(&next, comment.clone());
            places.push(next);
        }
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_trees_survive_an_otg_round_trip(
        preset in prop::sample::select(vec![Preset::Standard, Preset::OpenTafl]),
        plies in prop::collection::vec(any::<usize>(), 1..30),
        steps in prop::collection::vec(
            (any::<u16>(), any::<u16>(), prop::option::of("[a-zA-Z0-9 ,.!?']{1,12}")
                .prop_map(|c| c.map(|c| c.trim().to_owned()).filter(|c| !c.is_empty()))),
            0..40,
        ),
        ending in 0u8..8,
    ) {
        let game = random_game(preset, &[], &plies, &[], (Player::Human, Player::Human), ending);
        let game = grow_tree(game, &steps);
        let back = round_trip(&game);
        prop_assert_eq!(back.side_lines(), game.side_lines());
        prop_assert_eq!(essence(&back), essence(&game));
    }
}

#[test]
fn otg_export_writes_opentafl_notation() {
    let game = load(&data("otg/commented.otg")).unwrap();
    let text = import::to_otg(&game).unwrap();
    let expected_start = "[event:Club night]
[site:Dublin]
[date:2016.08.27]
[attackers:Alice]
[defenders:ai:hard]
[result:1]
[termination:king captured]
[annotator:Bob]
[start-comment:A short game: the king walks into a trap.]
[rules:dim:7 name:Brandub esc:c surf:n atkf:y tfr:d ka:y ks:w corh:tTK cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]

1. d7-c7 e4-e6
[Opens the c-file|]
2. f4-f6xe6 d5-b5
[|A soldier lost for nothing]
2b.1.1a. ..... d5-e5
[|The better defence]
2b.1.2a. d6-d5 c4-c5xd5
2b.1.2a.1.1a. c7-c6 c4-c5
3. d6-b6xb5 Kd4-d6
";
    assert!(text.starts_with(expected_start), "{text}");
    assert!(
        text.ends_with("6. d2-e2 Ke4-e3\n[|The losing move|with a pipe]\n7. g4-e4++\n"),
        "{text}"
    );
    let mut multi_line = new_game(Preset::Standard);
    multi_line.play_text("d2-c2").unwrap();
    multi_line.set_comment(0, Some("first line\nsecond | line".into()));
    assert!(
        import::to_otg(&multi_line)
            .unwrap()
            .ends_with("1. d2-c2\n[first line\nsecond \\| line]\n")
    );
    // A line that would read as a turn is not begun: the comment goes on one line.
    multi_line.set_comment(0, Some("first line\n2. second".into()));
    assert!(
        import::to_otg(&multi_line)
            .unwrap()
            .ends_with("1. d2-c2\n[first line 2. second]\n")
    );
}

#[test]
fn nielsen_cannot_be_exported() {
    let game = new_game(Preset::Nielsen);
    let err = import::to_otg(&game).unwrap_err().to_string();
    assert_eq!(
        err,
        "the nielsen rules cannot be written as an OpenTafl record: OpenTafl's rules strings have no king safe on the edge"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nielsen.json");
    storage::save_atomic(&path, &game).unwrap();
    let path = path.to_str().unwrap();
    assert_eq!(
        failure(&["export", path, "--format", "otg"]),
        format!("brandubh: {err}")
    );
    assert!(success(&["export", path, "--format", "json"]).contains("\"nielsen\""));
}

/// A line of side-line nodes as text: each move, its comment in braces, then the side lines
/// played instead of it in parentheses.
fn line_text(nodes: &[Node]) -> String {
    let mut words = Vec::new();
    for node in nodes {
        words.push(node.played().to_string());
        if let Some(comment) = node.comment() {
            words.push(format!("{{{comment}}}"));
        }
        for side in node.sides() {
            words.push(format!("({})", line_text(side.nodes())));
        }
    }
    words.join(" ")
}

/// The game's side lines, one string per line leaving the main line: the number of the main
/// line's move it replaces (from 1), then the line as [`line_text`] writes it.
fn tree_text(game: &Game) -> Vec<String> {
    game.side_lines()
        .iter()
        .enumerate()
        .flat_map(|(i, sides)| {
            sides
                .iter()
                .map(move |side| format!("{}: {}", i + 1, line_text(side.nodes())))
        })
        .collect()
}

/// The moves section of a record: what follows its first blank line.
fn moves_section(text: &str) -> &str {
    text.split_once("\n\n").map_or("", |(_, moves)| moves)
}

#[test]
fn a_hand_written_otg_with_nested_variations_reads_to_its_tree_and_writes_back_alike() {
    let path = data("otg/variations.otg");
    let game = load(&path).unwrap();
    let moves: Vec<String> = game.moves().iter().map(ToString::to_string).collect();
    assert_eq!(moves, ["d2-c2", "d3-e3", "c2-c3", "d5-e5"]);
    assert_eq!(game.comments()[0].as_deref(), Some("The game's first move"));
    assert_eq!(
        tree_text(&game),
        [
            "1: d2-e2 {Another first move} c4-c3 {and its reply} (d5-e5) d1-d2 \
             (b4-b2 {A side line of the side line}) e4-e5",
            "1: a4-a2 {A second alternative}",
            "2: e4-e2 {Another reply}",
        ]
    );
    assert_eq!(game.side_line_depth(), 2);
    // Written back, the moves, variations and comments are the file's, line for line.
    let written = import::to_otg(&game).unwrap();
    assert_eq!(
        moves_section(&written),
        moves_section(&fs::read_to_string(&path).unwrap())
    );
    // Our own save keeps the tree too, and the export command writes the variations.
    assert_eq!(
        Game::from_json(&game.to_json()).unwrap().side_lines(),
        game.side_lines()
    );
    let exported = success(&["export", path.to_str().unwrap(), "--format", "otg"]);
    assert!(exported.contains("1a.1.2a.1.1a. b4-b2\n"), "{exported}");
}

#[test]
fn a_resignation_in_a_variation_is_dropped_and_its_moves_kept() {
    let game = load_text(&format!("{RULES}\n\n1. d2-c2 d3-e3\n1a.1.1a. a4-a2 ---\n")).unwrap();
    assert_eq!(tree_text(&game), ["1: a4-a2"]);
    assert_eq!(game.outcome(), None);
}

#[test]
fn variations_that_do_not_fit_the_tree_are_refused_with_their_line() {
    let cases = [
        (
            "1b.1.1a. d5-e5\n",
            "line 4: variation \"1b.1.1a.\": it replaces a second move, so its first turn begins with .....",
        ),
        (
            "1a.1.1a. ..... d5-e5\n",
            "line 4: variation \"1a.1.1a.\": ..... only stands for the parent line's move before the variation's first",
        ),
        (
            "1a.2.1a. a4-a2\n",
            "line 4: variation \"1a.2.1a.\": a variation numbered before it has not been read",
        ),
        (
            "1a.1.2a. a4-a2\n",
            "line 4: variation \"1a.1.2a.\": its first turn has not been read",
        ),
        (
            "1a.1.1a. a4-a2 d5-e5\n1a.1.3a. a2-a3\n",
            "line 5: variation \"1a.1.3a.\": its turns are not in order",
        ),
        (
            "1a.1.1a. a4-a2\n1a.1.1a. a4-a3\n",
            "line 5: variation \"1a.1.1a.\": its first turn was read before",
        ),
        (
            "3a.1.1a. a4-a2\n",
            "line 4: variation \"3a.1.1a.\": the move it replaces is not in its parent line",
        ),
        (
            "1a.1.1a. d2-c2\n",
            "line 4: variation \"1a.1.1a.\": its first move is one its parent line or an earlier variation plays there",
        ),
        (
            "1a.1.1a. a4-a9\n",
            "line 4: move 1 \"a4-a9\": a9 is not on the board (a1 to g7)",
        ),
        (
            "1a.1.1a.1.1a. a4-a2\n",
            "line 4: variation \"1a.1.1a.1.1a.\": a line it leaves has not been read",
        ),
        (
            "1b.x.1a. ..... d5-e5\n",
            "line 4: variation \"1b.x.1a.\": not a variation address (expected a form like 3b.1.1a.)",
        ),
        (
            "1a.1.1a. a4-a2 d5-e5 a2-a3\n",
            "line 4: variation \"1a.1.1a.\": a turn holds one or two moves",
        ),
    ];
    for (variation, expected) in cases {
        let text = format!("{RULES}\n\n1. d2-c2 d3-e3\n{variation}");
        let message = load_text(&text).unwrap_err().to_string();
        assert!(message.ends_with(expected), "{text}\n{message}");
    }
}

/// Loads `text` from a file.
fn load_text(text: &str) -> Result<Game, LoadError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.otg");
    fs::write(&path, text).unwrap();
    load(&path).inspect_err(|e| {
        let message = e.to_string();
        assert!(!message.contains('\n'), "{message}");
        assert!(message.starts_with(&format!("{}: ", path.display())));
    })
}

const RULES: &str = "[rules:dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]";

#[test]
fn bad_records_are_refused_with_their_line() {
    let cases: &[(&str, &str)] = &[
        (
            "[rules:dim:7 esc:e ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n1. d2-e2\n",
            "line 1: rules entry \"esc:e\": only escape to the corners is supported",
        ),
        (
            "[rules:dim:9 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n",
            "line 1: rules entry \"dim:9\": only the 7×7 board is supported",
        ),
        (
            "[date:2016.08.27]\n[attackers:Alice]\n\n1. d2-e2 c4-c5\n",
            "line 2: no [rules:...] tag before the moves",
        ),
        (
            &format!("{RULES}\n\n1. d2-e2 c4-c5\n2. e2-e9\n"),
            "line 4: move 3 \"e2-e9\": e9 is not on the board (a1 to g7)",
        ),
        (
            &format!("{RULES}\n\n1. d2-e2 c4-c5\n3. e2-e3\n"),
            "line 4: turn \"3.\" where turn 2. was expected",
        ),
        (
            &format!("{RULES}\n\n1. d2-e2\n2. c4-c5 e2-e3\n"),
            "line 3: turn 1 has 1 move; a turn holds two, the last one may hold one",
        ),
        (
            &format!("{RULES}\n\n1. Kd2-e2\n"),
            "line 3: move 1 \"Kd2-e2\": Kd2 written, but the piece on d2 is t",
        ),
        (
            &format!("{RULES}\n\n1. d7-f7 d5-c5 2. f4-f3\n"),
            "line 3: turn 1 has 4 moves; a turn holds two",
        ),
        (
            &format!("{RULES}\n\nd7-f7 d5-c5\n"),
            "line 3: \"d7-f7 d5-c5\" is not a turn (expected a form like \"3. d2-d5 c4-c3\")",
        ),
        (
            &fs::read_to_string(data("otg/commented.otg"))
                .unwrap()
                .replace("[result:1]", "[result:-1]"),
            "line 6: the result tag says -1 (the defenders win), but the moves end the game with \"attackers king-captured\"",
        ),
        (
            &format!("[result:2]\n{RULES}\n"),
            "line 1: result tag \"2\": expected 1 (attackers win), 0 (draw), -1 (defenders win) or ?",
        ),
        (
            "[date:2016.08.27\n",
            "line 1: \"[date:2016.08.27\" is not a tag (expected [name:value])",
        ),
        // A malformed first tag is still a record's tag, not bad JSON.
        (
            &format!("[date 2016.08.27]\n{RULES}\n\n1. d2-e2\n"),
            "line 1: \"[date 2016.08.27]\" is not a tag (expected [name:value])",
        ),
        (
            &format!("[rules]\n{RULES}\n"),
            "line 1: \"[rules]\" is not a tag (expected [name:value])",
        ),
        (
            &format!("{RULES}\n\n[a comment]\n1. d2-e2\n"),
            "line 3: a comment line that follows no turn",
        ),
        (
            "d2-e2 c4-c5\ne2-e3 c5-c9\n",
            "line 2: move 4 \"c5-c9\": c9 is not on the board (a1 to g7)",
        ),
        (
            "1. d2-e2 ---\n2. c4-c5\n",
            "line 2: move 2 \"c4-c5\": illegal move: the game is over",
        ),
    ];
    for (text, expected) in cases {
        let err = load_text(text).unwrap_err();
        assert!(
            matches!(err.kind(), LoadErrorKind::Record(_)),
            "{text}: {err}"
        );
        let message = err.to_string();
        assert!(
            message.contains(&format!(": {expected}")),
            "{text}\n{message}"
        );
    }
    let err =
        load_text("[rules:dim:7 ks:s start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n").unwrap_err();
    assert!(matches!(
        err.kind(),
        LoadErrorKind::Record(e) if matches!(e.kind, RecordErrorKind::Rules(RulesStringError::Unsupported { .. }))
    ));
}

#[test]
fn records_read_alike_with_any_line_ending() {
    let unix = fs::read_to_string(data("otg/commented.otg")).unwrap();
    assert!(!unix.contains('\r'));
    let expected = load_text(&unix).unwrap();
    for ending in ["\r\n", "\r"] {
        let text = unix.replace('\n', ending);
        let game = load_text(&text).unwrap_or_else(|e| panic!("{ending:?}: {e}"));
        assert_eq!(game.moves(), expected.moves(), "{ending:?}");
        assert_eq!(game.comments(), expected.comments(), "{ending:?}");
        assert_eq!(game.start_comment(), expected.start_comment(), "{ending:?}");
        assert_eq!(game.outcome(), expected.outcome(), "{ending:?}");
        // Lines are counted as they are shown.
        let err = load_text(&format!(
            "{RULES}{ending}{ending}1. d2-e2 c4-c5{ending}2. e2-e9{ending}"
        ))
        .unwrap_err();
        assert!(
            err.to_string().contains(": line 4: move 3 \"e2-e9\""),
            "{ending:?}: {err}"
        );
        let err = load_text(&format!("d2-e2 c4-c5{ending}e2-e3 c5-c9{ending}")).unwrap_err();
        assert!(
            err.to_string().contains(": line 2: move 4 \"c5-c9\""),
            "{ending:?}: {err}"
        );
    }
}

#[test]
fn a_result_the_moves_do_not_reach_is_kept_with_the_reason_its_termination_tells() {
    let untold = load_text(&format!("[result:1]\n{RULES}\n\n1. d2-e2 c4-c5\n")).unwrap();
    assert_eq!(
        untold.outcome(),
        Some(Outcome::win(Side::Attackers, Reason::Recorded))
    );
    assert_eq!(untold.moves().len(), 2);
    let unknown = load_text(&format!("[result:?]\n{RULES}\n\n1. d2-e2 c4-c5\n")).unwrap();
    assert_eq!(unknown.outcome(), None);
    let resigned = load_text(&format!(
        "[result:1]\n[termination:Resignation]\n{RULES}\n\n1. d2-e2 c4-c5\n"
    ))
    .unwrap();
    assert_eq!(
        resigned.outcome(),
        Some(Outcome::win(Side::Attackers, Reason::Resignation))
    );
    let on_time = load_text(&format!("[result:-1]\n[termination:time]\n{RULES}\n")).unwrap();
    assert_eq!(
        on_time.outcome(),
        Some(Outcome::win(Side::Defenders, Reason::Time))
    );
    let drawn = load_text(&format!("[result:0]\n[termination:agreement]\n{RULES}\n")).unwrap();
    assert_eq!(drawn.outcome(), Some(Outcome::draw(Reason::Agreement)));
    // A draw cannot be a resignation: the result is kept, as recorded.
    let odd = load_text(&format!("[result:0]\n[termination:resignation]\n{RULES}\n")).unwrap();
    assert_eq!(odd.outcome(), Some(Outcome::draw(Reason::Recorded)));
}

#[test]
fn every_command_that_takes_a_game_file_reads_every_kind() {
    let dir = tempfile::tempdir().unwrap();
    let otg = data("otg/commented.otg");
    let otg = otg.to_str().unwrap();
    let record = dir.path().join("game.txt");
    fs::write(&record, "1. d2-e2 d5-e5\n2. e2-e3 Kd4-d5\n3. ---\n").unwrap();
    let record = record.to_str().unwrap();
    assert!(success(&["replay", otg]).ends_with("g4-e4++\nresult: attackers king-captured\n"));
    assert_eq!(
        success(&["replay", record]),
        "d2-e2\nd5-e5\ne2-e3\nd4-d5\nresult: defenders resignation\n"
    );
    assert_eq!(
        success(&["replay", "--moves", "d2-e2 d5-e5 e2-e3 Kd4-d5 ---"]),
        "d2-e2\nd5-e5\ne2-e3\nd4-d5\nresult: defenders resignation\n"
    );
    let unfinished = dir.path().join("unfinished.txt");
    fs::write(&unfinished, "d2-e2 c4-c5 e2-e3").unwrap();
    let analysis = success(&["analyze", unfinished.to_str().unwrap(), "--depth", "1"]);
    assert!(analysis.contains("best: "), "{analysis}");
    let json = dir.path().join("out").join("game.json");
    let json_path = json.to_str().unwrap();
    assert_eq!(
        success(&["export", otg, "--format", "json", "--output", json_path]),
        ""
    );
    let exported = load(&json).unwrap();
    assert_eq!(exported.comments().iter().flatten().count(), 3);
    assert_eq!(
        success(&["export", json_path, "--format", "otg"]),
        success(&["export", otg, "--format", "otg"])
    );
    let bad = dir.path().join("bad.otg");
    fs::write(&bad, format!("{RULES}\n\n1. d2-e2 c4-c5\n2. e2-e9\n")).unwrap();
    let bad = bad.to_str().unwrap();
    let expected = format!("brandubh: {bad}: line 4: move 3 \"e2-e9\": e9 is not on the board");
    for args in [
        vec!["replay", bad],
        vec!["analyze", bad],
        vec!["export", bad, "--format", "otg"],
        vec!["play", "--load", bad],
    ] {
        assert!(failure(&args).starts_with(&expected), "{args:?}");
    }
    // A good record gets as far as the terminal, which a test does not have.
    assert!(failure(&["play", "--load", otg]).contains("needs a terminal"));
}

#[test]
fn a_record_under_rules_of_no_preset_plays_under_custom_rules_and_says_so() {
    let text = "[rules:dim:7 name:Brandub surf:n atkf:y ks:c cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n1. d2-c2 d3-e3\n";
    let game = load_text(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(game.preset(), None);
    let summary = game.summary();
    assert!(
        summary.contains("custom rules: opentafl with the king taken by four on the throne and the king never taken beside the throne"),
        "{summary}"
    );
    // Our save keeps every parameter, and reads back the same rules.
    let back = Game::from_json(&game.to_json()).unwrap();
    assert_eq!(back.rules(), game.rules());
    assert_eq!(essence(&round_trip(&game)), essence(&game));
}

#[test]
fn opentafls_2015_triathlon_record_keeps_its_result() {
    // OpenTafl's only Brandub record: `[result:-1]` with a termination in a human's words.
    let game = load(&data("otg/triathlon-2015.otg")).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Side::Defenders, Reason::Resignation))
    );
    // Its tags of other names are kept in its order, through our save and an export.
    let others = [
        ("round", "2"),
        ("compiler", "OpenTafl v0.1.7.1b"),
        ("termination", "Black resigns"),
    ];
    assert!(game.tags().others().eq(others), "{:?}", game.tags());
    let saved = Game::from_json(&game.to_json()).unwrap();
    assert_eq!(saved.tags(), game.tags());
    let otg = import::to_otg(&saved).unwrap();
    for tag in ["[round:2]", "[termination:Black resigns]", "[result:-1]"] {
        assert!(otg.contains(tag), "{tag}\n{otg}");
    }
    assert_eq!(otg.matches("[termination:").count(), 1, "{otg}");
    let again = round_trip(&saved);
    assert_eq!(again.tags(), game.tags());
    assert_eq!(again.outcome(), game.outcome());
}

#[test]
fn a_result_with_a_termination_in_opentafls_words_is_kept() {
    let cases = [
        ("1", "Attacker wins", None),
        ("-1", "Defender resigns", Some(Reason::Resignation)),
        ("1", "Defender times out", Some(Reason::Time)),
        ("-1", "Attacker resigns", Some(Reason::Resignation)),
        ("-1", "Attacker times out", Some(Reason::Time)),
        ("0", "Draw", Some(Reason::Agreement)),
        ("1", "Black resigns", Some(Reason::Resignation)),
    ];
    for (result, termination, reason) in cases {
        let text = format!("[result:{result}]\n[termination:{termination}]\n{RULES}\n\n1. d2-c2\n");
        let outcome = load_text(&text).unwrap().outcome();
        let winner = match result {
            "1" => Some(Side::Attackers),
            "-1" => Some(Side::Defenders),
            _ => None,
        };
        assert_eq!(outcome.map(|o| o.winner), Some(winner), "{termination}");
        if let Some(reason) = reason {
            assert_eq!(outcome.map(|o| o.reason), Some(reason), "{termination}");
        }
    }
}

#[test]
fn an_export_writes_the_date_a_record_gives_and_invents_none() {
    let wild = import::to_otg(&load(&data("otg/wild.otg")).unwrap()).unwrap();
    assert!(!wild.contains("[date:"), "{wild}");
    let dated = load(&data("otg/commented.otg")).unwrap();
    assert_eq!(dated.tags().get(Tag::Date), Some("2016.08.27"));
    assert!(
        import::to_otg(&dated)
            .unwrap()
            .contains("[date:2016.08.27]\n")
    );
}

#[test]
fn a_name_given_to_an_ai_side_is_exported() {
    let mut game = Game::new(
        Preset::Standard.rules(),
        Position::start(),
        Player::Human,
        "ai:easy".parse().unwrap(),
    );
    let mut tags = game.tags().clone();
    tags.set(Tag::Defenders, "Bob").unwrap();
    game.set_tags(tags);
    let otg = import::to_otg(&game).unwrap();
    assert!(otg.contains("[defenders:Bob]\n"), "{otg}");
}

#[test]
fn comment_paragraphs_and_bars_read_back_as_written() {
    let mut game = new_game(Preset::Standard);
    for mv in ["d2-c2", "c4-c3", "d1-d2"] {
        game.play_text(mv).unwrap();
    }
    let comments = [
        "Good. The guard steps aside.\n\nBetter. Or is it? a|b, and \\| too",
        "e.g. this reply | that one\n\nStrong.",
        "Wait.\n\nThe last move | alone in its turn.",
    ];
    for (i, comment) in comments.iter().enumerate() {
        game.set_comment(i, Some((*comment).to_owned()));
    }
    let back = round_trip(&game);
    assert_eq!(back.comments(), game.comments());
}
