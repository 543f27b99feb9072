//! Colours and glyphs: a default and a high-contrast theme, a colourless one for `NO_COLOR`,
//! and Unicode or ASCII piece glyphs. Pieces always differ by glyph, never by colour alone.

use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::border;
use ratatui::widgets::Block;

use crate::rules::{Piece, Square};

/// Something drawn in a look: the ratatui widget of each pop-up and screen (`Themed { of:
/// &question, look }`).
pub struct Themed<'a, T> {
    /// What is drawn.
    pub of: &'a T,
    /// In what colours and glyphs.
    pub look: &'a Look,
}

/// The colour schemes to choose from on the command line.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ThemeName {
    /// Warm wooden board.
    #[default]
    Default,
    /// Black and white board with bright, saturated marks.
    HighContrast,
}

/// Every style the views use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Theme {
    /// Base board cells, alternating.
    pub square: [Style; 2],
    /// The empty throne.
    pub throne: Style,
    /// The corners.
    pub corner: Style,
    /// Attackers' glyph.
    pub attacker: Style,
    /// Defenders' glyph.
    pub defender: Style,
    /// The king's glyph.
    pub king: Style,
    /// The keyboard cursor's cell.
    pub cursor: Style,
    /// The selected piece's cell.
    pub selected: Style,
    /// A legal destination of the selected piece.
    pub destination: Style,
    /// The squares of the last move.
    pub last_move: Style,
    /// Squares captured by the last move.
    pub captured: Style,
    /// The hinted move's squares.
    pub hint: Style,
    /// The squares of the engine's best move, in review.
    pub best: Style,
    /// File and rank labels, secondary text.
    pub label: Style,
    /// Headings and emphasis in panels.
    pub heading: Style,
    /// Error messages.
    pub error: Style,
    /// The game-over banner.
    pub banner: Style,
    /// The focused entry of a menu or list.
    pub focus: Style,
    /// Something done well: an only move (`!`).
    pub good: Style,
    /// The brackets around the cursor's, the selected, the hinted squares' glyphs, and
    /// those of the move played and the best move in review.
    pub bracket: Style,
}

impl Theme {
    /// The theme `name`, or the colourless one when `color` is false (`NO_COLOR`).
    pub fn new(name: ThemeName, color: bool) -> Theme {
        if !color {
            return Theme::monochrome();
        }
        match name {
            ThemeName::Default => Theme::wood(),
            ThemeName::HighContrast => Theme::high_contrast(),
        }
    }

    fn wood() -> Theme {
        let bg = |r, g, b| Style::new().bg(Color::Rgb(r, g, b));
        Theme {
            square: [bg(222, 184, 135), bg(205, 163, 112)],
            // Light enough wood for the dark pieces (at least 4.5:1 on every mark).
            throne: bg(200, 150, 100).fg(Color::Rgb(60, 30, 10)),
            corner: bg(200, 150, 100).fg(Color::Rgb(60, 30, 10)),
            attacker: Style::new()
                .fg(Color::Rgb(25, 20, 20))
                .add_modifier(Modifier::BOLD),
            defender: Style::new()
                .fg(Color::Rgb(30, 45, 110))
                .add_modifier(Modifier::BOLD),
            king: Style::new()
                .fg(Color::Rgb(110, 0, 0))
                .add_modifier(Modifier::BOLD),
            cursor: bg(120, 180, 240),
            selected: bg(120, 200, 120),
            destination: bg(170, 215, 150).fg(Color::Rgb(30, 90, 30)),
            last_move: bg(235, 215, 110),
            captured: bg(225, 140, 120).fg(Color::Rgb(110, 0, 0)),
            hint: bg(200, 160, 230),
            best: bg(150, 205, 215),
            label: Style::new().fg(Color::Gray),
            heading: Style::new()
                .fg(Color::Rgb(235, 190, 120))
                .add_modifier(Modifier::BOLD),
            error: Style::new()
                .fg(Color::Rgb(255, 110, 100))
                .add_modifier(Modifier::BOLD),
            banner: Style::new()
                .fg(Color::Black)
                .bg(Color::Rgb(255, 215, 0))
                .add_modifier(Modifier::BOLD),
            focus: Style::new().fg(Color::Black).bg(Color::Rgb(235, 190, 120)),
            good: Style::new()
                .fg(Color::Rgb(130, 210, 120))
                .add_modifier(Modifier::BOLD),
            bracket: Style::new()
                .fg(Color::Rgb(25, 20, 20))
                .add_modifier(Modifier::BOLD),
        }
    }

