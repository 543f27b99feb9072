//! Keys and mouse clicks to [`Action`]s: a pure function of the event and the input mode.

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::rules::Piece;

/// A direction on the board or in a list.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Direction {
    /// Towards rank 7, or the previous entry.
    Up,
    /// Towards rank 1, or the next entry.
    Down,
    /// Towards file a, or the previous value.
    Left,
    /// Towards file g, or the next value.
    Right,
}

/// Something the player asks for.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Action {
    /// Move the cursor or the focus.
    Move(Direction),
    /// Enter or Space: select, move, choose, confirm.
    Confirm,
    /// Esc: cancel the selection, close a screen or dialog.
    Cancel,
    /// A left click at a screen cell.
    Click {
        /// Screen column.
        column: u16,
        /// Screen row.
        row: u16,
    },
    /// Start typing a move (`:`).
    StartTyping,
    /// A character typed into a text field.
    Type(char),
    /// Delete the last typed character.
    Backspace,
    /// Clear the text field (Ctrl-U, as in a shell).
    ClearField,
    /// Take back a move (against the AI: back to your previous turn).
    Undo,
    /// Play again a move taken back.
    Redo,
    /// Ask the AI for a suggestion.
    Hint,
    /// Turn the warnings (threats to the king, open lines, repetitions) off or on.
    ToggleWarnings,
    /// Turn the bell (when the AI has moved, when a game ends) on or off.
    ToggleBell,
    /// Show or hide the legend of the review's marks.
    ToggleLegend,
    /// Tell the thinking AI to move now.
    MoveNow,
    /// Save the game.
    Save,
    /// Load a saved game.
    Load,
    /// Open the puzzle trainer (from the new-game screen).
    Puzzles,
    /// In the puzzle trainer: start the puzzle again.
    Retry,
    /// In the puzzle trainer: show the answer.
    ShowAnswer,
    /// In the puzzle trainer: the next puzzle that fits.
    NextPuzzle,
    /// Offer (or accept) a draw.
    OfferDraw,
    /// Resign the game.
    Resign,
    /// Go to the new-game screen.
    NewGame,
    /// Show the rules of the active preset.
    Rules,
    /// Show the list of keys.
    Help,
    /// Pause or resume an AI-vs-AI game.
    Pause,
    /// Play AI moves faster.
    Faster,
    /// `A` on an online board: abort the game before one's first move.
    Abort,
    /// Play AI moves slower.
    Slower,
    /// Open or close the review of the game.
    Review,
    /// Analyze every move of the game.
    Analyze,
    /// `c` on the board: write a chat line (online), or the comment on the last move (a
    /// local game).
    Chat,
    /// Play online: choose a server (from the new-game screen).
    Online,
    /// Home: go to the start (of the game under review).
    ToStart,
    /// End: go to the end (of the game under review).
    ToEnd,
    /// Scroll the move list or text up by a page.
    PageUp,
    /// Scroll the move list or text down by a page.
    PageDown,
    /// Delete the selected entry (a save in the list of saves; in review, the side line).
    Delete,
    /// In review: into a side line leaving the line here (again: the next side line).
    IntoLine,
    /// In review: out of the side line, to where it leaves its parent line.
    OutOfLine,
    /// In review: to the next mistake or blunder of the line reviewed (`n`).
    NextMistake,
    /// In review: to the previous mistake or blunder (`N`).
    PreviousMistake,
    /// In review: make the side line its parent's continuation.
    Promote,
    /// In review: write or edit the comment on the move shown (`c`).
    Comment,
    /// In review: edit the game's tags, the players' names, event, site, date and annotator
    /// (`t`).
    Tags,
    /// Delete the character after the cursor (Del, in the comment editor).
    DeleteForward,
    /// Rename the selected entry (a save in the list of saves).
    Rename,
    /// Tab: in the compact layout, show the panel over the board, or the board again; in the
    /// online lobby, write in its chat.
    TogglePanel,
    /// Answer yes.
    Yes,
    /// Answer no.
    No,
    /// Quit (asks first if there are unsaved moves).
    Quit,
    /// Ctrl-c: quit as `q` does, over any screen or dialog; a second one at the question
    /// quits.
    Interrupt,
    /// Ctrl-z: give the terminal back and stop, as a shell's job does, until continued.
    Suspend,
    /// The terminal is this size now.
    Resize {
        /// Columns.
        width: u16,
        /// Rows.
        height: u16,
    },
}

