//! The reproducible puzzle generator: engine self-play games from seeded random openings;
//! the last positions of each game are tried as puzzles by exact search, graded by the
//! engine, and kept when unique, not too easy, not a symmetric image of one kept before and
//! not the same answer again in the same game (a position a few plies further along the
//! same line, the same move to find).

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use rand::RngExt;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::IndexedRandom;

use super::record::{Difficulty, Goal, Puzzle, stored_position};
use super::solve::Solver;
use super::symmetry::canonical_key;
use crate::ai::{Ai, Limits, SearchAi};
use crate::game::Level;
use crate::rules::{GameState, Move, Preset};

/// The longest win a generated puzzle asks for, in moves of the side to play.
pub const LONGEST_WIN: u8 = 3;
/// The moves a generated hold puzzle defends against.
pub const HOLD_AGAINST: u8 = 2;
/// The last plies of each self-play game that are tried as puzzles.
const PLIES_TRIED: usize = 16;
/// The longest self-play game, in plies.
const MAX_PLIES: usize = 160;
/// Random opening plies before the engines take over: at least and at most.
const OPENING_PLIES: (usize, usize) = (2, 12);
/// The depth of the self-play engines, in plies.
const SELF_PLAY_DEPTH: u32 = 3;
/// The deepest search tried when measuring the depth the engine needs.
const DEEPEST_GRADING: u8 = 7;
/// The depth at which the engine's liking for wrong moves is measured.
const TEMPTING_DEPTH: u32 = 2;
/// How many of the engine's best lines are looked at for tempting wrong moves.
const TEMPTING_LINES: usize = 4;
/// The engine's table size while generating, in MB.
const TABLE_MB: usize = 8;

/// What to generate.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct GenerateConfig {
    /// The rules.
    pub preset: Preset,
    /// How many puzzles to keep.
    pub count: usize,
    /// The seed of the openings and of the engines' choices.
    pub seed: u64,
    /// The most self-play games to play before giving up on `count`.
    pub max_games: usize,
}

/// Candidates turned away, by reason.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default)]
pub struct Rejections {
    /// More than one first move solves it.
    pub not_unique: usize,
    /// A win in one, or a hold against a threat in one.
    pub too_easy: usize,
    /// A symmetric image of a puzzle already kept (or the same position again), or the same
    /// answer as a puzzle kept from the same game.
    pub duplicate: usize,
}

/// The generator's result and its counts.
#[derive(Clone, Eq, PartialEq, Debug, Default)]
pub struct Generated {
    /// The puzzles kept, in the order found.
    pub puzzles: Vec<Puzzle>,
    /// Self-play games played.
    pub games: usize,
    /// Positions with a forced win within [`LONGEST_WIN`] moves, or with at most a few
    /// moves that hold against a win within [`HOLD_AGAINST`].
    pub candidates: usize,
    /// Candidates turned away.
    pub rejected: Rejections,
}

/// A position that passed the exact search: its goal, length and solution.
struct Found {
    goal: Goal,
    moves: u8,
    solution: Move,
}

/// The moves that hold, at most this many, make a hold candidate.
const HOLD_CANDIDATE_MOVES: usize = 3;

/// Generates puzzles as `config` says; `progress` hears of each game done.
pub fn generate(config: GenerateConfig, progress: &mut dyn FnMut(&Generated)) -> Generated {
    let mut done = Generated::default();
    let mut seen = HashSet::new();
    let mut players = [
        SearchAi::new(Level::Medium, config.seed, TABLE_MB),
        SearchAi::new(Level::Medium, config.seed.wrapping_add(1), TABLE_MB),
    ];
    let mut grader = grader();
    while done.puzzles.len() < config.count && done.games < config.max_games {
        let game = self_play(config, done.games, &mut players);
        let first = game.history().len().saturating_sub(PLIES_TRIED);
        // At most one puzzle of a game line for each answer: the first (the longest) kept.
        let mut answers: HashSet<Move> = HashSet::new();
        for (ply, position) in game.history().iter().enumerate().skip(first) {
            let state = GameState::new(config.preset.rules(), *position);
            if state.is_over() || done.puzzles.len() >= config.count {
                continue;
            }
            let Some(found) = examine(&state, &mut done) else {
                continue;
            };
            if answers.contains(&found.solution) || !seen.insert(canonical_key(position)) {
                done.rejected.duplicate += 1;
                continue;
            }
            answers.insert(found.solution);
            let difficulty = grade(&state, found.solution, found.moves, &mut grader);
            let (record, side) = stored_position(position);
            done.puzzles.push(Puzzle {
                id: format!("{}-{:04}", config.preset, done.puzzles.len() + 1),
                preset: config.preset,
                position: record,
                side,
                goal: found.goal,
                moves: found.moves,
                solution: found.solution.to_string(),
                grade: difficulty.grade(),
                rating: difficulty.rating(),
                tempting: difficulty.tempting,
                engine_depth: difficulty.engine_depth,
                source: format!(
                    "self-play, seed {}, game {}, ply {ply}",
                    config.seed, done.games
                ),
            });
        }
        done.games += 1;
        progress(&done);
    }
    done
}

