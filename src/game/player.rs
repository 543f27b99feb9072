//! Who plays a side: a person at the keyboard, or an AI engine at a level.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::duration::{ParseDurationError, parse_duration};

/// How strong (and how quick) an AI opponent plays. Each level's budget is defined by the AI layer.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// For beginners: shallow and a little random.
    Easy,
    /// For casual players.
    #[default]
    Medium,
    /// For strong players.
    Hard,
    /// Everything the engine has, using the full time given.
    Max,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Max];

    /// The level's name on the command line and in save files.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Max => "max",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = ParseLevelError;

    /// The level named `text` ([`Level::name`]), in capitals or not: `hard`, `HARD`.
    fn from_str(text: &str) -> Result<Level, ParseLevelError> {
        Level::ALL
            .into_iter()
            .find(|level| level.name().eq_ignore_ascii_case(text))
            .ok_or(ParseLevelError)
    }
}

/// A text that names no [`Level`].
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct ParseLevelError;

impl fmt::Display for ParseLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a level (expected {})", level_names())
    }
}

impl std::error::Error for ParseLevelError {}

/// The kind of AI engine.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// The main engine: alpha-beta search.
    #[default]
    Search,
    /// Uniformly random legal moves (seeded).
    Random,
}

/// The engine registry: every engine this program has, the default (`ai`) first. The
/// command line's help and errors (`--attackers`, `--defenders`, `match`), the new-game
/// screen's choices and `match`'s parsing all list from it, so a new engine is added here
/// (with its name and whether it has levels) and in `ai::engine_for`, which builds it.
impl EngineKind {
    /// Every engine, the default first.
    pub const ALL: [EngineKind; 2] = [EngineKind::Search, EngineKind::Random];

    /// The engine's name on the command line and in save files.
    pub const fn name(self) -> &'static str {
        match self {
            EngineKind::Search => "search",
            EngineKind::Random => "random",
        }
    }

    /// Whether the engine plays at a level (written `NAME:LEVEL`); one without plays the
    /// same at every level, and is written by its name alone.
    pub const fn has_levels(self) -> bool {
        match self {
            EngineKind::Search => true,
            EngineKind::Random => false,
        }
    }

    /// The engine named `name`, if there is one.
    pub fn named(name: &str) -> Option<EngineKind> {
        EngineKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// How a `match` names the engine: `search:LEVEL`, `random`.
    pub fn usage(self) -> String {
        if self.has_levels() {
            format!("{}:LEVEL", self.name())
        } else {
            self.name().to_owned()
        }
    }

    /// The players of this engine offered to choose from (the new-game screen): one per
    /// level, `max` with each move time it takes; one alone for an engine without levels.
    pub fn players(self) -> Vec<Player> {
        if !self.has_levels() {
            return vec![Player::Ai {
                engine: self,
                level: Level::default(),
                time: None,
            }];
        }
        let mut players = Vec::new();
        for level in Level::ALL {
            players.push(Player::Ai {
                engine: self,
                level,
                time: None,
            });
            // `max` at its default move time is the player just offered.
            let times = MoveTime::ALL
                .into_iter()
                .filter(|t| *t != MoveTime::default());
            players.extend(times.filter_map(|time| Player::ai(self, level, Some(time)).ok()));
        }
        players
    }
}

/// Every level's name, as usage texts give them: `easy|medium|hard|max`.
pub fn level_names() -> String {
    Level::ALL.map(Level::name).join("|")
}

/// The ways to write a player, from the engine registry: `human, ai, ai:LEVEL with LEVEL
/// easy|medium|hard|max, ai:max:TIME with TIME 1s|3s|10s, or random`.
pub fn player_usage() -> String {
    let times = MoveTime::ALL.map(MoveTime::name).join("|");
    let mut forms = vec![
        "human".to_owned(),
        "ai".to_owned(),
        format!("ai:LEVEL with LEVEL {}", level_names()),
        format!("ai:max:TIME with TIME {times}"),
    ];
    forms.extend(
        EngineKind::ALL
            .into_iter()
            .filter(|kind| *kind != EngineKind::default())
            .map(EngineKind::usage),
    );
    or_list(&forms)
}

