//! Remembered choices: the new-game screen's last rules and players and the toggles (theme,
//! ASCII, bell, warnings), in a small JSON file in the user's config folder. It is written
//! atomically, as saves are; a missing file means the defaults, and a file that cannot be read
//! gives the defaults and a one-line warning, never a refusal to start.

use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::theme::ThemeName;
use crate::game::storage::{ReadError, SaveError, read_regular_file, write_json_atomic};
use crate::game::{Player, TimeControl, unique_keys};
use crate::quote::{MESSAGE_CHARS, escaped};
use crate::rules::Preset;

pub use crate::folders::CONFIG_DIR_ENV;
/// The settings file's name in its folder.
pub const SETTINGS_FILE: &str = "settings.json";
/// The largest settings file read: a few hundred bytes are enough.
const MAX_BYTES: u64 = 64 * 1024;

/// The choices remembered between runs. Missing fields take their defaults, unknown ones are
/// ignored, so that files of other versions still load; a field that is there is checked as
/// the command line checks it (a clock through [`TimeControl`]'s one check).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The rules last chosen.
    pub preset: Preset,
    /// Who last played the attackers.
    pub attackers: Player,
    /// Who last played the defenders.
    pub defenders: Player,
    /// The time control last chosen, or `None` for no clock.
    pub clock: Option<TimeControl>,
    /// The colour theme.
    pub theme: ThemeName,
    /// ASCII glyphs only.
    pub ascii: bool,
    /// The bell when the AI has moved and when a game ends.
    pub bell: bool,
    /// Warnings about threats and repetitions.
    pub warnings: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            preset: Preset::default(),
            attackers: Player::Human,
            defenders: Player::Human,
            clock: None,
            theme: ThemeName::default(),
            ascii: false,
            bell: false,
            warnings: true,
        }
    }
}

impl Settings {
    /// These settings with the choices of a game the command line starts at once (any of
    /// `--rules`, `--attackers`, `--defenders`, `--clock`, `--position`): what it says, and the
    /// defaults for what it does not (standard rules, human players, no clock). A remembered
    /// choice only fills the new-game screen: a command line plays what it says, whatever was
    /// chosen before. The result is remembered as a game started from the new-game screen is.
    #[must_use]
    pub fn started_with(
        self,
        preset: Option<Preset>,
        attackers: Option<Player>,
        defenders: Option<Player>,
        clock: Option<TimeControl>,
    ) -> Settings {
        let defaults = Settings::default();
        Settings {
            preset: preset.unwrap_or(defaults.preset),
            attackers: attackers.unwrap_or(defaults.attackers),
            defenders: defenders.unwrap_or(defaults.defenders),
            clock,
            ..self
        }
    }

    /// The new-game choices in a few words: `standard, human vs ai:hard, clock 5m+3s` (or
    /// `no clock`).
    pub fn choices_text(&self) -> String {
        let clock = self
            .clock
            .map_or_else(|| "no clock".to_owned(), |c| format!("clock {c}"));
        format!(
            "{}, {} vs {}, {clock}",
            self.preset.name(),
            self.attackers,
            self.defenders
        )
    }
}

/// The settings file: `$BRANDUBH_CONFIG_DIR/settings.json` if that is set and not empty, else
/// `brandubh/settings.json` in the user's config folder as the `directories` crate finds it
/// (`$XDG_CONFIG_HOME` or `~/.config` on Linux, `~/Library/Application Support` on macOS,
/// `%APPDATA%` on Windows); `None` if there is no home folder.
pub fn default_path() -> Option<PathBuf> {
    crate::folders::CONFIG
        .path()
        .map(|dir| dir.join(SETTINGS_FILE))
}

/// Where the settings live, and what was last read from or written to the file, so that only
/// changes are written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsFile {
    path: Option<PathBuf>,
    written: Option<Settings>,
}

impl SettingsFile {
    /// No file: nothing is remembered (tests, and a system without a home folder).
    pub const fn none() -> SettingsFile {
        SettingsFile {
            path: None,
            written: None,
        }
    }

