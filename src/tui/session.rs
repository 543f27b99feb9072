//! The one place the terminal game reaches the game record and its storage: the game in play,
//! and its files ([`GameFiles`]: the file it belongs to, the record it was read from, the
//! autosave). Everything else in the interface goes through here. The app keeps the session;
//! the storage thread (`tui::storage`) keeps each game's files and does all the writing, so the
//! app's copy of them only names them.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::game::import::Format;
use crate::game::storage::{
    self, Autosave, FileVersion, Loaded, SaveEntry, SaveError, SaveKind, SaveSummary,
};
use crate::game::{
    AlreadyOver, AnalysisError, Clocks, Game, LoadError, Player, PlyAnalysis, TimeControl,
};
use crate::rules::{
    AnnotatedMove, GameState, IllegalMove, Move, MoveError, Outcome, Position, Preset, Rules, Side,
};

/// Where games are kept: the save folder (unknown without a home folder, for example; tests
/// use their own). Saves are offered in and listed from it, and every game is autosaved in
/// its autosave folder. The summaries the list of saves shows are kept in an index file, if
/// there is one, so that the list opens at once in a new run too.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Storage {
    /// The save folder.
    pub save_dir: Option<PathBuf>,
    /// The index of the saves' summaries (in the cache folder), if any.
    pub summaries_index: Option<PathBuf>,
    /// The puzzle trainer's progress file (in the data folder), if any.
    pub puzzle_progress: Option<PathBuf>,
}

impl Storage {
    /// The default places: `storage::default_save_dir` and `storage::default_index_path`.
    pub fn default_places() -> Storage {
        Storage {
            save_dir: storage::default_save_dir().ok(),
            summaries_index: storage::default_index_path(),
            puzzle_progress: super::progress_file::progress_path(),
        }
    }

    /// Saves, their listing and the autosaves all in `dir`, the summaries kept in memory
    /// only, no puzzle progress kept.
    pub const fn in_dir(dir: PathBuf) -> Storage {
        Storage {
            save_dir: Some(dir),
            summaries_index: None,
            puzzle_progress: None,
        }
    }
}

/// A game in progress and its files.
#[derive(Clone, Debug)]
pub struct Session {
    game: Game,
    files: GameFiles,
}

/// The files of a game: the file it was last saved to or loaded from, the other program's
/// record it was read from, and its autosave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFiles {
    file: Option<PathBuf>,
    /// The version of `file` this game last read or wrote: a save over it asks first if
    /// another program (another copy of the game) has written it since.
    seen: Option<FileVersion>,
    /// The other program's record the game was read from: it holds the game as loaded, and
    /// is never written.
    record: Option<PathBuf>,
    autosave: Autosave,
}

impl Session {
    /// A new game under `rules` from `start`.
    pub fn new(rules: Rules, start: Position, attackers: Player, defenders: Player) -> Session {
        Session::from_game(Game::new(rules, start, attackers, defenders))
    }

    /// The session of a game that belongs to no file yet.
    pub fn from_game(game: Game) -> Session {
        Session {
            game,
            files: GameFiles::default(),
        }
    }

    /// Loads the game at `path`; a save belongs to that file. A game read from another
    /// program's record (an OpenTafl record, a move record) belongs to no file: saving it
    /// writes a new save, never over the record.
    pub fn load(path: &Path) -> Result<Session, LoadError> {
        let Loaded {
            game,
            format,
            version,
        } = storage::load_with_format(path)?;
        let (file, record) = if format == Format::Json {
            (Some(path.to_owned()), None)
        } else {
            (None, Some(path.to_owned()))
        };
        Ok(Session {
            game,
            files: GameFiles {
                seen: file.is_some().then_some(version),
                file,
                record,
                autosave: Autosave::new(),
            },
        })
    }

    /// Loads a listed save: a named save belongs to its file; a game continued from an
    /// autosave belongs to no file and moves to an autosave of its own (see [`Autosave`]).
    pub fn open(entry: &SaveEntry) -> Result<Session, LoadError> {
        Session::open_save(&entry.path, entry.kind, entry.modified)
    }