/// How keys are read, which depends on what is on screen.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Mode {
    /// The board: game keys.
    Board,
    /// A menu or list, such as the new-game screen, the list of saves or the rules text.
    Menu,
    /// A line of text being typed (a move, a file name).
    Text,
    /// A yes/no question (some also take `s` to save).
    Question,
    /// The board with a yes/no question standing beside it (an opponent's offer): `y` and
    /// `n` answer it, every other key is the board's.
    BoardAsked,
    /// Stepping through the game under review.
    Review,
    /// Text of several lines being written (a comment): Enter starts a new line, Ctrl-S or
    /// Alt-Enter keeps the text.
    Editor,
    /// The puzzle trainer's board.
    Trainer,
    /// The screen is too small to draw the game: only quitting acts (`q`, Ctrl-C), and
    /// Ctrl-Z; a resize may bring the game back.
    TooSmall,
}

/// The actions for `event` in `mode`: one for a key, a click or a resize (none if it means
/// nothing), and for text pasted into a text field (bracketed paste), one per character
/// typed ([`pasted`]).
pub fn actions(event: &Event, mode: Mode) -> Vec<Action> {
    match event {
        Event::Paste(text) => pasted(text, mode),
        other => action(other, mode).into_iter().collect(),
    }
}

/// The characters of `text` pasted in `mode`, typed: in the comment editor every line break
/// (`\r\n`, `\r` or `\n`) starts a new line and a tab is a space; in a one-line field a
/// line break or a tab is a space. Other control characters are dropped, and nothing is
/// typed where no text is written.
pub fn pasted(text: &str, mode: Mode) -> Vec<Action> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let typed = |c: char| match (c, mode) {
        ('\n', Mode::Editor) => Some('\n'),
        ('\n' | '\t', Mode::Text | Mode::Editor) => Some(' '),
        (c, Mode::Text | Mode::Editor) if !c.is_control() => Some(c),
        _ => None,
    };
    text.chars().filter_map(typed).map(Action::Type).collect()
}

/// The action for `event` in `mode`, if it means one.
pub fn action(event: &Event, mode: Mode) -> Option<Action> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => key_action(*key, mode),
        Event::Mouse(mouse) => mouse_action(*mouse, mode),
        &Event::Resize(width, height) => Some(Action::Resize { width, height }),
        _ => None,
    }
}

fn mouse_action(mouse: MouseEvent, mode: Mode) -> Option<Action> {
    if mode == Mode::TooSmall {
        return None;
    }
    match mouse.kind {
        // On the board a right click cancels the selection.
        MouseEventKind::Down(MouseButton::Right)
            if matches!(mode, Mode::Board | Mode::BoardAsked | Mode::Trainer) =>
        {
            Some(Action::Cancel)
        }
        MouseEventKind::Down(MouseButton::Left) => Some(Action::Click {
            column: mouse.column,
            row: mouse.row,
        }),
        MouseEventKind::ScrollUp => Some(Action::Move(Direction::Up)),
        MouseEventKind::ScrollDown => Some(Action::Move(Direction::Down)),
        _ => None,
    }
}

