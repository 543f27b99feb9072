//! `brandubh play` (and `brandubh` alone): the terminal game.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::builder::{EnumValueParser, TypedValueParser};
use clap::{Args, ValueEnum};

use super::error::CliError;
use crate::game::storage::{SAVE_DIR_ENV, latest_unfinished};
use crate::game::{Player, TimeControl, parse_start, player_usage};
use crate::quote::excerpt;
use crate::rules::{Position, Preset};
use crate::tui::online_memory::OnlineMemory;
use crate::tui::{
    self, Config, Look, Session, Settings, SettingsFile, Storage, ThemeName, settings,
};

/// The help of `--attackers` and `--defenders`: the players, listed from the engine registry.
fn player_help(side: &str) -> String {
    format!(
        "Who plays the {side}: {} (TIME is a move's; a clock may shorten it, never lengthen it)",
        player_usage()
    )
}

/// The colour schemes as `--theme` names them ([`ThemeName`]: the terminal game knows nothing
/// of the command line).
#[derive(Copy, Clone, Debug, ValueEnum)]
enum ThemeChoice {
    /// Warm wooden board.
    Default,
    /// Black and white board with bright, saturated marks.
    HighContrast,
}

impl From<ThemeChoice> for ThemeName {
    fn from(choice: ThemeChoice) -> ThemeName {
        match choice {
            ThemeChoice::Default => ThemeName::Default,
            ThemeChoice::HighContrast => ThemeName::HighContrast,
        }
    }
}

/// Arguments of `brandubh play`.
#[derive(Args, Debug, Clone, Default)]
pub struct PlayArgs {
    /// Rule preset (skips the new-game screen).
    #[arg(long, value_parser = super::parsers::preset_parser())]
    pub rules: Option<Preset>,
    /// Who plays the attackers (see `player_help`).
    #[arg(long, value_name = "PLAYER", help = player_help("attackers"))]
    pub attackers: Option<Player>,
    /// Who plays the defenders (see `player_help`).
    #[arg(long, value_name = "PLAYER", help = player_help("defenders"))]
    pub defenders: Option<Player>,
    /// Play on a clock (skips the new-game screen): main time, `+` an increment after each
    /// move, `/` overtime periods; e.g. 5m, 5m+3s, 10m/3x30s; or days per move, 3d/move.
    #[arg(long, value_name = "CONTROL")]
    pub clock: Option<TimeControl>,
    /// Start from this position (skips the new-game screen): rank 1 first, then the side to
    /// move, e.g. "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a".
    #[arg(long, value_name = "POS")]
    pub position: Option<String>,
    /// Continue the game in FILE (a saved game, an OpenTafl `.otg` record or a move record).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["resume", "rules", "attackers", "defenders", "position", "clock"])]
    pub load: Option<PathBuf>,
    /// Continue the latest unfinished game in the save folder (autosaved or saved).
    #[arg(long, conflicts_with_all = ["rules", "attackers", "defenders", "position", "clock"])]
    pub resume: bool,
    /// Folder for saves and autosaves (instead of `BRANDUBH_SAVE_DIR` or the data folder).
    #[arg(long, value_name = "DIR")]
    pub save_dir: Option<PathBuf>,
    /// ASCII only, for terminals without good Unicode (`--ascii=false` for Unicode again;
    /// remembered).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
    pub ascii: Option<bool>,
    /// Colour theme (colours are off when `NO_COLOR` is set; remembered).
    #[arg(long, value_parser = EnumValueParser::<ThemeChoice>::new().map(ThemeName::from))]
    pub theme: Option<ThemeName>,
    /// Ring the terminal's bell when the AI has moved and when a game ends (`b` toggles it;
    /// `--bell=false` for none; remembered).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
    pub bell: Option<bool>,
}