    /// Loads the save at `path` written by `kind`, last written at `modified` as listed: see
    /// [`Session::open`].
    pub fn open_save(
        path: &Path,
        kind: SaveKind,
        modified: Option<SystemTime>,
    ) -> Result<Session, LoadError> {
        match kind {
            SaveKind::Named => Session::load(path),
            SaveKind::Autosave => Ok(Session {
                game: storage::load(path)?,
                files: GameFiles {
                    autosave: Autosave::continuing(path.to_owned(), modified),
                    ..GameFiles::default()
                },
            }),
        }
    }

    /// The game record.
    pub const fn game(&self) -> &Game {
        &self.game
    }

    /// The game record to change in place: its side lines, promoted or deleted in review.
    pub const fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// The game's files as the session began (the storage thread keeps them from then on).
    pub const fn files(&self) -> &GameFiles {
        &self.files
    }

    /// The file the game was last saved to or loaded from.
    pub fn file(&self) -> Option<&Path> {
        self.files.file.as_deref()
    }

    /// Whether a file holds the game as it was loaded: its own save, or the other program's
    /// record it was read from (an autosave continued does not count: it is no file of the
    /// game's own).
    pub fn is_held_in_a_file(&self) -> bool {
        self.held_in().is_some()
    }

    /// The file that holds the game as it was loaded (see [`Session::is_held_in_a_file`]).
    pub fn held_in(&self) -> Option<&Path> {
        self.files.file().or(self.files.record.as_deref())
    }

