//! Rule parameters (RULES.md §3) and the five named presets.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How the king standing on the throne is captured.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum KingOnThrone {
    /// Attackers on all four sides.
    FourAttackers,
    /// Two attackers on opposite sides, like a soldier.
    Sandwich,
}

/// How the king on a square beside the (then empty) throne is captured.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum KingBesideThrone {
    /// Attackers on the three sides away from the throne.
    ThreeAttackers,
    /// Sandwiched between two attackers, or between an attacker and the empty throne.
    SandwichAgainstThrone,
    /// Sandwiched between two attackers; the throne is not hostile to him.
    Sandwich,
    /// Never: taken only when surrounded on four sides, and the fourth is the empty throne,
    /// hostile to nobody (OpenTafl's king strong on and beside the throne, `ks:c`, with a
    /// throne not hostile to him).
    Uncapturable,
}

/// What the third occurrence of a position (board + side to move) decides.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Repetition {
    /// The player whose move created the third occurrence loses.
    MoverLoses,
    /// The side to move in the repeated position (who began the cycle) loses.
    SideToMoveLoses,
    /// The defenders lose, whoever repeated.
    DefendersLose,
    /// The game is drawn.
    Draw,
}

/// Every rule parameter that differs between rule sets. Plain data: any combination is playable.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// The empty throne is hostile to attackers (an anvil against them).
    pub throne_hostile_to_attackers: bool,
    /// The empty throne is hostile to defending soldiers.
    pub throne_hostile_to_defenders: bool,
    /// Empty corners are hostile to attacking and defending soldiers.
    pub corners_hostile: bool,
    /// Corners are hostile to the king (he can be sandwiched against one).
    pub corners_hostile_to_king: bool,
    /// Capture of the king on the throne.
    pub king_on_throne: KingOnThrone,
    /// Capture of the king beside the throne.
    pub king_beside_throne: KingBesideThrone,
    /// The king on an edge square cannot be captured.
    pub king_safe_on_edge: bool,
    /// Attackers win by encircling every defender and the king.
    pub encirclement: bool,
    /// What the third occurrence of a position decides.
    pub repetition: Repetition,
}

/// The named rule sets of RULES.md §3.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// The weak-king rules of the common English rules page (the default).
    #[default]
    Standard,
    /// Damian Walker's 2011 rules, based on Fetlar: the king taken by two anywhere.
    Walker,
    /// Aage Nielsen's reconstruction: the king safe on the edge.
    Nielsen,
    /// The Fellhuhn Brandubh app: the king taken by two, surrounding wins.
    Fellhuhn,
    /// OpenTafl's built-in Brandub rules: repetition draws.
    #[serde(rename = "opentafl")]
    OpenTafl,
}

impl Preset {
    /// Every preset, the default first.
    pub const ALL: [Preset; 5] = [
        Preset::Standard,
        Preset::Walker,
        Preset::Nielsen,
        Preset::Fellhuhn,
        Preset::OpenTafl,
    ];

