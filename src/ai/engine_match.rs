//! Engine-vs-engine matches: paired games with sides swapped, openings varied by random first
//! plies from the seed, a ply cap that adjudicates a draw, and the score with an Elo estimate.
//!
//! A match keeps counts, not games: each game is handed to the caller as it ends and dropped,
//! so a match of a million games takes no more memory than one of ten.

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::IndexedRandom;

use super::engine::{Ai, Failure, NoMove};
use super::external::{DEFAULT_MOVE_TIME, ExternalAi, ExternalOptions, otep_name};
use super::levels::{engine_for, limits_for};
use super::limits::Limits;
use super::worker::{JobId, Report, Worker};
use crate::game::{EngineKind, Game, Level, Player, level_names, or_list};
use crate::rules::{Move, Outcome, Position, Reason, Rules, Side, rules_string};

/// An engine of a match: a built-in one at a level, written `search:hard`, `ai:max` or
/// `random`, or an engine in another program that speaks the OpenTafl Engine Protocol,
/// written `otep:COMMAND ARGS` (the command line, split at spaces).
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum EngineSpec {
    /// One of this program's engines.
    BuiltIn {
        /// Which engine.
        kind: EngineKind,
        /// Its level.
        level: Level,
    },
    /// A program run as a subprocess, one per game.
    Otep {
        /// Its command line.
        command: String,
    },
}

impl EngineSpec {
    /// The budget per move: the level's, with the time bound replaced by `time` if given.
    /// The random engine needs none; another program gets `time` or [`DEFAULT_MOVE_TIME`].
    pub fn limits(&self, time: Option<Duration>) -> Limits {
        match (self, time) {
            (
                EngineSpec::BuiltIn {
                    kind: EngineKind::Random,
                    ..
                },
                _,
            ) => Limits::INFINITE,
            (EngineSpec::BuiltIn { level, .. }, None) => limits_for(*level),
            (EngineSpec::BuiltIn { level, .. }, Some(t)) => limits_for(*level).with_time(t),
            (EngineSpec::Otep { .. }, t) => Limits::time(t.unwrap_or(DEFAULT_MOVE_TIME)),
        }
    }

    /// The player this engine is in a game record.
    pub const fn player(&self) -> Player {
        match self {
            EngineSpec::BuiltIn { kind, level } => Player::Ai {
                engine: *kind,
                level: *level,
                time: None,
            },
            EngineSpec::Otep { .. } => Player::Program,
        }
    }

    /// A new engine for one game, seeded with `seed` (another program has its own
    /// randomness, if any, and is given its time as `external` says).
    pub fn engine(&self, seed: u64, external: &ExternalOptions) -> Box<dyn Ai> {
        match self {
            EngineSpec::BuiltIn { kind, level } => engine_for(*kind, *level, seed),
            EngineSpec::Otep { command } => Box::new(ExternalAi::new(command, external.clone())),
        }
    }
}

/// The engine as written on the command line (`search:hard`, `otep:./engine --flag`), with
/// control characters in a command escaped: it is safe to print.
impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineSpec::BuiltIn { kind, level } if kind.has_levels() => {
                write!(f, "{kind}:{level}")
            }
            EngineSpec::BuiltIn { kind, .. } => f.write_str(kind.name()),
            EngineSpec::Otep { command } => f.write_str(&otep_name(command)),
        }
    }
}

/// The ways to write a match's engine, from the engine registry ([`EngineKind::ALL`]):
/// `search:LEVEL with LEVEL easy|medium|hard|max, random, or otep:COMMAND`.
pub fn engine_usage() -> String {
    let mut forms: Vec<String> = EngineKind::ALL
        .into_iter()
        .map(|kind| {
            if kind.has_levels() {
                format!("{} with LEVEL {}", kind.usage(), level_names())
            } else {
                kind.usage()
            }
        })
        .collect();
    forms.push("otep:COMMAND".to_owned());
    or_list(&forms)
}

/// Why a text does not name an engine.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct ParseEngineError(String);

impl fmt::Display for ParseEngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "\"{}\" is not an engine (expected {})",
            crate::quote::excerpt(&self.0),
            engine_usage()
        )
    }
}

impl std::error::Error for ParseEngineError {}

impl FromStr for EngineSpec {
    type Err = ParseEngineError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(command) = s.strip_prefix("otep:") {
            let command = command.split_whitespace().collect::<Vec<_>>().join(" ");
            if command.is_empty() {
                return Err(ParseEngineError(s.to_owned()));
            }
            return Ok(EngineSpec::Otep { command });
        }
        match s.parse::<Player>() {
            // A move time belongs to the terminal game; a match has `--time`.
            Ok(Player::Ai {
                engine,
                level,
                time: None,
            }) => Ok(EngineSpec::BuiltIn {
                kind: engine,
                level,
            }),
            _ => Err(ParseEngineError(s.to_owned())),
        }
    }
}