impl PlayArgs {
    /// The game's settings, with games saved in `storage` and choices remembered in the file
    /// at `settings` (if any). A toggle the command line does not give (theme, ASCII, bell)
    /// comes from there; a game the command line starts at once is what it says, with the
    /// defaults for the rest ([`Settings::started_with`]), and is remembered. `no_color` is
    /// whether `NO_COLOR` asks for no colours. A game to load that cannot be loaded is an
    /// error; a settings file that cannot be read is not.
    pub fn config(
        &self,
        storage: Storage,
        settings: Option<PathBuf>,
        no_color: bool,
    ) -> Result<Config, CliError> {
        let (settings_file, remembered, settings_warning) = match settings {
            Some(path) => SettingsFile::load(path),
            None => (SettingsFile::none(), Settings::default(), None),
        };
        let toggles = Settings {
            theme: self.theme.unwrap_or(remembered.theme),
            ascii: self.ascii.unwrap_or(remembered.ascii),
            bell: self.bell.unwrap_or(remembered.bell),
            ..remembered
        };
        let starts_at_once = self.rules.is_some()
            || self.clock.is_some()
            || self.position.is_some()
            || self.attackers.is_some()
            || self.defenders.is_some();
        let settings = if starts_at_once {
            toggles.started_with(self.rules, self.attackers, self.defenders, self.clock)
        } else {
            toggles
        };
        // Said at the start, unless the settings file cannot be used (then nothing is
        // remembered, and the warning says so).
        let start_note = (starts_at_once && settings_warning.is_none()).then(|| {
            format!(
                "from the command line, remembered: {}",
                settings.choices_text()
            )
        });
        let resume = match (&self.load, self.resume) {
            (Some(path), _) => Some(Session::load(path).map_err(|e| CliError::new(e.to_string()))?),
            (None, true) => Some(resume_latest(&storage)?),
            (None, false) => None,
        };
        let preset = settings.preset;
        let start = match &self.position {
            Some(text) => parse_start(&preset.rules(), text)
                .map_err(|e| CliError::new(format!("--position \"{}\": {e}", excerpt(text))))?,
            None => Position::start(),
        };
        Ok(Config {
            preset,
            start,
            attackers: settings.attackers,
            defenders: settings.defenders,
            clock: settings.clock,
            skip_setup: starts_at_once,
            resume,
            storage,
            look: Look::new(settings.theme, !no_color, settings.ascii),
            settings,
            settings_file,
            settings_warning,
            start_note,
            online_home: crate::folders::CONFIG.path().map(|dir| {
                let memory = OnlineMemory::load(&dir);
                (dir, memory)
            }),
            ..Config::default()
        })
    }
}

/// The latest unfinished game in the save folder, autosaved or saved, for `--resume`.
fn resume_latest(storage: &Storage) -> Result<Session, CliError> {
    let fail = |e: &dyn std::fmt::Display| CliError::new(format!("--resume: {e}"));
    let dir = storage.save_dir.as_deref().ok_or_else(|| {
        fail(&format!(
            "no save folder (set {SAVE_DIR_ENV} or HOME, or use --save-dir)"
        ))
    })?;
    let entry = latest_unfinished(dir, &[])
        .map_err(|e| fail(&e))?
        .ok_or_else(|| fail(&format!("no unfinished game in {}", dir.display())))?;
    Session::open(&entry).map_err(|e| fail(&e))
}

/// Whether the environment asks for no colours (`NO_COLOR` set and not empty).
fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

pub(super) fn run(args: &PlayArgs) -> Result<ExitCode, CliError> {
    run_with(args, None)
}

