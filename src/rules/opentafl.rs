//! OpenTafl's text forms: rules strings (`dim:7 ks:w cenhe: start:/3t3/.../`) to and from
//! [`Rules`], and position records. Used by the engine protocol and by game-record import.
//!
//! Every entry that maps onto a parameter of RULES.md is honoured; an entry we cannot play
//! exactly (another board size, edge escape, shieldwalls, a strong king everywhere, ...) is
//! refused, never ignored.

use std::collections::BTreeSet;
use std::fmt;

use super::piece::Side;
use super::position::{Position, SetupError};
use super::preset::{KingBesideThrone, KingOnThrone, Repetition, Rules};
use super::square::Square;
use crate::quote::excerpt;

/// Why a rules string cannot be played.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum RulesStringError {
    /// An entry is not of the form `key:value`.
    Malformed(String),
    /// An entry we know but cannot play exactly.
    Unsupported {
        /// The entry as written.
        entry: String,
        /// Why it cannot be played.
        why: &'static str,
    },
    /// An entry we do not know.
    UnknownEntry(String),
    /// The `dim:` or `start:` entry is missing.
    Missing(&'static str),
    /// The start position is not a legal Brandubh setup.
    Start(SetupError),
}

impl fmt::Display for RulesStringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Malformed(e) => write!(f, "rules entry \"{}\" is not key:value", excerpt(e)),
            Self::Unsupported { entry, why } => {
                write!(f, "rules entry \"{}\": {why}", excerpt(entry))
            }
            Self::UnknownEntry(e) => write!(f, "rules entry \"{}\" is not supported", excerpt(e)),
            Self::Missing(key) => write!(f, "the rules string has no {key}: entry"),
            Self::Start(e) => write!(f, "rules start position: {e}"),
        }
    }
}

impl std::error::Error for RulesStringError {}

/// The piece letters of a piece-type list that matter on our board (`t`, `T`, `K`);
/// commanders and knights (`c n C N`) and an attacking king (`k`) do not occur and are skipped.
fn letters(entry: &str, value: &str) -> Result<BTreeSet<char>, RulesStringError> {
    let mut set = BTreeSet::new();
    for c in value.chars() {
        match c {
            't' | 'T' | 'K' => {
                set.insert(c);
            }
            'c' | 'n' | 'k' | 'C' | 'N' => {}
            _ => {
                return Err(RulesStringError::Unsupported {
                    entry: entry.to_owned(),
                    why: "not a list of piece letters",
                });
            }
        }
    }
    Ok(set)
}

