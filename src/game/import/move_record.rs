//! Plain move records in our notation, OpenTafl's or the archive's: tokens separated by
//! white space, turn numbers skipped, played one by one on a game.

use crate::game::load_error::{RecordError, RecordErrorKind};
use crate::game::player::Player;
use crate::game::record::Game;
use crate::game::save_format::MAX_PLIES;
use crate::rules::{IllegalMove, MoveError, Position, Preset, RecordEntry};

/// A plain move record: a `standard` game from the standard start, human against human.
pub(super) fn read_move_record(text: &str) -> Result<Game, RecordError> {
    let mut game = Game::new(
        Preset::Standard.rules(),
        Position::start(),
        Player::Human,
        Player::Human,
    );
    let entries = lines(text).enumerate().flat_map(|(i, line)| {
        line.split_whitespace()
            .filter(|token| !is_turn_number(token))
            .map(move |token| (i + 1, token))
    });
    play_entries(&mut game, entries)?;
    Ok(game)
}

/// The lines of `text` as an editor shows them, whatever their ending: `\n`, `\r\n`, or a
/// lone `\r` (old Mac files). As with [`str::lines`], a final ending starts no empty line.
pub(super) fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text).filter(|t| !t.is_empty());
    std::iter::from_fn(move || {
        let current = rest?;
        let Some(end) = current.find(['\r', '\n']) else {
            rest = None;
            return Some(current);
        };
        let ending = if current[end..].starts_with("\r\n") {
            2
        } else {
            1
        };
        rest = Some(&current[end + ending..]).filter(|r| !r.is_empty());
        Some(&current[..end])
    })
}

/// Plays the moves of a move record on `game`: tokens separated by white space, turn numbers
/// (`1.`) skipped, with `---` (the side to move resigns) and `timeout` (the side to move
/// loses on time) ending the game. On an error the game keeps the moves before it.
pub fn play_record(game: &mut Game, text: &str) -> Result<(), RecordErrorKind> {
    let entries = text
        .split_whitespace()
        .filter(|token| !is_turn_number(token))
        .map(|token| (1, token));
    play_entries(game, entries).map_err(|e| e.kind)
}

/// Whether `token` is a turn number of the main line: digits and a period (`12.`).
pub(super) fn is_turn_number(token: &str) -> bool {
    token
        .strip_suffix('.')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Plays record entries, each with its line, on `game`.
fn play_entries<'a>(
    game: &mut Game,
    entries: impl IntoIterator<Item = (usize, &'a str)>,
) -> Result<(), RecordError> {
    for (line, text) in entries {
        play_entry(game, text).map_err(|kind| RecordError { line, kind })?;
    }
    Ok(())
}

/// Plays one record entry: a move (annotations checked), `---` or `timeout`.
pub(super) fn play_entry(game: &mut Game, text: &str) -> Result<(), RecordErrorKind> {
    let number = game.moves().len() + 1;
    let error = |error| RecordErrorKind::Move {
        number,
        text: text.to_owned(),
        error,
    };
    let side = game.state().position().side_to_move();
    let ended = match text.parse::<RecordEntry>() {
        Ok(RecordEntry::Move(_)) | Err(_) => {
            if game.moves().len() >= MAX_PLIES {
                return Err(RecordErrorKind::TooManyMoves);
            }
            return game.play_text(text).map(drop).map_err(error);
        }
        Ok(RecordEntry::Resignation) => game.resign(side),
        Ok(RecordEntry::Timeout) => game.lose_on_time(side),
    };
    ended.map_err(|_| error(MoveError::Illegal(IllegalMove::GameOver)))
}