/// The terminal game as `args` ask; started in the puzzle trainer on `trainer`'s puzzles
/// if given (`brandubh puzzles`), which quits when left.
pub(super) fn run_with(args: &PlayArgs, trainer: Option<Preset>) -> Result<ExitCode, CliError> {
    let mut storage = Storage::default_places();
    if let Some(dir) = &args.save_dir {
        storage.save_dir = Some(dir.clone());
    }
    let config = Config {
        trainer,
        ..args.config(storage, settings::default_path(), no_color())?
    };
    let ending = tui::run(config).map_err(|e| CliError::new(e.to_string()))?;
    Ok(ending.exit_code())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::tui::{Action, App, Direction, Mode, Runtime};

    #[test]
    fn each_theme_has_the_same_name_on_the_command_line_as_in_the_settings() {
        for choice in ThemeChoice::value_variants() {
            let name = choice.to_possible_value().unwrap().get_name().to_owned();
            let saved = serde_json::to_string(&ThemeName::from(*choice)).unwrap();
            assert_eq!(saved, format!("\"{name}\""));
        }
    }

    /// The configuration `args` give with the settings file `path` and the saves in `dir`.
    fn config(args: &PlayArgs, dir: &std::path::Path) -> Config {
        let path = dir.join("config").join("settings.json");
        args.config(Storage::in_dir(dir.join("saves")), Some(path), false)
            .unwrap()
    }

    #[test]
    fn the_new_game_choices_and_the_toggles_are_remembered_for_the_next_run() {
        let dir = tempfile::tempdir().unwrap();
        let ascii = PlayArgs {
            ascii: Some(true),
            ..PlayArgs::default()
        };
        let mut app = Runtime::new(config(&ascii, dir.path())).unwrap();
        // Up to the clock, one to the right (1m), up to the defenders, one to the right (the
        // AI, easy), and start; then the bell on and the warnings off.
        for action in [
            Action::Move(Direction::Up),
            Action::Move(Direction::Up),
            Action::Move(Direction::Right),
            Action::Move(Direction::Up),
            Action::Move(Direction::Right),
            Action::Confirm,
            Action::ToggleBell,
            Action::ToggleWarnings,
        ] {
            app.update(action);
        }
        assert_eq!(app.app().mode(), Mode::Board);
        let chosen = app.app().session().player(crate::rules::Side::Defenders);
        assert_ne!(chosen, Player::Human);

        // The next run, without options, starts from them.
        let next = config(&PlayArgs::default(), dir.path());
        assert_eq!(next.settings_warning, None);
        assert_eq!(next.defenders, chosen);
        assert_eq!(next.attackers, Player::Human);
        assert!(
            next.settings.ascii && next.look.glyphs.ascii,
            "--ascii remembered"
        );
        assert!(next.settings.bell && !next.settings.warnings);
        assert_eq!(
            next.clock,
            Some("1m".parse().unwrap()),
            "the clock remembered"
        );
        assert!(
            !next.skip_setup,
            "remembered choices fill the new-game screen"
        );
        // The command line still decides.
        let unicode = PlayArgs {
            ascii: Some(false),
            theme: Some(ThemeName::HighContrast),
            ..PlayArgs::default()
        };
        let next = config(&unicode, dir.path());
        assert!(!next.look.glyphs.ascii);
        assert_eq!(next.settings.theme, ThemeName::HighContrast);
    }

    #[test]
    fn a_game_started_from_the_command_line_plays_what_it_says_and_is_remembered() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config").join("settings.json");
        let hard: Player = "ai:hard".parse().unwrap();
        let remembered = Settings {
            preset: Preset::Nielsen,
            attackers: hard,
            defenders: "ai:easy".parse().unwrap(),
            clock: Some("10m".parse().unwrap()),
            ..Settings::default()
        };
        SettingsFile::load(path.clone())
            .0
            .remember(remembered)
            .unwrap();
        // `--clock` alone: the clock it says, and the defaults for the rest, not the
        // remembered players and rules.
        let clock: TimeControl = "5m".parse().unwrap();
        let on_a_clock = PlayArgs {
            clock: Some(clock),
            ..PlayArgs::default()
        };
        let started = config(&on_a_clock, dir.path());
        assert!(started.skip_setup);
        assert_eq!(started.preset, Preset::Standard);
        assert_eq!(
            (started.attackers, started.defenders),
            (Player::Human, Player::Human)
        );
        assert_eq!(started.clock, Some(clock));
        // The game started is remembered as one started from the new-game screen, and the
        // status line says so.
        let note = "from the command line, remembered: standard, human vs human, clock 5m";
        assert_eq!(started.start_note.as_deref(), Some(note));
        let mut runtime = Runtime::new(started).unwrap();
        assert_eq!(runtime.app().status().map(|s| s.text.as_str()), Some(note));
        // Written by the storage thread, without holding up the first frame.
        runtime.settle();
        let (_, read, warning) = SettingsFile::load(path.clone());
        assert_eq!(warning, None);
        assert_eq!(
            (read.preset, read.attackers, read.defenders, read.clock),
            (Preset::Standard, Player::Human, Player::Human, Some(clock))
        );
        // The next run without options offers it on the new-game screen.
        let against_hard = PlayArgs {
            rules: Some(Preset::Walker),
            defenders: Some(hard),
            ..PlayArgs::default()
        };
        drop(Runtime::new(config(&against_hard, dir.path())).unwrap());
        let next = config(&PlayArgs::default(), dir.path());
        assert!(!next.skip_setup);
        assert_eq!(next.preset, Preset::Walker);
        assert_eq!((next.attackers, next.defenders), (Player::Human, hard));
        assert_eq!(next.clock, None);
    }

    #[test]
    fn a_corrupt_settings_file_starts_with_the_defaults_and_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config").join("settings.json");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "{ \"bell\": tru").unwrap();
        let config = config(&PlayArgs::default(), dir.path());
        assert_eq!(config.settings, Settings::default());
        let warning = config.settings_warning.clone().unwrap();
        assert!(
            warning.contains("settings.json") && !warning.contains('\n'),
            "{warning}"
        );
        let app = App::new(config);
        assert_eq!(
            app.status().map(|s| s.text.as_str()),
            Some(warning.as_str())
        );
    }
}