/// What a match plays.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The rules of every game.
    pub rules: Rules,
    /// The position every game starts from.
    pub start: Position,
    /// The first engine: attackers in the even-numbered games (0, 2, ...).
    pub first: EngineSpec,
    /// The second engine: defenders in the even-numbered games.
    pub second: EngineSpec,
    /// Number of games.
    pub games: u32,
    /// The seed for openings and engines.
    pub seed: u64,
    /// Games played at once.
    pub jobs: usize,
    /// Time per move for the search engine (its level's budget if `None`) and for engines in
    /// other programs ([`DEFAULT_MOVE_TIME`] if `None`).
    pub time: Option<Duration>,
    /// A game still running after this many plies is adjudicated a draw.
    pub max_plies: usize,
    /// Random plies played before the engines take over; each pair of games shares them.
    pub opening_plies: usize,
    /// How engines in other programs are given their time (the default: 5 s to say `hello`,
    /// on the system's clock).
    pub external: ExternalOptions,
}

impl MatchConfig {
    /// Checks that both engines can play the match: an engine in another program is told the
    /// rules as an OpenTafl rules string, which some rules (`nielsen`) have none of.
    pub fn check(&self) -> Result<(), UnplayableRules> {
        let told = rules_string(&self.rules, &self.start).is_some();
        match [&self.first, &self.second]
            .into_iter()
            .find(|engine| matches!(engine, EngineSpec::Otep { .. }) && !told)
        {
            Some(engine) => Err(UnplayableRules(engine.clone())),
            None => Ok(()),
        }
    }
}

/// An engine in another program cannot be told the rules of the match: they have no OpenTafl
/// rules string.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct UnplayableRules(EngineSpec);

impl fmt::Display for UnplayableRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} cannot play these rules: they have no OpenTafl rules string to send it",
            self.0
        )
    }
}

impl std::error::Error for UnplayableRules {}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// The game's number, from 0.
    pub index: u32,
    /// The side the first engine played.
    pub first_side: Side,
    /// Who played the attackers.
    pub attackers: EngineSpec,
    /// Who played the defenders.
    pub defenders: EngineSpec,
    /// How many of the moves were the random opening.
    pub opening_plies: usize,
    /// How it ended (a draw by adjudication at the ply cap).
    pub outcome: Outcome,
    /// Why the losing engine gave no move, when it failed (a crash, an illegal move, too
    /// long a think): the game is its loss, on time or by resignation.
    pub forfeit: Option<Failure>,
    /// The game record, ready to save.
    pub game: Game,
}