    /// The settings in the file at `path`: the defaults if there is none; the defaults and a
    /// one-line warning if it cannot be read or is not valid.
    pub fn load(path: PathBuf) -> (SettingsFile, Settings, Option<String>) {
        let (written, warning) = match read(&path) {
            Ok(None) => (None, None),
            Ok(Some(settings)) => (Some(settings), None),
            Err(why) => (
                None,
                // What matters first: the path may not fit on the line.
                Some(format!(
                    "settings ignored, defaults used: {} in {}",
                    escaped(&why, MESSAGE_CHARS),
                    escaped(&path.display().to_string(), MESSAGE_CHARS)
                )),
            ),
        };
        let settings = written.unwrap_or_default();
        (
            SettingsFile {
                path: Some(path),
                written,
            },
            settings,
            warning,
        )
    }

    /// Writes `settings` to the file (atomically) if they are not what it holds already.
    pub fn remember(&mut self, settings: Settings) -> Result<(), SaveError> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        if self.written == Some(settings) {
            return Ok(());
        }
        write_json_atomic(path, &settings)?;
        self.written = Some(settings);
        Ok(())
    }
}

/// The settings in the file at `path`, `None` if there is no file, or why they cannot be read.
fn read(path: &Path) -> Result<Option<Settings>, String> {
    let bytes = match read_regular_file(path, MAX_BYTES) {
        Ok((bytes, _)) => bytes,
        Err(ReadError::Io(e)) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    parse(&bytes).map(Some)
}

/// The settings in the file's `bytes`, or why not, naming the field at fault (`clock: the main
/// time must be more than zero`, `clock.main_ms: invalid type: ...`).
fn parse(bytes: &[u8]) -> Result<Settings, String> {
    let value = unique_keys::from_slice(bytes).map_err(|e| {
        if e.is_data() {
            e.to_string()
        } else {
            format!("not JSON: {e}")
        }
    })?;
    if !value.is_object() {
        return Err("not a JSON object".to_owned());
    }
    serde_path_to_error::deserialize(value).map_err(|e| format!("{}: {}", e.path(), e.inner()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{EngineKind, Level, MoveTime};

    fn changed() -> Settings {
        Settings {
            preset: Preset::Nielsen,
            attackers: Player::Ai {
                engine: EngineKind::Search,
                level: Level::Hard,
                time: None,
            },
            defenders: Player::Ai {
                engine: EngineKind::Search,
                level: Level::Max,
                time: Some(MoveTime::TenSeconds),
            },
            clock: Some("5m+3s".parse().unwrap()),
            theme: ThemeName::HighContrast,
            ascii: true,
            bell: true,
            warnings: false,
        }
    }

    #[test]
    fn settings_round_trip_through_a_missing_folder() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("not").join("yet").join(SETTINGS_FILE);
        let (mut file, settings, warning) = SettingsFile::load(path.clone());
        assert_eq!(
            (settings, warning),
            (Settings::default(), None),
            "no file yet"
        );
        file.remember(changed()).unwrap();
        let (_, read, warning) = SettingsFile::load(path.clone());
        assert_eq!((read, warning), (changed(), None));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("\"preset\": \"nielsen\""), "{text}");
        assert!(text.contains("\"theme\": \"high-contrast\""), "{text}");
        assert!(text.contains("\"increment_ms\": 3000"), "{text}");
        assert!(text.contains("\"time\": \"10s\""), "{text}");
    }

    #[test]
    fn only_changes_are_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(SETTINGS_FILE);
        let (mut file, settings, _) = SettingsFile::load(path.clone());
        file.remember(settings).unwrap();
        assert!(path.exists(), "the defaults, written once");
        std::fs::remove_file(&path).unwrap();
        file.remember(settings).unwrap();
        assert!(!path.exists(), "unchanged: not written again");
        file.remember(changed()).unwrap();
        assert!(path.exists());
    }

    #[test]
    fn a_corrupt_file_gives_the_defaults_and_one_line_of_warning() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(SETTINGS_FILE);
        for bad in ["{ not json", "{\"preset\": \"chess\"}", "[1, 2]"] {
            std::fs::write(&path, bad).unwrap();
            let (_, settings, warning) = SettingsFile::load(path.clone());
            assert_eq!(settings, Settings::default(), "{bad}");
            let warning = warning.expect("a warning");
            assert!(!warning.contains('\n'), "{warning}");
            assert!(
                warning.starts_with("settings ignored, defaults used: "),
                "{warning}"
            );
        }
        std::fs::write(&path, " ".repeat(70_000)).unwrap();
        assert!(
            SettingsFile::load(path.clone())
                .2
                .unwrap()
                .contains("larger than")
        );
    }

    /// The warning of a settings file holding `text`, checked to be one line naming the file.
    fn warning_for(text: &str) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(SETTINGS_FILE);
        std::fs::write(&path, text).unwrap();
        let (_, settings, warning) = SettingsFile::load(path.clone());
        assert_eq!(settings, Settings::default(), "{text}");
        let warning = warning.unwrap_or_else(|| panic!("no warning for {text}"));
        assert!(!warning.contains('\n'), "{warning}");
        assert!(
            warning.starts_with("settings ignored, defaults used: "),
            "{warning}"
        );
        assert!(
            warning.ends_with(&format!(" in {}", path.display())),
            "{warning}"
        );
        warning
    }

    #[test]
    fn every_error_names_its_field() {
        for (text, words) in [
            (r#"{"preset": 5}"#, "preset: invalid type: integer `5`"),
            (r#"{"preset": "chess"}"#, "preset: unknown variant `chess`"),
            (r#"{"attackers": "robot"}"#, "attackers: "),
            (
                r#"{"bell": "yes"}"#,
                "bell: invalid type: string \"yes\", expected a boolean",
            ),
            (
                r#"{"theme": "dark", "bell": true}"#,
                "theme: unknown variant `dark`",
            ),
            (
                r#"{"clock": {"main_ms": "5m"}}"#,
                "clock.main_ms: invalid type: string \"5m\"",
            ),
            (
                r#"{"clock": {"main_ms": 1, "minutes": 3}}"#,
                "clock.minutes: unknown field `minutes`",
            ),
            (r#"{"bell": true, "bell": false}"#, "duplicate field `bell`"),
        ] {
            let warning = warning_for(text);
            assert!(warning.contains(words), "{text}: {warning}");
        }
        // Where no field is at fault, the warning says what is.
        assert!(warning_for("{ not json").contains("not JSON: key must be a string at line 1"));
        assert!(warning_for("[1, 2]").contains("not a JSON object"));
    }

    #[test]
    fn a_settings_clock_is_checked_as_the_command_line_checks_it() {
        for (text, command_line) in [
            (r#"{"clock": {"main_ms": 0}}"#, "0s"),
            (r#"{"clock": {"main_ms": 60000, "periods": 3}}"#, "1m/3x0s"),
            (
                r#"{"clock": {"main_ms": 60000, "period_ms": 5000}}"#,
                "1m/0x5s",
            ),
        ] {
            let warning = warning_for(text);
            let refused = command_line.parse::<TimeControl>().unwrap_err().to_string();
            // The one check's reason, in both.
            let reason = refused
                .split(": ")
                .nth(1)
                .and_then(|r| r.split(';').next())
                .unwrap();
            assert!(
                warning.contains(&format!("clock: {reason}")),
                "{text}: {warning} / {refused}"
            );
        }
    }

    #[test]
    fn missing_fields_take_defaults_and_unknown_ones_are_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(SETTINGS_FILE);
        std::fs::write(&path, r#"{"bell": true, "sound": "loud"}"#).unwrap();
        let (_, settings, warning) = SettingsFile::load(path);
        assert_eq!(warning, None);
        assert_eq!(
            settings,
            Settings {
                bell: true,
                ..Settings::default()
            }
        );
    }

    #[test]
    fn without_a_file_nothing_is_written() {
        SettingsFile::none().remember(changed()).unwrap();
    }
}