fn squares(value: &str) -> BTreeSet<String> {
    value
        .split(',')
        .filter(|s| !s.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// The values of the entries that shape our parameters, with OpenTafl's defaults.
struct Entries {
    surround: bool,
    attackers_first: bool,
    repetition: Repetition,
    king_strength: char,
    corner_hostile: BTreeSet<char>,
    throne_hostile_empty: BTreeSet<char>,
    start: Option<String>,
    dim: bool,
}

/// Parses a rules string into rules and the start position (side to move per `atkf:`).
pub fn parse_rules_string(text: &str) -> Result<(Rules, Position), RulesStringError> {
    let all = |s: &str| letters("", s).unwrap_or_default();
    let mut e = Entries {
        surround: true,
        attackers_first: true,
        repetition: Repetition::Draw,
        king_strength: 's',
        corner_hostile: all("tTK"),
        throne_hostile_empty: all("tTK"),
        start: None,
        dim: false,
    };
    for entry in text.split_whitespace() {
        read_entry(entry, &mut e)?;
    }
    if !e.dim {
        return Err(RulesStringError::Missing("dim"));
    }
    let record = e.start.ok_or(RulesStringError::Missing("start"))?;
    let side = if e.attackers_first { 'a' } else { 'd' };
    let start: Position = format!("{record} {side}")
        .parse()
        .map_err(RulesStringError::Start)?;
    let unsupported = |entry: String, why| RulesStringError::Unsupported { entry, why };
    let (t, big_t, k) = (
        e.corner_hostile.contains(&'t'),
        e.corner_hostile.contains(&'T'),
        e.corner_hostile.contains(&'K'),
    );
    if t != big_t {
        return Err(unsupported(
            "corh".into(),
            "corners hostile to one side's soldiers only are not supported",
        ));
    }
    let throne_hostile_to_king = e.throne_hostile_empty.contains(&'K');
    let (king_on_throne, king_beside_throne) = match (e.king_strength, throne_hostile_to_king) {
        ('w', true) => (
            KingOnThrone::Sandwich,
            KingBesideThrone::SandwichAgainstThrone,
        ),
        ('w', false) => (KingOnThrone::Sandwich, KingBesideThrone::Sandwich),
        ('c', true) => (
            KingOnThrone::FourAttackers,
            KingBesideThrone::ThreeAttackers,
        ),
        // Strong beside the throne: surrounded on four sides, and the fourth, the empty
        // throne, is not hostile to him, so he is never taken there.
        ('c', false) => (KingOnThrone::FourAttackers, KingBesideThrone::Uncapturable),
        _ => {
            return Err(unsupported(
                format!("ks:{}", e.king_strength),
                "only a weak king (ks:w) or one strong on and beside the throne (ks:c) is supported",
            ));
        }
    };
    let rules = Rules {
        throne_hostile_to_attackers: e.throne_hostile_empty.contains(&'t'),
        throne_hostile_to_defenders: e.throne_hostile_empty.contains(&'T'),
        corners_hostile: t,
        corners_hostile_to_king: k,
        king_on_throne,
        king_beside_throne,
        king_safe_on_edge: false,
        encirclement: e.surround,
        repetition: e.repetition,
    };
    Ok((rules, start))
}

fn yes_no(entry: &str, value: &str) -> Result<bool, RulesStringError> {
    match value {
        "y" => Ok(true),
        "n" => Ok(false),
        _ => Err(RulesStringError::Unsupported {
            entry: entry.to_owned(),
            why: "expected y or n",
        }),
    }
}

fn read_entry(entry: &str, e: &mut Entries) -> Result<(), RulesStringError> {
    let (key, value) = entry
        .split_once(':')
        .ok_or_else(|| RulesStringError::Malformed(entry.to_owned()))?;
    let refuse = |why| {
        Err(RulesStringError::Unsupported {
            entry: entry.to_owned(),
            why,
        })
    };
    let pieces = |value| letters(entry, value);
    match key {
        "dim" if value == "7" => e.dim = true,
        // Entries that are informational, or set to what our rules always are.
        "name" | "nj" | "cj" | "swf" => {}
        "esc" if value == "c" => {}
        "ka" if value == "y" => {}
        "kj" | "sw" | "efe" | "ber" if value == "n" => {}
        "afor" | "dfor" if value.is_empty() => {}
        "dim" => return refuse("only the 7×7 board is supported"),
        "esc" => return refuse("only escape to the corners is supported"),
        "surf" => e.surround = yes_no(entry, value)?,
        "atkf" => e.attackers_first = yes_no(entry, value)?,
        "ka" => return refuse("the king is always armed here"),
        "ks" => {
            e.king_strength = match value {
                "y" => 's',
                "n" => 'w',
                "s" | "c" | "m" | "w" => value.chars().next().unwrap_or('s'),
                _ => return refuse("expected s, c, m or w"),
            };
        }
        "tfr" => {
            e.repetition = match value {
                "d" => Repetition::Draw,
                "l" => Repetition::MoverLoses,
                "w" => Repetition::SideToMoveLoses,
                "i" => return refuse("ignoring threefold repetition is not supported"),
                _ => return refuse("expected i, d, w or l"),
            };
        }
        "kj" => return refuse("king jumps are not supported"),
        "cor" => {
            let expected: BTreeSet<String> =
                Square::CORNERS.iter().map(ToString::to_string).collect();
            if value != "default" && squares(value) != expected {
                return refuse("only the four corner squares may be corners");
            }
        }
        "cen" => {
            if value != "default" && squares(value) != BTreeSet::from(["d4".to_owned()]) {
                return refuse("only d4 may be the throne");
            }
        }
        "afor" | "dfor" => return refuse("fortresses are not supported"),
        "aforh" | "dforh" | "aforp" | "dforp" | "afors" | "dfors" | "corp" => {
            pieces(value)?;
        }
        "corh" => e.corner_hostile = pieces(value)?,
        "cenhe" => e.throne_hostile_empty = pieces(value)?,
        "cenh" => {
            let set = pieces(value)?;
            if set.contains(&'T') || set.contains(&'K') {
                return refuse(
                    "a throne hostile to defenders while the king is on it is not supported",
                );
            }
        }
        "cenp" => {
            let set = pieces(value)?;
            if !(set.contains(&'t') && set.contains(&'T')) {
                return refuse("every piece passes the empty throne here");
            }
        }
        "cens" | "cors" => {
            if pieces(value)? != BTreeSet::from(['K']) {
                return refuse("only the king may stop on the throne and the corners here");
            }
        }
        "cenre" => {
            if !pieces(value)?.contains(&'K') {
                return refuse("the king may always re-enter the throne here");
            }
        }
        "sw" => return refuse("shieldwall captures are not supported"),
        "efe" => return refuse("edge fort escapes are not supported"),
        "ber" => return refuse("berserk moves are not supported"),
        "start" => e.start = Some(value.to_owned()),
        _ => return Err(RulesStringError::UnknownEntry(entry.to_owned())),
    }
    Ok(())
}

/// The position record of `position`: its board, rank 1 first, without the side to move.
pub fn position_record(position: &Position) -> String {
    let text = position.to_string();
    text.split_whitespace()
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// Parses a position record (rank 1 first) with the given side to move.
pub fn parse_position_record(record: &str, side: Side) -> Result<Position, SetupError> {
    let side = match side {
        Side::Attackers => 'a',
        Side::Defenders => 'd',
    };
    if record.split_whitespace().count() != 1 {
        return Err(SetupError::Trailing(record.to_owned()));
    }
    format!("{record} {side}").parse()
}

/// The rules string for `rules` from `start`, or `None` when OpenTafl cannot express them
/// (the king safe on the edge, a repetition rule against the defenders, mixed king strengths).
pub fn rules_string(rules: &Rules, start: &Position) -> Option<String> {
    if rules.king_safe_on_edge || rules.repetition == Repetition::DefendersLose {
        return None;
    }
    let (strength, king_hostile) = match (rules.king_on_throne, rules.king_beside_throne) {
        (KingOnThrone::FourAttackers, KingBesideThrone::ThreeAttackers) => ('c', true),
        (KingOnThrone::FourAttackers, KingBesideThrone::Uncapturable) => ('c', false),
        (KingOnThrone::Sandwich, KingBesideThrone::SandwichAgainstThrone) => ('w', true),
        (KingOnThrone::Sandwich, KingBesideThrone::Sandwich) => ('w', false),
        _ => return None,
    };
    let yn = |b: bool| if b { 'y' } else { 'n' };
    let tfr = match rules.repetition {
        Repetition::Draw => 'd',
        Repetition::MoverLoses => 'l',
        Repetition::SideToMoveLoses => 'w',
        Repetition::DefendersLose => return None,
    };
    let list = |t: bool, big_t: bool, k: bool| {
        [(t, 't'), (big_t, 'T'), (k, 'K')]
            .into_iter()
            .filter_map(|(on, c)| on.then_some(c))
            .collect::<String>()
    };
    Some(format!(
        "dim:7 name:Brandub esc:c surf:{} atkf:{} tfr:{tfr} ka:y ks:{strength} corh:{} cenh: cenhe:{} start:{}",
        yn(rules.encirclement),
        yn(start.side_to_move() == Side::Attackers),
        list(
            rules.corners_hostile,
            rules.corners_hostile,
            rules.corners_hostile_to_king
        ),
        list(
            rules.throne_hostile_to_attackers,
            rules.throne_hostile_to_defenders,
            king_hostile
        ),
        position_record(start),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::preset::Preset;

    const BUILT_IN: &str = "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

    #[test]
    fn opentafls_brandub_is_the_opentafl_preset() {
        let (rules, start) = parse_rules_string(BUILT_IN).unwrap();
        assert_eq!(rules.preset(), Some(Preset::OpenTafl));
        assert_eq!(start, Position::start());
    }

    #[test]
    fn expressible_presets_round_trip() {
        for preset in Preset::ALL {
            let text = rules_string(&preset.rules(), &Position::start());
            if preset == Preset::Nielsen {
                assert_eq!(text, None);
                continue;
            }
            let text = text.unwrap();
            let (rules, start) = parse_rules_string(&text).unwrap();
            assert_eq!(rules.preset(), Some(preset), "{text}");
            assert_eq!(start, Position::start());
        }
    }

    #[test]
    fn defaults_follow_opentafl() {
        let (rules, _) =
            parse_rules_string("dim:7 ks:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/").unwrap();
        assert!(rules.encirclement, "surf defaults to y");
        assert_eq!(rules.repetition, Repetition::Draw, "tfr defaults to d");
        assert!(rules.throne_hostile_to_defenders && rules.corners_hostile_to_king);
        let (_, start) =
            parse_rules_string("dim:7 ks:w atkf:n start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")
                .unwrap();
        assert_eq!(start.side_to_move(), Side::Defenders);
    }

    #[test]
    fn entries_we_cannot_play_are_refused() {
        let start = "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
        let refused = [
            (
                "dim:9",
                "rules entry \"dim:9\": only the 7×7 board is supported",
            ),
            (
                "dim:7 esc:e",
                "rules entry \"esc:e\": only escape to the corners is supported",
            ),
            (
                "dim:7 ks:w sw:s",
                "rules entry \"sw:s\": shieldwall captures are not supported",
            ),
            (
                "dim:7",
                "rules entry \"ks:s\": only a weak king (ks:w) or one strong on and beside the throne (ks:c) is supported",
            ),
            (
                "dim:7 ks:w ka:n",
                "rules entry \"ka:n\": the king is always armed here",
            ),
            (
                "dim:7 ks:w tfr:i",
                "rules entry \"tfr:i\": ignoring threefold repetition is not supported",
            ),
            (
                "dim:7 ks:w efe:y",
                "rules entry \"efe:y\": edge fort escapes are not supported",
            ),
            (
                "dim:7 ks:w corh:t",
                "rules entry \"corh\": corners hostile to one side's soldiers only are not supported",
            ),
            (
                "dim:7 ks:w cor:a1",
                "rules entry \"cor:a1\": only the four corner squares may be corners",
            ),
            (
                "dim:7 ks:w cens:tTK",
                "rules entry \"cens:tTK\": only the king may stop on the throne and the corners here",
            ),
            ("dim:7 ks:w zz:1", "rules entry \"zz:1\" is not supported"),
            (
                "dim:7 ks:w nonsense",
                "rules entry \"nonsense\" is not key:value",
            ),
        ];
        for (entries, message) in refused {
            let err = parse_rules_string(&format!("{entries} {start}")).unwrap_err();
            assert_eq!(err.to_string(), message, "{entries}");
        }
        assert_eq!(
            parse_rules_string("dim:7 ks:w").unwrap_err(),
            RulesStringError::Missing("start")
        );
        assert!(matches!(
            parse_rules_string("dim:7 ks:w start:/3t3/"),
            Err(RulesStringError::Start(_))
        ));
    }

    #[test]
    fn position_records_convert_exactly() {
        let start = Position::start();
        assert_eq!(position_record(&start), "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
        assert_eq!(
            parse_position_record(&position_record(&start), Side::Attackers),
            Ok(start)
        );
        assert!(parse_position_record("/3t3/ d", Side::Attackers).is_err());
    }
}