fn key_action(key: KeyEvent, mode: Mode) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    if ctrl {
        return match key.code {
            KeyCode::Char('c') => Some(Action::Interrupt),
            KeyCode::Char('z') => Some(Action::Suspend),
            KeyCode::Char('r') if matches!(mode, Mode::Board | Mode::BoardAsked) => {
                Some(Action::Redo)
            }
            KeyCode::Char('s') if mode == Mode::Editor => Some(Action::Save),
            KeyCode::Char('u') if mode == Mode::Text => Some(Action::ClearField),
            _ => None,
        };
    }
    if mode == Mode::Editor {
        return editor_key(key);
    }
    if mode == Mode::TooSmall {
        return (key.code == KeyCode::Char('q')).then_some(Action::Quit);
    }
    let common = match key.code {
        KeyCode::Up => Some(Action::Move(Direction::Up)),
        KeyCode::Down => Some(Action::Move(Direction::Down)),
        KeyCode::Left => Some(Action::Move(Direction::Left)),
        KeyCode::Right => Some(Action::Move(Direction::Right)),
        KeyCode::Enter => Some(Action::Confirm),
        KeyCode::Esc => Some(Action::Cancel),
        KeyCode::PageUp => Some(Action::PageUp),
        KeyCode::PageDown => Some(Action::PageDown),
        _ => None,
    };
    if common.is_some() {
        return common;
    }
    let KeyCode::Char(c) = key.code else {
        return match (key.code, mode) {
            (KeyCode::Backspace, Mode::Text) => Some(Action::Backspace),
            (KeyCode::F(1), _) => Some(Action::Help),
            // In text: the online lobby's chat (a prompt ignores it).
            (KeyCode::Tab, Mode::Board | Mode::BoardAsked | Mode::Review | Mode::Text) => {
                Some(Action::TogglePanel)
            }
            (KeyCode::Home, Mode::Review | Mode::Menu) => Some(Action::ToStart),
            (KeyCode::End, Mode::Review | Mode::Menu) => Some(Action::ToEnd),
            (KeyCode::Delete, Mode::Menu) => Some(Action::Delete),
            (KeyCode::F(2), Mode::Menu) => Some(Action::Rename),
            _ => None,
        };
    };
    match mode {
        Mode::Text | Mode::Editor => Some(Action::Type(c)),
        Mode::Question => match c {
            'y' | 'Y' => Some(Action::Yes),
            'n' | 'N' => Some(Action::No),
            // Questions about leaving an unsaved game offer to save it.
            's' | 'S' => Some(Action::Save),
            _ => None,
        },
        Mode::Menu => menu_char(c),
        Mode::Board => board_char(c),
        Mode::BoardAsked => match c {
            'y' | 'Y' => Some(Action::Yes),
            'n' | 'N' => Some(Action::No),
            _ => board_char(c),
        },
        Mode::Review => review_char(c),
        Mode::Trainer => trainer_char(c),
        Mode::TooSmall => None,
    }
}

/// A key in the comment editor: characters and Enter type, Alt-Enter keeps the text (as
/// Ctrl-S does), the arrows, Home, End, Page Up and Page Down move the cursor.
fn editor_key(key: KeyEvent) -> Option<Action> {
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    Some(match key.code {
        KeyCode::Enter if alt => Action::Save,
        KeyCode::Enter => Action::Type('\n'),
        KeyCode::Char(c) => Action::Type(c),
        KeyCode::Tab => Action::Type(' '),
        KeyCode::Backspace => Action::Backspace,
        KeyCode::Delete => Action::DeleteForward,
        KeyCode::Esc => Action::Cancel,
        KeyCode::Up => Action::Move(Direction::Up),
        KeyCode::Down => Action::Move(Direction::Down),
        KeyCode::Left => Action::Move(Direction::Left),
        KeyCode::Right => Action::Move(Direction::Right),
        KeyCode::Home => Action::ToStart,
        KeyCode::End => Action::ToEnd,
        KeyCode::PageUp => Action::PageUp,
        KeyCode::PageDown => Action::PageDown,
        KeyCode::F(1) => Action::Help,
        _ => return None,
    })
}

/// The keys a board shares with the trainer's: the cursor (vi keys), Space to choose, `:` to
/// type a move.
fn cursor_char(c: char) -> Option<Action> {
    Some(match c {
        'k' => Action::Move(Direction::Up),
        'j' => Action::Move(Direction::Down),
        'h' => Action::Move(Direction::Left),
        'l' => Action::Move(Direction::Right),
        ' ' => Action::Confirm,
        ':' => Action::StartTyping,
        _ => return None,
    })
}

