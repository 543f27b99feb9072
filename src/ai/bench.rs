//! The search's signature, a "bench" number as Stockfish keeps one: a fixed set of positions
//! under several presets, searched to fixed depths in a fixed order by one engine, fresh at
//! the start. The total of the nodes visited changes with any change to what the search visits
//! (its pruning, ordering, evaluation, table, what it keeps from one search to the next) and
//! with nothing else: not the machine, not the time. A change meant to be a pure speed-up or a
//! clean-up keeps it; any other change to the search moves it.
//!
//! `cargo run --release --example bench` prints it with each case's figures; the test
//! `tests/it/ai_bench.rs` pins it.

use std::sync::atomic::AtomicBool;

use super::engine::Ai;
use super::limits::Limits;
use super::search::{DEFAULT_TT_MB, SearchAi};
use crate::game::{Level, Score};
use crate::rules::{GameState, Move, MoveError, Preset};

/// One search of the signature: the position the moves lead to from the start, under a preset,
/// searched to a depth.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct BenchCase {
    /// What the position is, in a few words.
    pub name: &'static str,
    /// The rules it is searched under.
    pub preset: Preset,
    /// The moves from the start position that lead to it, separated by spaces: they are its
    /// repetition history too.
    pub moves: &'static str,
    /// The depth it is searched to, in plies.
    pub depth: u32,
}

/// Two games of `search:hard` against itself under `standard` (the `match` command, seed 5).
const GAME_1: &str = "d6-b6 d3-f3 d2-f2xf3 d5-d6 f4-f3 c4-c7 b6-c6 d4-d5 f3-f6 e4-e7xd7 \
                      f6-e6xd6 d5-f5";
/// The first game further on, to an ending, then twice there and back: the position there
/// has occurred twice, and its third occurrence decides the game by the preset's rule.
const GAME_1_REPEATED: &str = "d6-b6 d3-f3 d2-f2xf3 d5-d6 f4-f3 c4-c7 b6-c6 d4-d5 f3-f6 \
                               e4-e7xd7 f6-e6xd6 d5-f5 e6-f6 f5-c5xc6 f2-c2 c5-d5 c2-c5 e7-e6 \
                               d1-e1 e6-e5 e1-d1 e5-e6";
const GAME_2: &str = "d2-g2 d3-g3xg2 d1-d3 e4-e2 d6-e6 e2-d2xd3 e6-e2 d5-g5xg4 b4-b3 g5-f5";

/// The cases of the signature, in the order searched: the start, positions from games and an
/// ending with a repeated position, under every preset (`walker` and `fellhuhn` play alike at
/// the start). Cases under one preset follow each other, so that the engine's table and
/// history carry over between them as in a game; a change of preset makes it forget both.
pub const BENCH_CASES: [BenchCase; 12] = [
    case("start", Preset::Standard, "", 6),
    case("game 1, 12 plies", Preset::Standard, GAME_1, 6),
    case(
        "game 1, an ending repeated",
        Preset::Standard,
        GAME_1_REPEATED,
        8,
    ),
    case("start", Preset::Nielsen, "", 5),
    case("game 1, 12 plies", Preset::Nielsen, GAME_1, 6),
    case(
        "game 1, an ending repeated",
        Preset::Walker,
        GAME_1_REPEATED,
        8,
    ),
    case("start", Preset::Fellhuhn, "", 5),
    case("game 2, 10 plies", Preset::Fellhuhn, GAME_2, 6),
    case(
        "game 1, an ending repeated",
        Preset::Fellhuhn,
        GAME_1_REPEATED,
        8,
    ),
    case("start", Preset::OpenTafl, "", 5),
    case("game 2, 10 plies", Preset::OpenTafl, GAME_2, 6),
    case(
        "game 1, an ending repeated",
        Preset::OpenTafl,
        GAME_1_REPEATED,
        8,
    ),
];

const fn case(name: &'static str, preset: Preset, moves: &'static str, depth: u32) -> BenchCase {
    BenchCase {
        name,
        preset,
        moves,
        depth,
    }
}

/// What the search of a case found.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct BenchResult {
    /// The case searched.
    pub case: BenchCase,
    /// The nodes visited.
    pub nodes: u64,
    /// The move chosen.
    pub best: Option<Move>,
    /// Its score, for the side to move.
    pub score: Option<Score>,
}

impl BenchCase {
    /// The game the case's moves lead to, under its preset.
    fn state(&self) -> Result<GameState, MoveError> {
        let mut state = GameState::start(self.preset.rules());
        for text in self.moves.split_whitespace() {
            state.play_text(text)?;
        }
        Ok(state)
    }

    /// The case searched by `engine` to its depth.
    fn run(&self, engine: &mut SearchAi) -> Result<BenchResult, MoveError> {
        let state = self.state()?;
        let stop = AtomicBool::new(false);
        let mut last = None;
        let best = engine.choose(&state, &Limits::depth(self.depth), &stop, &mut |info| {
            last = Some((info.nodes, info.score));
        });
        Ok(BenchResult {
            case: *self,
            nodes: last.map_or(0, |(nodes, _)| nodes),
            best: best.ok(),
            score: last.map(|(_, score)| score),
        })
    }
}

/// Every case of [`BENCH_CASES`] searched in order by one engine, fresh at the start (`max`,
/// the default table size).
pub fn bench() -> Result<Vec<BenchResult>, MoveError> {
    let mut engine = SearchAi::new(Level::Max, 0, DEFAULT_TT_MB);
    BENCH_CASES
        .iter()
        .map(|case| case.run(&mut engine))
        .collect()
}

/// The signature: the nodes of every result, added up.
pub fn signature(results: &[BenchResult]) -> u64 {
    results.iter().map(|r| r.nodes).sum()
}