/// `a, b, or c`: the items of a list of choices.
pub fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{}, or {last}", init.join(", ")),
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The time per move of the `max` level, one of three: `ai:max:3s` on the command line,
/// `"time": "3s"` in a save. Without one, `max` takes the default, 1 s. A running
/// game clock may shorten it, never lengthen it.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default, Serialize, Deserialize, JsonSchema)]
pub enum MoveTime {
    /// One second, the default.
    #[default]
    #[serde(rename = "1s")]
    OneSecond,
    /// Three seconds.
    #[serde(rename = "3s")]
    ThreeSeconds,
    /// Ten seconds.
    #[serde(rename = "10s")]
    TenSeconds,
}

impl MoveTime {
    /// Every move time, shortest first.
    pub const ALL: [MoveTime; 3] = [
        MoveTime::OneSecond,
        MoveTime::ThreeSeconds,
        MoveTime::TenSeconds,
    ];

    /// How long a move may take.
    pub const fn duration(self) -> Duration {
        Duration::from_secs(match self {
            MoveTime::OneSecond => 1,
            MoveTime::ThreeSeconds => 3,
            MoveTime::TenSeconds => 10,
        })
    }

    /// The move time that lasts `duration`, if there is one: `ai:max:3000ms` is `3s`.
    pub fn of_duration(duration: Duration) -> Option<MoveTime> {
        MoveTime::ALL.into_iter().find(|t| t.duration() == duration)
    }

    /// The move time's name on the command line and in save files: `1s`, `3s`, `10s`.
    pub const fn name(self) -> &'static str {
        match self {
            MoveTime::OneSecond => "1s",
            MoveTime::ThreeSeconds => "3s",
            MoveTime::TenSeconds => "10s",
        }
    }
}

impl fmt::Display for MoveTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Who plays one side of a game: `{"type": "human"}`, `{"type": "ai", "engine": ...,
/// "level": ...}` (with `"time": ...` for a `max` search given one) or `{"type": "program"}`
/// in a save, with no other field for any kind.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "PlayerFields", into = "PlayerFields")]
pub enum Player {
    /// A person at the keyboard.
    #[default]
    Human,
    /// An AI engine at a level.
    Ai {
        /// Which engine.
        engine: EngineKind,
        /// How strong.
        level: Level,
        /// The time per move of a `max` search; `None` for every other engine and level, and
        /// for `max` at its default.
        time: Option<MoveTime>,
    },
    /// Another program, such as an engine a `match` ran through the OpenTafl Engine Protocol
    /// (the game's start comment names it). A person takes its side if the game is played on.
    Program,
}

// A player as written in a save. A unit variant of an internally tagged enum would accept
// any other field (serde ignores them), so the human is an empty struct variant here, whose
// unknown fields are refused like the AI's.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
enum PlayerFields {
    /// A person at the keyboard.
    Human {},
    /// An AI engine at a level.
    Ai {
        /// Which engine.
        engine: EngineKind,
        /// How strong.
        level: Level,
        /// The time per move, for the search engine at level `max` only; omitted for its
        /// default (1 s).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time: Option<MoveTime>,
    },
    /// Another program.
    Program {},
}

/// A move time given to an AI that is not the search engine at level `max`.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct TimeNotForLevel;

impl fmt::Display for TimeNotForLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a move time is only for the search engine at level max (ai:max:3s)")
    }
}

impl std::error::Error for TimeNotForLevel {}

impl TryFrom<PlayerFields> for Player {
    type Error = TimeNotForLevel;