fn trainer_char(c: char) -> Option<Action> {
    if let Some(action) = cursor_char(c) {
        return Some(action);
    }
    Some(match c {
        'r' => Action::Retry,
        's' => Action::ShowAnswer,
        'n' => Action::NextPuzzle,
        '?' => Action::Help,
        'q' => Action::Quit,
        _ => return None,
    })
}

fn review_char(c: char) -> Option<Action> {
    match c {
        'h' => Some(Action::Move(Direction::Left)),
        'l' => Some(Action::ToggleLegend),
        'k' => Some(Action::Move(Direction::Up)),
        'j' => Some(Action::Move(Direction::Down)),
        'v' => Some(Action::Review),
        'a' => Some(Action::Analyze),
        ':' => Some(Action::StartTyping),
        ']' => Some(Action::IntoLine),
        '[' => Some(Action::OutOfLine),
        'n' => Some(Action::NextMistake),
        'N' => Some(Action::PreviousMistake),
        'z' => Some(Action::Puzzles),
        'P' => Some(Action::Promote),
        'D' => Some(Action::Delete),
        'c' => Some(Action::Comment),
        't' => Some(Action::Tags),
        's' => Some(Action::Save),
        'i' => Some(Action::Rules),
        '?' => Some(Action::Help),
        'q' => Some(Action::Quit),
        _ => None,
    }
}

fn menu_char(c: char) -> Option<Action> {
    match c {
        'k' => Some(Action::Move(Direction::Up)),
        'j' => Some(Action::Move(Direction::Down)),
        'h' => Some(Action::Move(Direction::Left)),
        'l' => Some(Action::Move(Direction::Right)),
        ' ' => Some(Action::Confirm),
        'q' => Some(Action::Cancel),
        '?' => Some(Action::Help),
        'i' => Some(Action::Rules),
        'o' => Some(Action::Load),
        'z' => Some(Action::Puzzles),
        'd' => Some(Action::Delete),
        'r' => Some(Action::Rename),
        'g' => Some(Action::Online),
        _ => None,
    }
}

fn board_char(c: char) -> Option<Action> {
    if let Some(action) = cursor_char(c) {
        return Some(action);
    }
    Some(match c {
        'u' => Action::Undo,
        'r' => Action::Redo,
        't' => Action::Hint,
        'w' => Action::ToggleWarnings,
        'b' => Action::ToggleBell,
        'm' => Action::MoveNow,
        's' => Action::Save,
        'o' => Action::Load,
        'd' => Action::OfferDraw,
        'x' => Action::Resign,
        'n' => Action::NewGame,
        'i' => Action::Rules,
        '?' => Action::Help,
        'p' => Action::Pause,
        'v' => Action::Review,
        'a' => Action::Analyze,
        'c' => Action::Chat,
        '+' | '=' => Action::Faster,
        'A' => Action::Abort,
        'y' => Action::Yes,
        '-' => Action::Slower,
        'q' => Action::Quit,
        _ => return None,
    })
}

/// A key (or keys) of a screen and what it does, as the help lists it; and, if the screen's
/// key line shows it, its place there and its words.
#[derive(Copy, Clone, Debug)]
pub struct Key {
    /// The keys, in words ("arrows / h j k l").
    pub keys: &'static str,
    /// What they do.
    pub does: &'static str,
    /// Its place on the key line (first places fit the smallest terminal) and its words.
    pub hint: Option<(u8, &'static str)>,
}

impl Key {
    /// `keys` doing `does`, listed in the help only.
    pub const fn new(keys: &'static str, does: &'static str) -> Key {
        Key {
            keys,
            does,
            hint: None,
        }
    }

    /// The same, also on the key line at `place`, as `text`.
    #[must_use]
    pub const fn hinted(self, place: u8, text: &'static str) -> Key {
        Key {
            hint: Some((place, text)),
            ..self
        }
    }
}

/// The keys of a screen: the one source of its help (the keys, then the notes) and of its
/// key line.
#[derive(Copy, Clone, Debug)]
pub struct KeyTable {
    /// Every key, in the help's order.
    pub keys: &'static [Key],
    /// What the help says besides the keys.
    pub notes: &'static [&'static str],
}

