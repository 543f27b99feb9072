//! The two sides and the three kinds of piece.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A player: the attackers (black, 8 soldiers, move first) or the defenders (white, 4 soldiers and the king).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The 8 attackers, who move first and try to capture the king.
    Attackers,
    /// The king and his 4 defenders, who try to bring him to a corner.
    Defenders,
}

impl Side {
    /// The other side.
    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::Attackers => Side::Defenders,
            Side::Defenders => Side::Attackers,
        }
    }

    /// `"attackers"` or `"defenders"`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Attackers => "attackers",
            Side::Defenders => "defenders",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece on the board.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Piece {
    /// An attacking soldier (`t` in position strings).
    Attacker,
    /// A defending soldier (`T`).
    Defender,
    /// The king (`K`).
    King,
}

impl Piece {
    /// The side the piece plays for.
    pub const fn side(self) -> Side {
        match self {
            Piece::Attacker => Side::Attackers,
            Piece::Defender | Piece::King => Side::Defenders,
        }
    }

    /// The letter of the piece in position strings: `t`, `T` or `K`.
    pub const fn letter(self) -> char {
        match self {
            Piece::Attacker => 't',
            Piece::Defender => 'T',
            Piece::King => 'K',
        }
    }

    /// The piece written with `letter`, if any.
    pub(crate) const fn from_letter(letter: char) -> Option<Piece> {
        match letter {
            't' => Some(Piece::Attacker),
            'T' => Some(Piece::Defender),
            'K' => Some(Piece::King),
            _ => None,
        }
    }
}