    /// The name used on the command line and in save files.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Standard => "standard",
            Preset::Walker => "walker",
            Preset::Nielsen => "nielsen",
            Preset::Fellhuhn => "fellhuhn",
            Preset::OpenTafl => "opentafl",
        }
    }

    /// What sets this preset apart, in players' words, and where it comes from.
    pub const fn summary(self) -> &'static str {
        match self {
            Preset::Standard => {
                "The weak-king rules of the common English rules page: two attackers take the \
                 king, but four on the throne and three beside it. Throne and corners are \
                 hostile. Surrounding every defender wins; repeating a position loses."
            }
            Preset::Walker => {
                "Damian Walker's 2011 rules, based on Fetlar: two attackers take the king \
                 anywhere, against the empty throne too, but not against a corner. No win by \
                 surrounding; repeating a position loses."
            }
            Preset::Nielsen => {
                "Aage Nielsen's reconstruction: the king is safe on the edge; four attackers \
                 take him on the throne, three beside it. No win by surrounding; a position \
                 repeated three times loses for the defenders."
            }
            Preset::Fellhuhn => {
                "The rules of the Fellhuhn Brandubh app: two attackers take the king anywhere, \
                 against the empty throne too. Surrounding every defender wins; whoever began \
                 a threefold repetition loses."
            }
            Preset::OpenTafl => {
                "OpenTafl's built-in Brandub rules, to play its engines: two attackers take the \
                 king anywhere; the throne is hostile to nobody. No win by surrounding; a \
                 threefold repetition is a draw."
            }
        }
    }

    /// The preset's parameters.
    pub const fn rules(self) -> Rules {
        let standard = Rules {
            throne_hostile_to_attackers: true,
            throne_hostile_to_defenders: true,
            corners_hostile: true,
            corners_hostile_to_king: true,
            king_on_throne: KingOnThrone::FourAttackers,
            king_beside_throne: KingBesideThrone::ThreeAttackers,
            king_safe_on_edge: false,
            encirclement: true,
            repetition: Repetition::MoverLoses,
        };
        match self {
            Preset::Standard => standard,
            Preset::Walker => Rules {
                corners_hostile_to_king: false,
                king_on_throne: KingOnThrone::Sandwich,
                king_beside_throne: KingBesideThrone::SandwichAgainstThrone,
                encirclement: false,
                ..standard
            },
            Preset::Nielsen => Rules {
                king_safe_on_edge: true,
                encirclement: false,
                repetition: Repetition::DefendersLose,
                ..standard
            },
            Preset::Fellhuhn => Rules {
                king_on_throne: KingOnThrone::Sandwich,
                king_beside_throne: KingBesideThrone::SandwichAgainstThrone,
                repetition: Repetition::SideToMoveLoses,
                ..standard
            },
            Preset::OpenTafl => Rules {
                throne_hostile_to_attackers: false,
                throne_hostile_to_defenders: false,
                king_on_throne: KingOnThrone::Sandwich,
                king_beside_throne: KingBesideThrone::Sandwich,
                encirclement: false,
                repetition: Repetition::Draw,
                ..standard
            },
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Rules {
    /// The preset these parameters are exactly equal to, if any.
    pub fn preset(&self) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.rules() == *self)
    }

    /// The rules' name: a preset's, or for custom rules what sets them apart from the
    /// nearest preset (`custom rules: opentafl with the king taken by four on the throne`).
    pub fn name(&self) -> String {
        if let Some(preset) = self.preset() {
            return preset.name().to_owned();
        }
        let (nearest, differences) = Preset::ALL
            .into_iter()
            .map(|p| (p, self.differences_from(&p.rules())))
            .min_by_key(|(_, d)| d.len())
            .unwrap_or((Preset::Standard, Vec::new()));
        format!("custom rules: {nearest} with {}", differences.join(" and "))
    }

    /// The parameters that differ from `other`'s, in words, as these rules have them.
    fn differences_from(&self, other: &Rules) -> Vec<&'static str> {
        let pick = |differs: bool, yes: &'static str, no: &'static str, value: bool| {
            differs.then_some(if value { yes } else { no })
        };
        let on_throne = match self.king_on_throne {
            KingOnThrone::FourAttackers => "the king taken by four on the throne",
            KingOnThrone::Sandwich => "the king taken by two on the throne",
        };
        let beside_throne = match self.king_beside_throne {
            KingBesideThrone::ThreeAttackers => "the king taken by three beside the throne",
            KingBesideThrone::SandwichAgainstThrone => {
                "the king taken by two or against the throne beside it"
            }
            KingBesideThrone::Sandwich => "the king taken by two beside the throne",
            KingBesideThrone::Uncapturable => "the king never taken beside the throne",
        };
        let repetition = match self.repetition {
            Repetition::MoverLoses => "repetition lost by its maker",
            Repetition::SideToMoveLoses => "repetition lost by who began it",
            Repetition::DefendersLose => "repetition lost by the defenders",
            Repetition::Draw => "repetition drawn",
        };
        [
            pick(
                self.throne_hostile_to_attackers != other.throne_hostile_to_attackers,
                "the throne hostile to attackers",
                "the throne not hostile to attackers",
                self.throne_hostile_to_attackers,
            ),
            pick(
                self.throne_hostile_to_defenders != other.throne_hostile_to_defenders,
                "the throne hostile to defenders",
                "the throne not hostile to defenders",
                self.throne_hostile_to_defenders,
            ),
            pick(
                self.corners_hostile != other.corners_hostile,
                "hostile corners",
                "corners hostile to nobody",
                self.corners_hostile,
            ),
            pick(
                self.corners_hostile_to_king != other.corners_hostile_to_king,
                "corners hostile to the king",
                "corners not hostile to the king",
                self.corners_hostile_to_king,
            ),
            (self.king_on_throne != other.king_on_throne).then_some(on_throne),
            (self.king_beside_throne != other.king_beside_throne).then_some(beside_throne),
            pick(
                self.king_safe_on_edge != other.king_safe_on_edge,
                "the king safe on the edge",
                "the king taken on the edge",
                self.king_safe_on_edge,
            ),
            pick(
                self.encirclement != other.encirclement,
                "encirclement winning",
                "no win by encirclement",
                self.encirclement,
            ),
            (self.repetition != other.repetition).then_some(repetition),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

impl Default for Rules {
    fn default() -> Self {
        Preset::default().rules()
    }
}

impl From<Preset> for Rules {
    fn from(preset: Preset) -> Self {
        preset.rules()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_distinct_and_recognised() {
        for p in Preset::ALL {
            assert_eq!(p.rules().preset(), Some(p));
        }
    }
}