impl KeyTable {
    /// The key line: the hinted keys in their places, joined by ` · `.
    pub fn key_line(&self) -> String {
        let mut hints: Vec<(u8, &str)> = self.keys.iter().filter_map(|k| k.hint).collect();
        hints.sort_by_key(|&(place, _)| place);
        let words: Vec<&str> = hints.into_iter().map(|(_, text)| text).collect();
        words.join(" · ")
    }
}

/// Every key of the board, as the help overlay lists them.
pub const BOARD_KEYS: KeyTable = KeyTable {
    keys: &[
        Key::new("arrows / h j k l", "move the cursor"),
        Key::new("Enter / Space / click", "select a piece, then move it"),
        Key::new("Esc / right click", "cancel the selection"),
        Key::new(":", "type a move, e.g. d2-d5"),
        Key::new("u", "undo (against the AI: to your last turn)"),
        Key::new("r / Ctrl-r", "redo"),
        Key::new("t", "hint: the strongest search, about 1 s"),
        Key::new("w / b", "warnings (threats, repeats) / bell on or off"),
        Key::new("m", "make the thinking AI move now"),
        Key::new("p", "pause / resume an AI-vs-AI game"),
        Key::new("+ / -", "AI-vs-AI: faster / slower"),
        Key::new("PgUp / PgDn", "scroll the move list"),
        Key::new("Tab", "small terminal: the panel / the board"),
        Key::new("v / a / c", "review / analyze / comment on the last move"),
        Key::new("s", "save the game"),
        Key::new("o", "load a saved game"),
        Key::new("d", "offer or accept a draw"),
        Key::new("x", "resign"),
        Key::new("n", "new game"),
        Key::new("i", "rules of this game"),
        Key::new("q / Ctrl-c", "quit (asks if a change is in no file)"),
        Key::new("Ctrl-z", "suspend (fg to come back)"),
    ],
    notes: &[],
};

/// Every key of the review, as the help overlay lists them in review (with the notes), and
/// those its key line shows while no message is.
pub const REVIEW_KEYS: KeyTable = KeyTable {
    keys: &[
        Key::new("← → ↑ ↓ h k j", "one ply back / forward").hinted(1, "←→ step"),
        Key::new("Home / End", "the start / the end of the game").hinted(2, "Home/End"),
        Key::new("PgUp / PgDn", "ten plies back / forward"),
        Key::new("click a move", "go to that move"),
        Key::new(
            ": / click two squares",
            "try another move: opens a side line",
        )
        .hinted(3, ": try a move"),
        Key::new("]", "into a side line leaving here (again: the next)").hinted(4, "] [ lines"),
        Key::new("[", "out of the side line to where it leaves"),
        Key::new("P / D", "promote / delete the side line (D asks)")
            .hinted(5, "P promote · D delete"),
        Key::new("Tab", "small terminal: the panel / the board"),
        Key::new("a", "analyze every move: quick, normal or deep").hinted(6, "a analyze"),
        Key::new("n / N", "next / previous mistake or blunder (analyzed)")
            .hinted(7, "n/N mistakes"),
        Key::new("l", "legend of the marks on / off").hinted(8, "l legend"),
        Key::new("click the graph", "go to that move"),
        Key::new("c", "write or edit the comment on this move"),
        Key::new("t", "tags: players' names, event, site, date, annotator"),
        Key::new("z", "your mistakes as puzzles (analyzed)"),
        Key::new("v / Esc", "back to the game (Esc first stops an analysis)").hinted(9, "v back"),
        Key::new("s", "save the game (with its analysis)"),
        Key::new("Enter", "play from here: a new game from this position"),
        Key::new("i", "rules of this game"),
        Key::new("q", "quit (the game is autosaved)"),
    ],
    notes: REVIEW_NOTES,
};