/// One self-play game: random opening plies, then the two engines to the end (or the cap).
fn self_play(config: GenerateConfig, index: usize, players: &mut [SearchAi; 2]) -> GameState {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed ^ (index as u64).rotate_left(32));
    let mut state = GameState::start(config.preset.rules());
    let opening = rng.random_range(OPENING_PLIES.0..=OPENING_PLIES.1);
    let stop = AtomicBool::new(false);
    while !state.is_over() && state.ply() < MAX_PLIES {
        let mv = if state.ply() < opening {
            state.legal_moves().choose(&mut rng).copied()
        } else {
            let player = &mut players[state.ply() % 2];
            player
                .choose(&state, &Limits::depth(SELF_PLAY_DEPTH), &stop, &mut |_| {})
                .ok()
        };
        let Some(mv) = mv else { break };
        state.play_unchecked(mv);
    }
    state
}

/// Tries `state` as a puzzle by exact search, counting it among the candidates and its
/// rejection if any; the goal, length and solution of a unique one.
fn examine(state: &GameState, done: &mut Generated) -> Option<Found> {
    let mut solver = Solver::new();
    if let Some(moves) = solver.shortest_win(state, LONGEST_WIN) {
        done.candidates += 1;
        if moves == 1 {
            done.rejected.too_easy += 1;
            return None;
        }
        if let [solution] = solver.winning_moves(state, moves)[..] {
            return Some(Found {
                goal: Goal::Win,
                moves,
                solution,
            });
        }
        done.rejected.not_unique += 1;
        return None;
    }
    let holding = solver.moves_that_hold(state, HOLD_AGAINST);
    if holding.is_empty() || holding.len() > HOLD_CANDIDATE_MOVES {
        return None;
    }
    done.candidates += 1;
    let [solution] = holding[..] else {
        done.rejected.not_unique += 1;
        return None;
    };
    if solver.moves_that_hold(state, HOLD_AGAINST - 1).len() == 1 {
        done.rejected.too_easy += 1;
        return None;
    }
    Some(Found {
        goal: Goal::Hold,
        moves: HOLD_AGAINST,
        solution,
    })
}

/// The engine that grades puzzles.
pub(super) fn grader() -> SearchAi {
    SearchAi::new(Level::Hard, 0, TABLE_MB)
}

/// Measures how hard the engine finds the puzzle at `state` whose `solution` reaches its
/// goal in `moves`: the depth at which it first plays the solution, and the wrong first
/// moves it ranks above the solution at a shallow depth.
pub(super) fn grade(
    state: &GameState,
    solution: Move,
    moves: u8,
    engine: &mut SearchAi,
) -> Difficulty {
    let stop = AtomicBool::new(false);
    let engine_depth = (1..=DEEPEST_GRADING)
        .find(|&depth| {
            engine
                .choose(state, &Limits::depth(u32::from(depth)), &stop, &mut |_| {})
                .is_ok_and(|mv| mv == solution)
        })
        .unwrap_or(DEEPEST_GRADING + 1);
    let lines = engine.lines(state, TEMPTING_LINES, &Limits::depth(TEMPTING_DEPTH), &stop);
    let tempting = lines
        .iter()
        .take_while(|line| line.pv.first() != Some(&solution))
        .count();
    Difficulty {
        moves,
        tempting: u8::try_from(tempting).unwrap_or(u8::MAX),
        engine_depth,
    }
}