    /// The game now belongs to the file at `path`, which the storage thread saved it to.
    pub fn saved_to(&mut self, path: PathBuf) {
        self.files.file = Some(path);
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

    /// Who plays `side` here: a person takes the side of another program (in a game a
    /// match recorded), so the game can be played on.
    pub const fn player(&self, side: Side) -> Player {
        match self.game.players().side(side) {
            Player::Program => Player::Human,
            player => player,
        }
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

    /// Records the analysis of the move at index `ply` (from 0); it is checked against the
    /// game as a loaded one is.
    pub fn set_analysis(
        &mut self,
        ply: usize,
        analysis: &PlyAnalysis,
    ) -> Result<(), AnalysisError> {
        self.game.set_analysis(ply, analysis)
    }

    /// `side` resigns: the opponent wins.
    pub fn resign(&mut self, side: Side) -> Result<(), AlreadyOver> {
        self.game.resign(side)
    }

    /// Both players agree to a draw.
    pub fn agree_draw(&mut self) -> Result<(), AlreadyOver> {
        self.game.agree_draw()
    }

    /// Plays the game on `control`'s clocks, both full (`None`: on no clock).
    #[must_use]
    pub fn with_clocks(mut self, control: Option<TimeControl>) -> Session {
        if let Some(control) = control {
            self.game.set_clocks(Clocks::new(control));
        }
        self
    }

    /// The clocks, if the game is played on a time control.
    pub const fn clocks(&self) -> Option<&Clocks> {
        self.game.clocks()
    }

    /// Runs the clock of the side to move for `elapsed`; returns whether its flag fell (the
    /// game is then lost on time).
    pub fn spend_time(&mut self, elapsed: Duration) -> bool {
        self.game.spend_time(elapsed)
    }

    /// The folder a save is offered in: the folder of the game's own file, or `save_dir`.
    pub fn save_folder(&self, save_dir: Option<&Path>) -> Option<PathBuf> {
        match self.file().and_then(Path::parent) {
            Some(parent) if parent.as_os_str().is_empty() => Some(PathBuf::from(".")),
            Some(parent) => Some(parent.to_owned()),
            None => save_dir.map(Path::to_owned),
        }
    }

    /// The name a save is offered under: the game's own file's, if it has one (else the
    /// storage thread finds a new one, [`new_save_name`]).
    pub fn own_save_name(&self) -> Option<String> {
        self.file().map(file_stem)
    }
}

impl GameFiles {
    /// The file the game was last saved to or loaded from.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Saves `game` to `path`: replacing the file if it is the game's own and still as this
    /// game last read or wrote it, as a new file otherwise. A file left alone says why:
    /// another file of that name exists ([`SaveError::already_exists`]), or another program
    /// wrote the game's own since ([`SaveError::changed_since_seen`]). The game then belongs
    /// to that file, and its autosave is not needed any more.
    pub fn save(&mut self, path: &Path, game: &Game) -> Result<FileVersion, SaveError> {
        let version = match self.seen.filter(|_| self.is_own_file(path)) {
            Some(seen) => storage::save_over_seen(path, game, seen)?,
            None => storage::save_new(path, game)?,
        };
        self.saved_to(path, version);
        Ok(version)
    }

    /// Saves `game` to `path`, replacing the file there (the player agreed to).
    pub fn replace(&mut self, path: &Path, game: &Game) -> Result<FileVersion, SaveError> {
        let version = storage::save_atomic(path, game)?;
        self.saved_to(path, version);
        Ok(version)
    }

    fn saved_to(&mut self, path: &Path, version: FileVersion) {
        self.file = Some(path.to_owned());
        self.seen = Some(version);
        self.autosave.discard();
    }

    /// Whether `path` is the file the game was last saved to or loaded from.
    pub fn is_own_file(&self, path: &Path) -> bool {
        let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_owned());
        self.file
            .as_deref()
            .is_some_and(|file| file == path || absolute(file) == absolute(path))
    }

    /// Writes `game` to its own autosave file in the autosave folder of `save_dir` (the
    /// game keeps its file).
    pub fn autosave(&mut self, save_dir: &Path, game: &Game) -> Result<(), SaveError> {
        self.autosave.write(save_dir, game)
    }

    /// The files that hold this game: its own, the record it was read from, its autosave, and
    /// the autosave it was continued from.
    pub fn paths(&self) -> Vec<&Path> {
        [
            self.file(),
            self.record.as_deref(),
            self.autosave.file(),
            self.autosave.continued_from(),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

/// The name of the file at `path` as a save is offered under: without its extension.
fn file_stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A name no file in `dir` has, to offer a save of `game` under (`game-20261129-141339`).
pub fn new_save_name(dir: &Path, game: &Game) -> String {
    file_stem(&storage::new_save_path(dir, game))
}

/// What the save at `path` holds, in words, or why it does not load.
pub fn describe(path: &Path) -> String {
    match SaveSummary::read(path) {
        Ok(summary) => summary.to_string(),
        Err(e) => format!("a file that does not load ({e})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::storage::AUTOSAVE_DIR;

    /// What the storage thread does with a game's files, done here at once.
    impl Session {
        fn save(&mut self, path: &Path) -> Result<FileVersion, SaveError> {
            self.files.save(path, &self.game)
        }

        fn replace(&mut self, path: &Path) -> Result<FileVersion, SaveError> {
            self.files.replace(path, &self.game)
        }

        fn autosave(&mut self, save_dir: &Path) -> Result<(), SaveError> {
            self.files.autosave(save_dir, &self.game)
        }

        fn save_name(&self, dir: &Path) -> String {
            self.own_save_name()
                .unwrap_or_else(|| new_save_name(dir, &self.game))
        }

        fn is_own_file(&self, path: &Path) -> bool {
            self.files.is_own_file(path)
        }

        fn paths(&self) -> Vec<&Path> {
            self.files.paths()
        }
    }

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
        let name = s.save_name(dir.path());
        assert!(name.starts_with("game-"), "{name}");
        let path = dir.path().join(format!("{name}.json"));
        s.save(&path).unwrap();
        assert_eq!(s.file(), Some(path.as_path()));
        assert_eq!(s.save_name(dir.path()), name);
        assert_eq!(s.save_folder(None).as_deref(), Some(dir.path()));
        assert!(s.is_own_file(&dir.path().join(".").join(format!("{name}.json"))));
        assert!(!s.is_own_file(&dir.path().join("other.json")));
        // Saving again to its own file replaces it without a question.
        s.play_text("d3-c3").unwrap();
        s.save(&path).unwrap();
        let back = Session::load(&path).unwrap();
        assert_eq!(back.state(), s.state());
        assert_eq!(back.preset(), Some(Preset::Walker));
        let listed = storage::list_saves(dir.path()).unwrap();
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
        assert_eq!(s.save_folder(Some(dir.path())).as_deref(), Some(dir.path()));
        let path = dir.path().join(format!("{}.json", s.save_name(dir.path())));
        assert_ne!(path, record);
        s.save(&path).unwrap();
        assert_eq!(
            std::fs::read(&record).unwrap(),
            before,
            "the record is untouched"
        );
        let mut listed: Vec<String> = storage::list_saves(dir.path())
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
    fn another_file_is_never_replaced_without_asking() {
        let dir = tempfile::tempdir().unwrap();
        let other = dir.path().join("other.json");
        let mut first = Session::new(
            Preset::Standard.rules(),
            Position::start(),
            Player::Human,
            Player::Human,
        );
        first.play_text("d2-c2").unwrap();
        first.save(&other).unwrap();
        let mut second = Session::new(
            Preset::Standard.rules(),
            Position::start(),
            Player::Human,
            Player::Human,
        );
        second.play_text("d2-e2").unwrap();
        assert!(second.save(&other).unwrap_err().already_exists());
        assert_eq!(second.file(), None);
        assert_eq!(Session::load(&other).unwrap().moves(), first.moves());
        second.replace(&other).unwrap();
        assert_eq!(Session::load(&other).unwrap().moves(), second.moves());
        assert_eq!(second.file(), Some(other.as_path()));
    }

    #[test]
    fn a_save_over_its_own_file_asks_when_another_game_wrote_it_since() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shared.json");
        let new = |mv: &str| {
            let mut s = Session::new(
                Preset::Standard.rules(),
                Position::start(),
                Player::Human,
                Player::Human,
            );
            s.play_text(mv).unwrap();
            s
        };
        // Two copies of the game: the first saves under a name, the second is asked and
        // replaces it.
        let mut first = new("d2-c2");
        let mut second = new("d2-e2");
        first.save(&path).unwrap();
        assert!(second.save(&path).unwrap_err().already_exists());
        second.replace(&path).unwrap();
        // The first saves again to what it takes for its own file: it is asked too.
        first.play_text("d3-c3").unwrap();
        let err = first.save(&path).unwrap_err();
        assert!(err.changed_since_seen() && !err.already_exists(), "{err}");
        assert!(err.to_string().contains("changed since"), "{err}");
        assert_eq!(Session::load(&path).unwrap().moves(), second.moves());
        // Agreed, it replaces the file, and later saves of its own go without a question.
        first.replace(&path).unwrap();
        first.play_text("d1-d2").unwrap();
        first.save(&path).unwrap();
        assert_eq!(Session::load(&path).unwrap().moves(), first.moves());
        // A game loaded from the file is asked too once the file changes after the load.
        let mut loaded = Session::load(&path).unwrap();
        first.play_text("c4-c5").unwrap();
        first.save(&path).unwrap();
        loaded.play_text("e4-e5").unwrap();
        assert!(loaded.save(&path).unwrap_err().changed_since_seen());
    }

    #[test]
    fn autosaves_keep_the_games_file_and_go_once_it_is_saved() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Session::new(
            Preset::Standard.rules(),
            Position::start(),
            Player::Human,
            Player::Human,
        );
        s.play_text("d2-c2").unwrap();
        s.autosave(dir.path()).unwrap();
        assert_eq!(s.file(), None);
        let auto = s.paths()[0].to_owned();
        assert!(auto.starts_with(dir.path().join(AUTOSAVE_DIR)));
        let listed = storage::list_saves(dir.path()).unwrap();
        assert_eq!(listed[0].kind, SaveKind::Autosave);
        // Continued from the list, the game moves to an autosave of its own.
        let mut continued = Session::open(&listed[0]).unwrap();
        assert_eq!(continued.file(), None);
        assert_eq!(continued.paths(), [auto.as_path()]);
        continued.play_text("d3-e3").unwrap();
        continued.autosave(dir.path()).unwrap();
        assert!(!auto.exists());
        let path = dir.path().join("kept.json");
        continued.save(&path).unwrap();
        assert_eq!(continued.paths(), [path.as_path()], "no autosave left");
        assert_eq!(storage::list_saves(dir.path()).unwrap().len(), 1);
    }
}