/// What the help overlay says in review besides the keys.
pub const REVIEW_NOTES: &[&str] = &[
    "Stepping through the game changes nothing. A move tried (:) opens a side line where it \
     differs from the line; side lines, their promotion or deletion, comments (c), tags (t) and \
     an analysis (a) change the game: they are autosaved, and written to the game's file when \
     you save (s).",
    "The comment editor (c): Enter starts a new line, Ctrl-S or Alt-Enter keeps the comment, \
     Esc cancels (asking if it changed); a comment holds 4000 characters, an empty one is \
     removed. ¶ before a move in the list: it has a comment.",
    "Play from here starts a new game with its own record from the position shown; the game \
     reviewed stays as it is. The new game has no history before that position: repetitions \
     count from there.",
];

/// A move typed at the `:` prompt as the notation reads it: squares and `x` in lower case,
/// piece letters as typed (`Kd4-e4`, `Td3-d1`: OpenTafl's notation, where `T` and `t` are
/// different pieces), and the two squares joined by `-` when typed together (`c5c6`,
/// `Kd4e4`) or apart (`c5 c6`). Anything else is left for the parser to name.
pub fn typed_move(text: &str) -> String {
    let chars: Vec<char> = text.trim().chars().collect();
    let text: String = chars
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            if piece_letter(c, chars.get(i + 1).copied()) {
                c
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect();
    if let Some(end) = square_end(&text, true) {
        let rest = text[end..].trim_start();
        if square_end(rest, false).is_some() {
            return format!("{}-{rest}", &text[..end]);
        }
    }
    text
}

/// Whether `c`, followed by `next`, is a piece letter in front of a square (`K` in `Kd4`).
fn piece_letter(c: char, next: Option<char>) -> bool {
    Piece::from_letter(c).is_some() && next.is_some_and(|n| n.is_ascii_alphabetic())
}

/// Where a square at the start of `text` ends (a letter and a digit, after a piece letter if
/// `lettered`), if it starts with one.
fn square_end(text: &str, lettered: bool) -> Option<usize> {
    let mut chars = text.chars();
    let first = chars.next()?;
    let second = chars.next()?;
    let start = if lettered && piece_letter(first, Some(second)) {
        first.len_utf8()
    } else {
        0
    };
    let mut square = text[start..].chars();
    let file = square.next().filter(char::is_ascii_lowercase)?;
    let rank = square.next().filter(char::is_ascii_digit)?;
    Some(start + file.len_utf8() + rank.len_utf8())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEventState;

    fn key(code: KeyCode) -> Event {
        Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    fn ch(c: char) -> Event {
        key(KeyCode::Char(c))
    }

    #[test]
    fn board_keys_move_the_cursor_and_act() {
        let m = Mode::Board;
        assert_eq!(action(&ch('h'), m), Some(Action::Move(Direction::Left)));
        assert_eq!(action(&ch('j'), m), Some(Action::Move(Direction::Down)));
        assert_eq!(action(&ch('k'), m), Some(Action::Move(Direction::Up)));
        assert_eq!(action(&ch('l'), m), Some(Action::Move(Direction::Right)));
        assert_eq!(
            action(&key(KeyCode::Up), m),
            Some(Action::Move(Direction::Up))
        );
        assert_eq!(action(&key(KeyCode::Enter), m), Some(Action::Confirm));
        assert_eq!(action(&ch(' '), m), Some(Action::Confirm));
        assert_eq!(action(&key(KeyCode::Esc), m), Some(Action::Cancel));
        assert_eq!(action(&ch(':'), m), Some(Action::StartTyping));
        assert_eq!(action(&ch('u'), m), Some(Action::Undo));
        assert_eq!(action(&ch('q'), m), Some(Action::Quit));
        assert_eq!(action(&ch('?'), m), Some(Action::Help));
        assert_eq!(action(&ch('Z'), m), None);
    }

    #[test]
    fn every_listed_board_key_is_mapped() {
        for &Key { keys, .. } in BOARD_KEYS.keys {
            for k in keys.split(" / ") {
                if k.chars().count() == 1 {
                    let c = k.chars().next().unwrap();
                    assert!(action(&ch(c), Mode::Board).is_some(), "{k}");
                }
            }
        }
    }

    #[test]
    fn review_keys_step_jump_and_leave() {
        let m = Mode::Review;
        assert_eq!(action(&ch('v'), Mode::Board), Some(Action::Review));
        assert_eq!(action(&ch('v'), m), Some(Action::Review));
        assert_eq!(action(&key(KeyCode::Home), m), Some(Action::ToStart));
        assert_eq!(action(&key(KeyCode::End), m), Some(Action::ToEnd));
        assert_eq!(action(&key(KeyCode::Home), Mode::Board), None);
        assert_eq!(action(&key(KeyCode::PageUp), m), Some(Action::PageUp));
        assert_eq!(action(&ch('l'), m), Some(Action::ToggleLegend));
        assert_eq!(
            action(&key(KeyCode::Left), m),
            Some(Action::Move(Direction::Left))
        );
        assert_eq!(action(&key(KeyCode::Enter), m), Some(Action::Confirm));
        assert_eq!(action(&key(KeyCode::Esc), m), Some(Action::Cancel));
        assert_eq!(action(&ch('a'), m), Some(Action::Analyze));
        assert_eq!(action(&ch('a'), Mode::Board), Some(Action::Analyze));
        assert_eq!(
            action(&ch('s'), m),
            Some(Action::Save),
            "saving changes no move"
        );
        assert_eq!(action(&ch('c'), m), Some(Action::Comment));
        assert_eq!(action(&ch('t'), m), Some(Action::Tags));
        assert_eq!(action(&ch('c'), Mode::Board), Some(Action::Chat));
        for c in ['u', 'r', 'x', ' '] {
            assert_eq!(
                action(&ch(c), m),
                None,
                "{c} changes the game: not in review"
            );
        }
        // Side lines: a move tried opens one; into, out of, promote, delete.
        for (c, side_line) in [
            (':', Action::StartTyping),
            (']', Action::IntoLine),
            ('[', Action::OutOfLine),
            ('n', Action::NextMistake),
            ('N', Action::PreviousMistake),
            ('P', Action::Promote),
            ('D', Action::Delete),
        ] {
            assert_eq!(action(&ch(c), m), Some(side_line), "{c}");
        }
        for &Key { keys, .. } in REVIEW_KEYS.keys {
            for k in keys.split_whitespace() {
                if k.chars().count() == 1 && k != "/" {
                    let c = k.chars().next().unwrap();
                    if c.is_ascii() {
                        assert!(action(&ch(c), m).is_some(), "{k}");
                    }
                }
            }
        }
    }

    #[test]
    fn text_mode_types_letters_that_are_keys_elsewhere() {
        assert_eq!(action(&ch('q'), Mode::Text), Some(Action::Type('q')));
        assert_eq!(action(&ch('d'), Mode::Text), Some(Action::Type('d')));
        assert_eq!(
            action(&key(KeyCode::Backspace), Mode::Text),
            Some(Action::Backspace)
        );
        assert_eq!(
            action(&key(KeyCode::Enter), Mode::Text),
            Some(Action::Confirm)
        );
        assert_eq!(action(&key(KeyCode::Esc), Mode::Text), Some(Action::Cancel));
        let ctrl_u = Event::Key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
        assert_eq!(action(&ctrl_u, Mode::Text), Some(Action::ClearField));
        assert_eq!(action(&ctrl_u, Mode::Board), None);
    }

    #[test]
    fn the_editor_types_enter_as_a_new_line_and_saves_on_ctrl_s_or_alt_enter() {
        let m = Mode::Editor;
        let with = |code, modifiers| Event::Key(KeyEvent::new(code, modifiers));
        assert_eq!(action(&ch('q'), m), Some(Action::Type('q')));
        assert_eq!(action(&key(KeyCode::Enter), m), Some(Action::Type('\n')));
        assert_eq!(
            action(&with(KeyCode::Enter, KeyModifiers::ALT), m),
            Some(Action::Save)
        );
        assert_eq!(
            action(&with(KeyCode::Char('s'), KeyModifiers::CONTROL), m),
            Some(Action::Save)
        );
        assert_eq!(
            action(&with(KeyCode::Char('s'), KeyModifiers::CONTROL), Mode::Text),
            None
        );
        assert_eq!(action(&key(KeyCode::Home), m), Some(Action::ToStart));
        assert_eq!(
            action(&key(KeyCode::Delete), m),
            Some(Action::DeleteForward)
        );
        assert_eq!(action(&key(KeyCode::Esc), m), Some(Action::Cancel));
    }

    #[test]
    fn text_pasted_is_typed_where_text_is_written_only() {
        let paste = Event::Paste("a\tb\r\nc\u{1b}".to_owned());
        let typed = |mode| -> String {
            actions(&paste, mode)
                .into_iter()
                .map(|a| match a {
                    Action::Type(c) => c,
                    other => panic!("{other:?}"),
                })
                .collect()
        };
        assert_eq!(typed(Mode::Editor), "a b\nc");
        assert_eq!(typed(Mode::Text), "a b c");
        assert_eq!(typed(Mode::Board), "");
        assert_eq!(actions(&ch('u'), Mode::Board), [Action::Undo]);
    }

    #[test]
    fn questions_take_y_n_and_s_only() {
        assert_eq!(action(&ch('y'), Mode::Question), Some(Action::Yes));
        assert_eq!(action(&ch('N'), Mode::Question), Some(Action::No));
        assert_eq!(action(&ch('s'), Mode::Question), Some(Action::Save));
        assert_eq!(action(&ch('q'), Mode::Question), None);
        assert_eq!(
            action(&key(KeyCode::Esc), Mode::Question),
            Some(Action::Cancel)
        );
    }

    #[test]
    fn ctrl_c_interrupts_and_ctrl_z_suspends_in_every_mode_and_releases_are_ignored() {
        let ctrl_c = Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
        let ctrl_z = Event::Key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL));
        for m in [
            Mode::Board,
            Mode::Menu,
            Mode::Text,
            Mode::Question,
            Mode::Review,
        ] {
            assert_eq!(action(&ctrl_c, m), Some(Action::Interrupt));
            assert_eq!(action(&ctrl_z, m), Some(Action::Suspend));
        }
        let release = Event::Key(KeyEvent {
            code: KeyCode::Char('q'),
            modifiers: KeyModifiers::NONE,
            kind: KeyEventKind::Release,
            state: KeyEventState::NONE,
        });
        assert_eq!(action(&release, Mode::Board), None);
    }

    #[test]
    fn left_clicks_carry_their_cell() {
        let click = |kind| {
            Event::Mouse(MouseEvent {
                kind,
                column: 12,
                row: 5,
                modifiers: KeyModifiers::NONE,
            })
        };
        assert_eq!(
            action(&click(MouseEventKind::Down(MouseButton::Left)), Mode::Board),
            Some(Action::Click { column: 12, row: 5 })
        );
        assert_eq!(
            action(
                &click(MouseEventKind::Down(MouseButton::Right)),
                Mode::Board
            ),
            Some(Action::Cancel),
            "a right click cancels the selection"
        );
        for mode in [Mode::Menu, Mode::Question, Mode::Text, Mode::Review] {
            let right = click(MouseEventKind::Down(MouseButton::Right));
            assert_eq!(action(&right, mode), None, "{mode:?}");
        }
        assert_eq!(action(&click(MouseEventKind::Moved), Mode::Board), None);
    }

    #[test]
    fn typed_moves_keep_piece_letters_and_join_squares() {
        for (typed, read) in [
            ("c5c6", "c5-c6"),
            ("c5 c6", "c5-c6"),
            ("  C5-C6 ", "c5-c6"),
            ("D1D2XC2", "d1-d2xc2"),
            ("Kd4-e4", "Kd4-e4"),
            ("Kd4e4", "Kd4-e4"),
            ("Kd4 e4", "Kd4-e4"),
            ("KD4-E4", "Kd4-e4"),
            ("Td3-d1xtc1", "Td3-d1xtc1"),
            ("d3-d1XKc1", "d3-d1xKc1"),
            ("td2-c2", "td2-c2"),
            ("kd4-e4", "kd4-e4"),
            ("K", "k"),
            ("z", "z"),
            ("é5c6", "é5c6"),
            ("", ""),
        ] {
            assert_eq!(typed_move(typed), read, "{typed}");
        }
    }
}