impl GameResult {
    /// The first engine's score: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn first_score(&self) -> f64 {
        match self.outcome.winner {
            Some(side) if side == self.first_side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

/// Wins, draws and losses.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default)]
pub struct SideRecord {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl SideRecord {
    /// Number of games.
    pub const fn games(self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score as a fraction of the games (½ per draw); `None` without games.
    pub fn score(self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n))
    }

    fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
}

impl std::ops::Add for SideRecord {
    type Output = SideRecord;
    fn add(self, other: SideRecord) -> SideRecord {
        SideRecord {
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
        }
    }
}

/// The first engine's results, by the side it played.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default)]
pub struct MatchSummary {
    /// Games where the first engine played the attackers.
    pub as_attackers: SideRecord,
    /// Games where the first engine played the defenders.
    pub as_defenders: SideRecord,
}

impl MatchSummary {
    /// Counts `game`.
    pub fn add(&mut self, game: &GameResult) {
        let record = match game.first_side {
            Side::Attackers => &mut self.as_attackers,
            Side::Defenders => &mut self.as_defenders,
        };
        record.add(game.first_score());
    }

    /// Both sides together.
    pub fn total(&self) -> SideRecord {
        self.as_attackers + self.as_defenders
    }
}

/// The Elo difference a record implies, with the half-width of its 95% confidence interval:
/// `(difference, margin)`. The difference is infinite for a clean sweep either way, and the
/// margin `None` when the interval reaches a clean sweep. `None` without games.
pub fn elo_difference(record: SideRecord) -> Option<(f64, Option<f64>)> {
    let n = f64::from(record.games());
    let p = record.score()?;
    let elo = |p: f64| -400.0 * (1.0 / p - 1.0).log10();
    let difference = if p >= 1.0 {
        f64::INFINITY
    } else if p <= 0.0 {
        f64::NEG_INFINITY
    } else {
        elo(p)
    };
    let mean_square = (f64::from(record.wins) + 0.25 * f64::from(record.draws)) / n;
    let deviation = ((mean_square - p * p).max(0.0) / n).sqrt();
    let (low, high) = (p - 1.96 * deviation, p + 1.96 * deviation);
    let margin = (low > 0.0 && high < 1.0).then(|| (elo(high) - elo(low)) / 2.0);
    Some((difference, margin))
}

/// `SplitMix64`: spreads a seed and a counter into an independent seed.
const fn mix(seed: u64, n: u64) -> u64 {
    let mut z = seed ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// How often a game waiting for an engine's move looks at the match's stop flag.
const STOP_POLL: Duration = Duration::from_millis(20);

/// A game left unfinished because the match was stopped.
struct Interrupted;

/// Plays game number `index` of the match; `None` if `stop` was set before its end.
fn play_game(config: &MatchConfig, index: u32, stop: &AtomicBool) -> Option<GameResult> {
    let first_side = if index.is_multiple_of(2) {
        Side::Attackers
    } else {
        Side::Defenders
    };
    let (attackers, defenders) = match first_side {
        Side::Attackers => (&config.first, &config.second),
        Side::Defenders => (&config.second, &config.first),
    };
    let mut game = Game::new(
        config.rules,
        config.start,
        attackers.player(),
        defenders.player(),
    );
    if [attackers, defenders]
        .iter()
        .any(|spec| matches!(spec, EngineSpec::Otep { .. }))
    {
        // The record's players say only "program": the comment names them.
        game.set_start_comment(Some(format!(
            "attackers: {attackers}; defenders: {defenders}"
        )));
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix(config.seed, u64::from(index / 2)));
    let mut opening_plies = 0;
    while opening_plies < config.opening_plies {
        let Some(&mv) = game.state().legal_moves().choose(&mut rng) else {
            break;
        };
        if game.play(mv).is_err() {
            break;
        }
        opening_plies += 1;
    }
    let game_seed = mix(config.seed ^ 0x5eed, u64::from(index));
    let (reports, received) = mpsc::channel();
    let seat = |spec: &EngineSpec, seed: u64| {
        let engine = spec.engine(seed, &config.external);
        let name = engine.name();
        // A thread that cannot be started leaves the game unplayed, as a stop does.
        Worker::with_engine(engine, reports.clone())
            .ok()
            .map(|worker| Seat {
                worker,
                name,
                limits: spec.limits(config.time),
            })
    };
    let mut seats = [
        seat(attackers, game_seed)?,
        seat(defenders, game_seed.rotate_left(17))?,
    ];
    let forfeit = play_out(&mut game, &mut seats, &received, config.max_plies, stop).ok()?;
    let outcome = game
        .state()
        .outcome()
        .unwrap_or(Outcome::draw(Reason::Adjudicated));
    for seat in &mut seats {
        seat.worker.game_over(outcome);
    }
    Some(GameResult {
        index,
        first_side,
        attackers: attackers.clone(),
        defenders: defenders.clone(),
        opening_plies,
        outcome,
        forfeit,
        game,
    })
}

/// One side of a game: its engine on its own worker, the engine's name and its budget.
struct Seat {
    worker: Worker,
    name: String,
    limits: Limits,
}

/// Plays `game` to its end with `seats` (attackers', defenders'), whose workers report on
/// `reports`; a draw by adjudication after `max_plies`. An engine that gives no move in an
/// unfinished game, or an illegal one, loses: on time if it failed by thinking too long, else
/// by resignation; the failure is returned and written as the game's last comment. Once
/// `stop` is set, the engine thinking is stopped and the game left unfinished.
fn play_out(
    game: &mut Game,
    seats: &mut [Seat; 2],
    reports: &Receiver<Report>,
    max_plies: usize,
    stop: &AtomicBool,
) -> Result<Option<Failure>, Interrupted> {
    while !game.state().is_over() {
        if stop.load(Ordering::Relaxed) {
            return Err(Interrupted);
        }
        if game.state().ply() >= max_plies {
            // The game is not over, so this cannot fail.
            let _ = game.adjudicate_draw();
            return Ok(None);
        }
        let side = game.state().position().side_to_move();
        let seat = &mut seats[usize::from(side == Side::Defenders)];
        let id = game.state().ply() as JobId;
        seat.worker.play(id, game.state(), seat.limits);
        let failure = match answer(&mut seat.worker, id, reports, stop) {
            Ok(mv) => match game.play(mv) {
                Ok(_) => continue,
                Err(_) => Failure::IllegalMove(mv.to_string()),
            },
            // An engine stopped before its move has not failed.
            Err(NoMove::Stopped) => return Err(Interrupted),
            Err(NoMove::Failed(failure)) => failure,
            Err(NoMove::GameOver) => Failure::Protocol("no move in an unfinished game".to_owned()),
        };
        // The game is not over, so neither can fail.
        let _ = if failure.is_time() {
            game.lose_on_time(side)
        } else {
            game.resign(side)
        };
        let why = format!("{} {side} lose: {failure}", seat.name);
        match game.moves().len() {
            0 => {
                let start = game.start_comment().map(|c| format!("{c}; "));
                game.set_start_comment(Some(format!("{}{why}", start.unwrap_or_default())));
            }
            n => {
                game.set_comment(n - 1, Some(why));
            }
        }
        return Ok(Some(failure));
    }
    Ok(None)
}

/// The answer of `worker` to search `id`, read from `reports`; once `stop` is set (it is
/// looked at every [`STOP_POLL`]), the search is stopped and answers at once.
fn answer(
    worker: &mut Worker,
    id: JobId,
    reports: &Receiver<Report>,
    stop: &AtomicBool,
) -> Result<Move, NoMove> {
    loop {
        match reports.recv_timeout(STOP_POLL) {
            Ok(Report::Done(done, result)) if done == id => return result,
            Ok(Report::Gone) | Err(RecvTimeoutError::Disconnected) => {
                let why = "its thread ended".to_owned();
                return Err(NoMove::Failed(Failure::Crashed(why)));
            }
            Ok(_) => {}
            Err(RecvTimeoutError::Timeout) => {
                if stop.load(Ordering::Relaxed) {
                    worker.stop(id);
                }
            }
        }
    }
}

/// Plays the match on `config.jobs` threads, handing each game to `on_game` (on the calling
/// thread) as it ends, in the order the games end; returns the summary of the games handed
/// over. Nothing of a game is kept after `on_game`, and a thread with a finished game waits
/// until it is taken. The match ends early, its unfinished games dropped, once `stop` is set
/// (by a signal, say) or `on_game` breaks (then `stop` is set too).
pub fn play_match(
    config: &MatchConfig,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(GameResult) -> ControlFlow<()>,
) -> Result<MatchSummary, UnplayableRules> {
    config.check()?;
    let next = AtomicU32::new(0);
    let workers = config.jobs.clamp(1, config.games.max(1) as usize);
    let (sender, receiver) = mpsc::sync_channel(0);
    let mut summary = MatchSummary::default();
    thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= config.games {
                        break;
                    }
                    let Some(result) = play_game(config, index, stop) else {
                        break;
                    };
                    if sender.send(result).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Leaving the loop drops the receiver: a thread waiting to hand over a game stops.
        for result in receiver {
            summary.add(&result);
            if on_game(result).is_break() {
                stop.store(true, Ordering::Relaxed);
                break;
            }
        }
    });
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_parse() {
        let spec: EngineSpec = "search:hard".parse().unwrap();
        assert_eq!(spec.to_string(), "search:hard");
        assert_eq!(
            spec,
            EngineSpec::BuiltIn {
                kind: EngineKind::Search,
                level: Level::Hard
            }
        );
        let other: EngineSpec = "otep:./engine  --level easy".parse().unwrap();
        assert_eq!(other.to_string(), "otep:./engine --level easy");
        assert_eq!(other.player(), Player::Program);
        assert!("otep:".parse::<EngineSpec>().is_err());
        assert!("otep:  ".parse::<EngineSpec>().is_err());
        assert_eq!(
            "random".parse::<EngineSpec>().unwrap().to_string(),
            "random"
        );
        assert!("human".parse::<EngineSpec>().is_err());
        assert!("search:godlike".parse::<EngineSpec>().is_err());
    }

    #[test]
    fn elo_follows_the_score() {
        let even = SideRecord {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        let (d, margin) = elo_difference(even).unwrap();
        assert!(d.abs() < 1e-9);
        let margin = margin.unwrap();
        assert!(margin > 100.0 && margin < 300.0, "{margin}");
        let better = SideRecord {
            wins: 75,
            draws: 0,
            losses: 25,
        };
        let (d, _) = elo_difference(better).unwrap();
        assert!((d - 190.8).abs() < 0.1, "{d}");
        let sweep = SideRecord {
            wins: 5,
            draws: 0,
            losses: 0,
        };
        assert_eq!(elo_difference(sweep), Some((f64::INFINITY, None)));
        assert_eq!(elo_difference(SideRecord::default()), None);
    }
}