    fn try_from(fields: PlayerFields) -> Result<Self, Self::Error> {
        Ok(match fields {
            PlayerFields::Human {} => Player::Human,
            PlayerFields::Ai {
                engine,
                level,
                time,
            } => Player::ai(engine, level, time)?,
            PlayerFields::Program {} => Player::Program,
        })
    }
}

impl From<Player> for PlayerFields {
    fn from(player: Player) -> Self {
        match player {
            Player::Human => PlayerFields::Human {},
            Player::Ai {
                engine,
                level,
                time,
            } => PlayerFields::Ai {
                engine,
                level,
                time,
            },
            Player::Program => PlayerFields::Program {},
        }
    }
}

impl Player {
    /// An AI of `engine` at `level`, with the move time `time`, which only the search engine
    /// at level `max` takes.
    pub const fn ai(
        engine: EngineKind,
        level: Level,
        time: Option<MoveTime>,
    ) -> Result<Player, TimeNotForLevel> {
        if time.is_some() && !matches!((engine, level), (EngineKind::Search, Level::Max)) {
            return Err(TimeNotForLevel);
        }
        Ok(Player::Ai {
            engine,
            level,
            time,
        })
    }
}

impl Player {
    /// The players offered to choose from (the new-game screen), in order: a person, then
    /// each engine of the registry ([`EngineKind::ALL`]) as [`EngineKind::players`] offers it.
    pub fn offered() -> Vec<Player> {
        let mut players = vec![Player::Human];
        players.extend(EngineKind::ALL.into_iter().flat_map(EngineKind::players));
        players
    }
}

impl fmt::Display for Player {
    /// `human`, `ai:hard` (the default engine), `ai:max:3s`, `random` (an engine without
    /// levels), or `program`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Human => f.write_str("human"),
            Player::Program => f.write_str("program"),
            Player::Ai { engine, .. } if !engine.has_levels() => f.write_str(engine.name()),
            Player::Ai {
                engine,
                level,
                time,
            } => {
                let name = if *engine == EngineKind::default() {
                    "ai"
                } else {
                    engine.name()
                };
                write!(f, "{name}:{level}")?;
                match time {
                    Some(time) => write!(f, ":{time}"),
                    None => Ok(()),
                }
            }
        }
    }
}

/// Why a text does not name a player.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct ParsePlayerError {
    text: String,
    why: PlayerFault,
}

/// What is wrong in a text that does not name a player.
#[derive(Clone, Eq, PartialEq, Debug)]
enum PlayerFault {
    /// It names no player at all.
    Unknown,
    /// A move time after a level other than `max`, or after another engine.
    TimeNotForLevel,
    /// The move time of `max` is not a duration.
    NotADuration(ParseDurationError),
    /// A move time other than those offered.
    BadTime,
}

/// The move times `max` takes, as messages say them.
const MOVE_TIMES: &str = "the move time of ai:max is 1s, 3s or 10s";

impl fmt::Display for ParsePlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = crate::quote::excerpt(&self.text);
        match &self.why {
            PlayerFault::Unknown => write!(
                f,
                "\"{text}\" is not a player (expected {})",
                player_usage()
            ),
            PlayerFault::TimeNotForLevel => {
                write!(f, "\"{text}\" is not a player: {TimeNotForLevel}")
            }
            PlayerFault::NotADuration(e) => {
                write!(f, "\"{text}\" is not a player: {}; {MOVE_TIMES}", e.short())
            }
            PlayerFault::BadTime => write!(f, "\"{text}\" is not a player: {MOVE_TIMES}"),
        }
    }
}

impl std::error::Error for ParsePlayerError {}

impl FromStr for Player {
    type Err = ParsePlayerError;

