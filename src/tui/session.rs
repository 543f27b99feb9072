//! The one place the terminal game reaches the game record and its storage: the game in play,
//! the file it belongs to, and the autosave. Everything else in the interface goes through here.

use std::path::{Path, PathBuf};

use crate::game::import::Format;
use crate::game::storage::{self, ListError, SaveEntry, SaveError};
use crate::game::{AlreadyOver, Game, LoadError, Player};
use crate::rules::{
    AnnotatedMove, GameState, IllegalMove, Move, MoveError, Outcome, Position, Preset, Rules, Side,
};

/// Where games are kept: the save folder and the autosave file (either may be unknown, for
/// example without a home folder; tests use their own).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Storage {
    /// The folder saves are offered in and listed from.
    pub save_dir: Option<PathBuf>,
    /// The file the game in play is autosaved to after every change.
    pub autosave: Option<PathBuf>,
}

impl Storage {
    /// The default places: `storage::default_save_dir` and `storage::autosave_path`.
    pub fn default_places() -> Storage {
        Storage {
            save_dir: storage::default_save_dir().ok(),
            autosave: storage::autosave_path().ok(),
        }
    }

    /// Saves, their listing and the autosave all in `dir`.
    pub fn in_dir(dir: PathBuf) -> Storage {
        Storage {
            autosave: Some(dir.join(storage::AUTOSAVE_FILE)),
            save_dir: Some(dir),
        }
    }
}

/// A game in progress and the file it was last saved to or loaded from.
#[derive(Clone, Debug)]
pub struct Session {
    game: Game,
    file: Option<PathBuf>,
}

impl Session {
    /// A new game under `rules` from `start`.
    pub fn new(rules: Rules, start: Position, attackers: Player, defenders: Player) -> Session {
        Session::from_game(Game::new(rules, start, attackers, defenders))
    }

    /// The session of a game that belongs to no file yet.
    pub const fn from_game(game: Game) -> Session {
        Session { game, file: None }
    }

    /// Loads the game at `path`. A game read from another program's record (an OpenTafl
    /// record, a move record) belongs to no file: saving it writes a new save, never over
    /// the record.
    pub fn load(path: &Path) -> Result<Session, LoadError> {
        let (game, format) = storage::load_with_format(path)?;
        Ok(Session {
            game,
            file: (format == Format::Json).then(|| path.to_owned()),
        })
    }

    /// The same game, belonging to no file (a game continued from the autosave is saved
    /// under a new name).
    #[must_use]
    pub fn without_file(self) -> Session {
        Session::from_game(self.game)
    }

    /// The game record.
    pub const fn game(&self) -> &Game {
        &self.game
    }

    /// The file the game was last saved to or loaded from.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The rule preset, or `None` for custom rules.
    pub fn preset(&self) -> Option<Preset> {
        self.game.preset()
    }

    /// The position, rules and outcome so far.
    pub const fn state(&self) -> &GameState {
        self.game.state()
    }

    /// The moves played, annotated.
    pub fn moves(&self) -> &[AnnotatedMove] {
        self.game.moves()
    }

    /// Who plays `side`.
    pub const fn player(&self, side: Side) -> Player {
        self.game.players().side(side)
    }

    /// The side to move (also once the game is over: the side that would move).
    pub fn side_to_move(&self) -> Side {
        self.game.state().position().side_to_move()
    }

    /// The outcome, once the game is over.
    pub const fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    /// Plays a legal move.
    pub fn play(&mut self, mv: Move) -> Result<AnnotatedMove, IllegalMove> {
        self.game.play(mv)
    }

    /// Plays a move typed as text (annotations are checked).
    pub fn play_text(&mut self, text: &str) -> Result<AnnotatedMove, MoveError> {
        self.game.play_text(text)
    }

    /// Takes back the last move or off-board ending; false if there is none.
    pub fn undo(&mut self) -> bool {
        self.game.undo()
    }

    /// Plays again the last move taken back; false if there is none.
    pub fn redo(&mut self) -> bool {
        self.game.redo()
    }

    /// `side` resigns: the opponent wins.
    pub fn resign(&mut self, side: Side) -> Result<(), AlreadyOver> {
        self.game.resign(side)
    }

    /// Both players agree to a draw.
    pub fn agree_draw(&mut self) -> Result<(), AlreadyOver> {
        self.game.agree_draw()
    }

    /// Saves the game to `path` atomically; the game then belongs to that file.
    pub fn save(&mut self, path: &Path) -> Result<(), SaveError> {
        storage::save_atomic(path, &self.game)?;
        self.file = Some(path.to_owned());
        Ok(())
    }

    /// Writes the game to the autosave file `path` (the game keeps its own file).
    pub fn autosave(&self, path: &Path) -> Result<(), SaveError> {
        storage::save_atomic(path, &self.game)
    }

    /// The file a save is offered to: the game's own file, or a new name in `dir`.
    pub fn save_path(&self, dir: &Path) -> PathBuf {
        self.file
            .clone()
            .unwrap_or_else(|| storage::new_save_path(dir, &self.game))
    }
}

/// The saved games in `dir`, newest first.
pub fn saves(dir: &Path) -> Result<Vec<SaveEntry>, ListError> {
    storage::list_saves(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_game_loads_back_and_keeps_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Session::new(
            Preset::Walker.rules(),
            Position::start(),
            Player::Human,
            Player::Human,
        );
        s.play_text("d2-e2").unwrap();
        let path = s.save_path(dir.path());
        assert!(path.starts_with(dir.path()));
        s.save(&path).unwrap();
        assert_eq!(s.file(), Some(path.as_path()));
        assert_eq!(s.save_path(dir.path()), path);
        let back = Session::load(&path).unwrap();
        assert_eq!(back.state(), s.state());
        assert_eq!(back.preset(), Some(Preset::Walker));
        let listed = saves(dir.path()).unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].path, path);
    }

    #[test]
    fn a_game_from_another_programs_record_is_saved_under_a_new_name() {
        let dir = tempfile::tempdir().unwrap();
        let record = dir.path().join("club.otg");
        std::fs::write(
            &record,
            "[rules:dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n1. d2-e2 c4-c5\n",
        )
        .unwrap();
        let before = std::fs::read(&record).unwrap();
        let mut s = Session::load(&record).unwrap();
        assert_eq!(s.preset(), Some(Preset::OpenTafl));
        assert_eq!(s.moves().len(), 2);
        assert_eq!(s.file(), None);
        let path = s.save_path(dir.path());
        assert_ne!(path, record);
        s.save(&path).unwrap();
        assert_eq!(
            std::fs::read(&record).unwrap(),
            before,
            "the record is untouched"
        );
        let mut listed: Vec<String> = saves(dir.path())
            .unwrap()
            .into_iter()
            .map(|e| e.name)
            .collect();
        listed.sort();
        assert_eq!(listed.len(), 2);
        assert_eq!(listed[0], "club.otg");
        assert!(listed[1].starts_with("game-"), "{listed:?}");
    }

    #[test]
    fn an_autosave_does_not_change_the_games_file() {
        let dir = tempfile::tempdir().unwrap();
        let s = Session::new(
            Preset::Standard.rules(),
            Position::start(),
            Player::Human,
            Player::Human,
        );
        let auto = dir.path().join("autosave.json");
        s.autosave(&auto).unwrap();
        assert!(auto.is_file());
        assert_eq!(s.file(), None);
    }
}