    fn high_contrast() -> Theme {
        let bg = |c| Style::new().bg(c);
        Theme {
            square: [bg(Color::White), bg(Color::Gray)],
            // Only the king stops on the throne and the corners.
            throne: bg(Color::DarkGray).fg(Color::Black),
            corner: bg(Color::DarkGray).fg(Color::Black),
            attacker: Style::new().fg(Color::Black).add_modifier(Modifier::BOLD),
            defender: Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD),
            // Black, not red: red is too light on the marks (his glyph tells him apart).
            king: Style::new().fg(Color::Black).add_modifier(Modifier::BOLD),
            cursor: bg(Color::Cyan),
            selected: bg(Color::LightGreen),
            destination: bg(Color::Green).fg(Color::Black),
            last_move: bg(Color::Yellow),
            captured: bg(Color::LightRed).fg(Color::Black),
            hint: bg(Color::LightCyan),
            best: bg(Color::LightCyan),
            label: Style::new().fg(Color::White),
            heading: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            error: Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD),
            banner: Style::new()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
            focus: Style::new().fg(Color::Black).bg(Color::White),
            good: Style::new()
                .fg(Color::LightGreen)
                .add_modifier(Modifier::BOLD),
            bracket: Style::new().fg(Color::Black).add_modifier(Modifier::BOLD),
        }
    }

    /// No colour at all: marks use reverse video, bold and underline.
    fn monochrome() -> Theme {
        let plain = Style::new();
        let bold = Style::new().add_modifier(Modifier::BOLD);
        Theme {
            square: [plain, plain],
            throne: plain,
            corner: plain,
            attacker: bold,
            defender: bold,
            king: bold,
            cursor: Style::new().add_modifier(Modifier::REVERSED),
            selected: Style::new().add_modifier(Modifier::UNDERLINED | Modifier::BOLD),
            destination: plain,
            last_move: Style::new().add_modifier(Modifier::UNDERLINED),
            captured: plain,
            hint: Style::new().add_modifier(Modifier::UNDERLINED),
            best: Style::new().add_modifier(Modifier::ITALIC),
            label: plain,
            heading: bold,
            error: bold,
            banner: Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            focus: Style::new().add_modifier(Modifier::REVERSED),
            good: bold,
            bracket: bold,
        }
    }

    /// The style of `piece`'s glyph.
    pub const fn piece(&self, piece: Piece) -> Style {
        match piece {
            Piece::Attacker => self.attacker,
            Piece::Defender => self.defender,
            Piece::King => self.king,
        }
    }

    /// The style of `piece`'s glyph off the board (in the panel, the graph): on a light
    /// square, as on the board.
    pub fn chip(&self, piece: Piece) -> Style {
        self.square[0].patch(self.piece(piece))
    }

    /// The base style of `sq`: throne, corner, or alternating squares.
    pub fn base(&self, sq: Square) -> Style {
        if sq.is_throne() {
            self.throne
        } else if sq.is_corner() {
            self.corner
        } else {
            self.square[usize::from((sq.file() + sq.rank()) % 2 == 1)]
        }
    }
}

/// The characters the board is drawn with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Glyphs {
    /// An attacker.
    pub attacker: &'static str,
    /// A defender.
    pub defender: &'static str,
    /// The king.
    pub king: &'static str,
    /// The empty throne.
    pub throne: &'static str,
    /// An empty corner.
    pub corner: &'static str,
    /// A destination of the selected piece.
    pub destination: &'static str,
    /// A destination of the selected piece that would repeat a position.
    pub repeat: &'static str,
    /// A square whose piece the last move captured.
    pub captured: &'static str,
    /// The lines of frames and pop-ups.
    pub border: border::Set<'static>,
    /// Whether the rest of the text is drawn in ASCII too (see [`super::ascii`]).
    pub ascii: bool,
}

/// Frames drawn with `+`, `-` and `|`.
pub const ASCII_BORDER: border::Set<'static> = border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

impl Glyphs {
    /// Unicode glyphs.
    pub const UNICODE: Glyphs = Glyphs {
        attacker: "●",
        defender: "○",
        king: "♚",
        throne: "⊡",
        corner: "⊠",
        destination: "•",
        repeat: "!",
        captured: "×",
        border: border::PLAIN,
        ascii: false,
    };

    /// Plain ASCII glyphs for terminals without good Unicode.
    pub const ASCII: Glyphs = Glyphs {
        attacker: "A",
        defender: "D",
        king: "K",
        throne: "+",
        corner: "#",
        destination: ".",
        repeat: "!",
        captured: "x",
        border: ASCII_BORDER,
        ascii: true,
    };

    /// The glyph of `piece`.
    pub const fn piece(&self, piece: Piece) -> &'static str {
        match piece {
            Piece::Attacker => self.attacker,
            Piece::Defender => self.defender,
            Piece::King => self.king,
        }
    }
}

/// The look of the interface: theme and glyphs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Look {
    /// Styles.
    pub theme: Theme,
    /// Glyphs.
    pub glyphs: Glyphs,
}

impl Look {
    /// Theme `name` (colourless if `color` is false) with ASCII or Unicode glyphs.
    pub fn new(name: ThemeName, color: bool, ascii: bool) -> Look {
        Look {
            theme: Theme::new(name, color),
            glyphs: if ascii {
                Glyphs::ASCII
            } else {
                Glyphs::UNICODE
            },
        }
    }
}

impl Look {
    /// A bordered block drawn with the glyphs' border lines.
    pub fn block(&self) -> Block<'static> {
        Block::bordered().border_set(self.glyphs.border)
    }
}

impl Default for Look {
    fn default() -> Self {
        Look::new(ThemeName::Default, true, false)
    }
}