    /// Parses `human`, `ai` (medium), `ai:LEVEL`, `search:LEVEL`, `ai:max:TIME` (a
    /// duration as [`parse_duration`] reads it, of 1 s, 3 s or 10 s), or `random`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |why| ParsePlayerError {
            text: s.to_owned(),
            why,
        };
        let mut parts = s.split(':');
        let kind = parts.next().unwrap_or_default();
        let level = parts.next();
        let time = parts.next();
        if parts.next().is_some() {
            return Err(err(PlayerFault::Unknown));
        }
        let level = match level {
            None => Level::default(),
            Some(text) => text.parse().map_err(|_| err(PlayerFault::Unknown))?,
        };
        let engine = match kind {
            "human" if s == "human" => return Ok(Player::Human),
            "ai" => EngineKind::default(),
            name => EngineKind::named(name).ok_or_else(|| err(PlayerFault::Unknown))?,
        };
        let time = match time {
            None => None,
            Some(_) if level != Level::Max => return Err(err(PlayerFault::TimeNotForLevel)),
            Some(text) => {
                let duration =
                    parse_duration(text).map_err(|e| err(PlayerFault::NotADuration(e)))?;
                Some(MoveTime::of_duration(duration).ok_or_else(|| err(PlayerFault::BadTime))?)
            }
        };
        Player::ai(engine, level, time).map_err(|TimeNotForLevel| err(PlayerFault::TimeNotForLevel))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_from_their_names_in_any_case() {
        for level in Level::ALL {
            assert_eq!(level.name().parse(), Ok(level));
            assert_eq!(level.name().to_uppercase().parse(), Ok(level));
        }
        for bad in ["", "godlike", "max ", "maximum"] {
            assert_eq!(bad.parse::<Level>(), Err(ParseLevelError), "{bad}");
        }
    }

    #[test]
    fn players_parse_from_their_names() {
        assert_eq!("human".parse(), Ok(Player::Human));
        let hard = Player::Ai {
            engine: EngineKind::Search,
            level: Level::Hard,
            time: None,
        };
        assert_eq!("ai:hard".parse(), Ok(hard));
        assert_eq!("search:hard".parse(), Ok(hard));
        assert_eq!(hard.to_string().parse(), Ok(hard));
        assert_eq!(
            "ai".parse::<Player>().map(|p| p.to_string()),
            Ok("ai:medium".to_owned())
        );
        for bad in ["", "humans", "human:hard", "ai:", "ai:godlike", "robot"] {
            assert!(bad.parse::<Player>().is_err(), "{bad}");
        }
    }

    #[test]
    fn max_takes_a_move_time_that_reads_back_as_written() {
        let max = |time| Player::Ai {
            engine: EngineKind::Search,
            level: Level::Max,
            time,
        };
        assert_eq!("ai:max".parse(), Ok(max(None)));
        assert_eq!("ai:max:3s".parse(), Ok(max(Some(MoveTime::ThreeSeconds))));
        assert_eq!(
            "search:max:10s".parse(),
            Ok(max(Some(MoveTime::TenSeconds)))
        );
        for text in ["ai:max", "ai:max:1s", "ai:max:3s", "ai:max:10s"] {
            let player: Player = text.parse().unwrap();
            assert_eq!(player.to_string(), text);
        }
        // Any way of writing the duration (issue 18), shown the one way.
        for (text, shown) in [
            ("ai:max:3000ms", "ai:max:3s"),
            ("ai:max:0.05m", "ai:max:3s"),
            ("ai:MAX:10S", "ai:max:10s"),
        ] {
            let player: Player = text.parse().unwrap();
            assert_eq!(player.to_string(), shown);
        }
        assert_eq!(MoveTime::ThreeSeconds.duration(), Duration::from_secs(3));
        assert_eq!(MoveTime::default(), MoveTime::OneSecond);
    }

    #[test]
    fn a_move_time_is_refused_for_other_levels_and_engines_and_other_times() {
        let err = |text: &str| text.parse::<Player>().unwrap_err().to_string();
        for text in [
            "ai:hard:3s",
            "ai:easy:1s",
            "ai:medium:10s",
            "random:max:3s",
            "ai:hard:5s",
        ] {
            assert_eq!(
                err(text),
                format!(
                    "\"{text}\" is not a player: a move time is only for the search engine at level max (ai:max:3s)"
                )
            );
        }
        for text in ["ai:max:5s", "ai:max:1m", "ai:max:2.5s"] {
            assert_eq!(
                err(text),
                format!("\"{text}\" is not a player: the move time of ai:max is 1s, 3s or 10s")
            );
        }
        for (text, time) in [("ai:max:", ""), ("ai:max:3", "3"), ("ai:max:3q", "3q")] {
            assert_eq!(
                err(text),
                format!(
                    "\"{text}\" is not a player: \"{time}\" is not a duration; the move time of ai:max is 1s, 3s or 10s"
                )
            );
        }
        assert!(err("ai:max:3s:x").contains("expected human, ai"));
        assert!(err("human:3s").contains("expected human, ai"));
        assert_eq!(
            Player::ai(EngineKind::Search, Level::Hard, Some(MoveTime::OneSecond)),
            Err(TimeNotForLevel)
        );
    }

    #[test]
    fn a_saved_move_time_is_omitted_at_the_default_and_refused_where_it_has_no_meaning() {
        let read = |text: &str| serde_json::from_str::<Player>(text).map_err(|e| e.to_string());
        let max = |time| Player::Ai {
            engine: EngineKind::Search,
            level: Level::Max,
            time,
        };
        let plain = r#"{"type":"ai","engine":"search","level":"max"}"#;
        assert_eq!(serde_json::to_string(&max(None)).unwrap(), plain);
        assert_eq!(read(plain), Ok(max(None)));
        let timed = r#"{"type":"ai","engine":"search","level":"max","time":"3s"}"#;
        let three = max(Some(MoveTime::ThreeSeconds));
        assert_eq!(serde_json::to_string(&three).unwrap(), timed);
        assert_eq!(read(timed), Ok(three));
        for time in MoveTime::ALL {
            let player = max(Some(time));
            assert_eq!(read(&serde_json::to_string(&player).unwrap()), Ok(player));
        }
        let err = read(r#"{"type":"ai","engine":"search","level":"hard","time":"3s"}"#);
        assert!(
            err.as_ref()
                .unwrap_err()
                .contains("only for the search engine at level max"),
            "{err:?}"
        );
        let err = read(r#"{"type":"ai","engine":"search","level":"max","time":"5s"}"#);
        assert!(
            err.as_ref().unwrap_err().contains("unknown variant `5s`"),
            "{err:?}"
        );
        let err = read(r#"{"type":"human","time":"3s"}"#);
        assert!(
            err.as_ref().unwrap_err().contains("unknown field `time`"),
            "{err:?}"
        );
    }

    #[test]
    fn saved_players_round_trip_and_refuse_unknown_fields_of_every_kind() {
        let read = |text: &str| serde_json::from_str::<Player>(text).map_err(|e| e.to_string());
        let hard = Player::Ai {
            engine: EngineKind::Random,
            level: Level::Hard,
            time: None,
        };
        for player in [Player::Human, hard, Player::Program] {
            let text = serde_json::to_string(&player).unwrap();
            assert_eq!(read(&text), Ok(player), "{text}");
        }
        assert_eq!(
            serde_json::to_string(&Player::Human).unwrap(),
            r#"{"type":"human"}"#
        );
        for (bad, words) in [
            (
                r#"{"type":"human","level":"godlike","x":1}"#,
                "unknown field `level`",
            ),
            (r#"{"type":"human","x":1}"#, "unknown field `x`"),
            (r#"{"type":"program","name":"x"}"#, "unknown field `name`"),
            (
                r#"{"type":"ai","engine":"search","level":"max","x":1}"#,
                "unknown field `x`",
            ),
        ] {
            let err = read(bad).unwrap_err();
            assert!(err.contains(words), "{bad}: {err}");
        }
    }
}
