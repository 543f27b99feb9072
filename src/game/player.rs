//! Who plays a side: a person at the keyboard, or an AI engine at a level.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How strong (and how quick) an AI opponent plays. Each level's budget is defined by the AI layer.
#[derive(
    Copy,
    Clone,
    Eq,
    PartialEq,
    Hash,
    Debug,
    Default,
    Serialize,
    Deserialize,
    JsonSchema,
    clap::ValueEnum,
)]
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

/// The kind of AI engine.
#[derive(
    Copy,
    Clone,
    Eq,
    PartialEq,
    Hash,
    Debug,
    Default,
    Serialize,
    Deserialize,
    JsonSchema,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// The main engine: alpha-beta search.
    #[default]
    Search,
    /// Uniformly random legal moves (seeded).
    Random,
}

impl EngineKind {
    /// The engine's name on the command line and in save files.
    pub const fn name(self) -> &'static str {
        match self {
            EngineKind::Search => "search",
            EngineKind::Random => "random",
        }
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Who plays one side of a game: `{"type": "human"}`, `{"type": "ai", "engine": ...,
/// "level": ...}` or `{"type": "program"}` in a save, with no other field for any kind.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(from = "PlayerFields", into = "PlayerFields")]
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
    },
    /// Another program.
    Program {},
}

impl From<PlayerFields> for Player {
    fn from(fields: PlayerFields) -> Self {
        match fields {
            PlayerFields::Human {} => Player::Human,
            PlayerFields::Ai { engine, level } => Player::Ai { engine, level },
            PlayerFields::Program {} => Player::Program,
        }
    }
}

impl From<Player> for PlayerFields {
    fn from(player: Player) -> Self {
        match player {
            Player::Human => PlayerFields::Human {},
            Player::Ai { engine, level } => PlayerFields::Ai { engine, level },
            Player::Program => PlayerFields::Program {},
        }
    }
}

impl fmt::Display for Player {
    /// `human`, `ai:hard` (the search engine), `random`, or `program`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Human => f.write_str("human"),
            Player::Program => f.write_str("program"),
            Player::Ai {
                engine: EngineKind::Search,
                level,
            } => write!(f, "ai:{level}"),
            Player::Ai {
                engine: EngineKind::Random,
                ..
            } => f.write_str("random"),
        }
    }
}

/// Why a text does not name a player.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct ParsePlayerError(String);

impl fmt::Display for ParsePlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "\"{}\" is not a player (expected human, ai, ai:LEVEL with LEVEL easy|medium|hard|max, or random)",
            crate::quote::excerpt(&self.0)
        )
    }
}

impl std::error::Error for ParsePlayerError {}

impl FromStr for Player {
    type Err = ParsePlayerError;

    /// Parses `human`, `ai` (medium), `ai:LEVEL`, `search:LEVEL`, or `random`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParsePlayerError(s.to_owned());
        let (kind, level) = match s.split_once(':') {
            Some((kind, level)) => (kind, Some(level)),
            None => (s, None),
        };
        let level = match level {
            None => Level::default(),
            Some(text) => <Level as clap::ValueEnum>::from_str(text, true).map_err(|_| err())?,
        };
        match kind {
            "human" if s == "human" => Ok(Player::Human),
            "ai" | "search" => Ok(Player::Ai {
                engine: EngineKind::Search,
                level,
            }),
            "random" => Ok(Player::Ai {
                engine: EngineKind::Random,
                level,
            }),
            _ => Err(err()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_parse_from_their_names() {
        assert_eq!("human".parse(), Ok(Player::Human));
        let hard = Player::Ai {
            engine: EngineKind::Search,
            level: Level::Hard,
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
    fn saved_players_round_trip_and_refuse_unknown_fields_of_every_kind() {
        let read = |text: &str| serde_json::from_str::<Player>(text).map_err(|e| e.to_string());
        let hard = Player::Ai {
            engine: EngineKind::Random,
            level: Level::Hard,
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
