//! The list of saved games to load from, over the whole screen: paged with PgUp/PgDn and
//! Home/End, with where it is in the list; and the prompt to rename a save.

use std::path::{Path, PathBuf};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::dialogs::popup;
use super::input::{Direction, Key, KeyTable};
use super::storage_jobs::SaveRef;
use super::text::{centered, highlight, printable, truncate};
use super::theme::{Look, Themed};
use crate::game::storage::{Progress, SaveEntry, SaveKind, SaveName};
use crate::game::{Tag, Tags};
use crate::rules::Side;

/// The keys of the list, as its footer and the help show them.
pub const LIST_KEYS: KeyTable = KeyTable {
    keys: &[
        Key::new("↑↓ PgUp PgDn Home End", "choose"),
        Key::new("Enter", "load"),
        Key::new("r / F2", "rename"),
        Key::new("d / Del", "delete"),
        Key::new("Esc", "cancel"),
    ],
    notes: &[],
};

/// The list of saved games to load from.
#[derive(Debug)]
pub struct SavesList {
    dir: PathBuf,
    entries: Vec<SaveEntry>,
    /// The files of the game in play.
    in_play: Vec<PathBuf>,
    selected: usize,
    /// How far the saves are read, while they are (the entries come once all are).
    reading: Option<Progress>,
}

impl SavesList {
    /// The saves found in `dir`, newest first, the first one selected; those among the files
    /// `in_play` are marked as the game in play.
    pub fn new(dir: PathBuf, entries: Vec<SaveEntry>, in_play: &[&Path]) -> SavesList {
        SavesList {
            dir,
            entries,
            in_play: in_play.iter().map(|p| p.to_path_buf()).collect(),
            selected: 0,
            reading: None,
        }
    }

    /// The list of the saves in `dir` while they are read, `progress` so far.
    pub fn reading(dir: PathBuf, progress: Progress) -> SavesList {
        SavesList {
            reading: Some(progress),
            ..SavesList::new(dir, Vec::new(), &[])
        }
    }

    /// The saves are read this far now.
    pub fn set_progress(&mut self, progress: Progress) {
        self.reading = Some(progress);
    }

    /// The save folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Moves the selection up or down.
    pub fn move_selection(&mut self, dir: Direction) {
        self.selected = match dir {
            Direction::Up | Direction::Left => self.selected.saturating_sub(1),
            Direction::Down | Direction::Right => (self.selected + 1).min(self.last()),
        };
    }

    /// Moves the selection a page (the entries shown on a screen of `area`) up or down.
    pub fn page(&mut self, area: Rect, down: bool) {
        let page = SavesList::shown(SavesList::inner(area));
        self.selected = if down {
            (self.selected + page).min(self.last())
        } else {
            self.selected.saturating_sub(page)
        };
    }

    /// Selects the first entry, or the last.
    pub fn jump(&mut self, last: bool) {
        self.selected = if last { self.last() } else { 0 };
    }

    fn last(&self) -> usize {
        self.entries.len().saturating_sub(1)
    }

    /// Selects the entry drawn at screen `row` of a screen of `area`, if any.
    pub fn click(&mut self, area: Rect, row: u16) -> bool {
        let inner = SavesList::inner(area);
        let top = self.top(inner);
        let Some(offset) = row.checked_sub(inner.y).map(usize::from) else {
            return false;
        };
        let i = top + offset / SavesList::ENTRY_ROWS;
        if offset < SavesList::shown(inner) * SavesList::ENTRY_ROWS && i < self.entries.len() {
            self.selected = i;
            true
        } else {
            false
        }
    }

    /// The saves listed, newest first.
    #[cfg(test)]
    pub fn entries(&self) -> &[SaveEntry] {
        &self.entries
    }

    /// The selected file.
    pub fn selected(&self) -> Option<&SaveEntry> {
        self.entries.get(self.selected)
    }

    /// Whether the selected file holds the game in play.
    pub fn selected_in_play(&self) -> bool {
        self.selected()
            .is_some_and(|e| self.in_play.contains(&e.path))
    }

    /// The save at `path` is gone: it leaves the list.
    pub fn remove(&mut self, path: &Path) {
        self.entries.retain(|e| e.path != path);
        self.selected = self.selected.min(self.last());
    }

    /// The save at `from` is at `to` now, a save under a name (an autosave renamed is one).
    pub fn renamed(&mut self, from: &Path, to: &Path) {
        if let Some(entry) = self.entries.iter_mut().find(|e| e.path == from) {
            to.clone_into(&mut entry.path);
            entry.name = to
                .file_stem()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            entry.kind = SaveKind::Named;
        }
    }

    /// Rows each entry takes: its name, state and date, then what it holds.
    const ENTRY_ROWS: usize = 2;

    /// The pop-up: the whole height, at most 100 columns wide (the rest is cleared).
    fn rect(area: Rect) -> Rect {
        centered(area, area.width.min(100), area.height)
    }

    /// The pop-up's inside, where the entries are (the title and borders around it).
    fn inner(area: Rect) -> Rect {
        super::dialogs::popup_inner(SavesList::rect(area))
    }

    /// The footer's lines for an inside `width` columns wide: the keys, as many on a line as
    /// fit, never one split.
    fn footer(width: u16) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        for key in (LIST_KEYS.keys.iter()).map(|k| format!("{} {}", k.keys, k.does)) {
            match lines.last_mut() {
                Some(line)
                    if line.chars().count() + 3 + key.chars().count() <= usize::from(width) =>
                {
                    line.push_str(" · ");
                    line.push_str(&key);
                }
                _ => lines.push(key),
            }
        }
        lines
    }

    /// How many entries fit in `inner`, above a blank row and the footer.
    fn shown(inner: Rect) -> usize {
        let footer = SavesList::footer(inner.width).len();
        (usize::from(inner.height).saturating_sub(footer + 1) / SavesList::ENTRY_ROWS).max(1)
    }

    /// The first entry shown: the selected one stays in view.
    fn top(&self, inner: Rect) -> usize {
        self.selected
            .saturating_sub(SavesList::shown(inner).saturating_sub(1))
    }

    /// The two rows of `entry`: its name, whether it is in play or unfinished, and when its
    /// game last changed, to the second (the year left out when narrow); then what it holds,
    /// or why it cannot be loaded.
    fn entry_lines(&self, entry: &SaveEntry, look: &Look, width: usize) -> [Line<'static>; 2] {
        let wide = width >= 56;
        let name = match entry.kind {
            SaveKind::Named => entry.name.as_str(),
            SaveKind::Autosave => "autosave",
        };
        let mark = match (entry.kind, &entry.summary) {
            _ if self.in_play.contains(&entry.path) => Span::styled("in play", look.theme.label),
            (SaveKind::Named, _) => Span::raw(""),
            (SaveKind::Autosave, Ok(s)) if s.finished => Span::styled("finished", look.theme.label),
            (SaveKind::Autosave, _) => Span::styled("unfinished", look.theme.heading),
        };
        let date = match &entry.summary {
            Ok(s) => {
                let stamp = s.updated.to_string().replace('T', " ").replace('Z', "");
                if wide {
                    stamp
                } else {
                    stamp.get(5..).unwrap_or(&stamp).to_owned()
                }
            }
            Err(_) => String::new(),
        };
        let name_width = if wide { 16 } else { 10 };
        let left = format!("{:<name_width$} ", truncate(&printable(name), name_width));
        let room = width.saturating_sub(left.chars().count() + mark.width() + 1);
        let head = Line::from(vec![
            Span::styled(left, look.theme.heading),
            mark,
            Span::styled(format!(" {date:>room$}"), look.theme.label),
        ]);
        let body = match &entry.summary {
            Ok(s) => {
                let text = match tags_text(&s.tags) {
                    Some(tags) => format!("{tags} · {}", s.text),
                    None => s.text.clone(),
                };
                Line::raw(format!("  {}", truncate(&text, width.saturating_sub(2))))
            }
            Err(err) => Line::styled(
                format!(
                    "  cannot load: {}",
                    truncate(&err.to_string(), width.saturating_sub(16))
                ),
                look.theme.error,
            ),
        };
        [head, body]
    }
}

/// What a list entry says of a game's tags, if it has any it shows: the players' names
/// (`Alice vs Bob`, or one with its side), the event and the date.
fn tags_text(tags: &Tags) -> Option<String> {
    let names = match (tags.name(Side::Attackers), tags.name(Side::Defenders)) {
        (Some(a), Some(d)) => Some(format!("{a} vs {d}")),
        (Some(a), None) => Some(format!("{a} (attackers)")),
        (None, Some(d)) => Some(format!("{d} (defenders)")),
        (None, None) => None,
    };
    let parts: Vec<String> = names
        .into_iter()
        .chain(
            [Tag::Event, Tag::Date]
                .map(|tag| tags.get(tag).map(str::to_owned))
                .into_iter()
                .flatten(),
        )
        .map(|part| printable(&part))
        .collect();
    (!parts.is_empty()).then(|| parts.join(" · "))
}

impl Widget for Themed<'_, SavesList> {
    /// Draws the list over the whole of `area`: the entries in view, where they are in the
    /// list, and the keys.
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed { of, look } = self;
        Clear.render(area, buf);
        let rect = SavesList::rect(area);
        let title = format!("Load a game from {}", of.dir.display());
        let inner = popup(&title, look, rect, buf);
        let top = of.top(inner);
        let shown = SavesList::shown(inner);
        let width = usize::from(inner.width);
        let mut lines: Vec<Line> = Vec::new();
        for (i, entry) in of.entries.iter().enumerate().skip(top).take(shown) {
            for line in of.entry_lines(entry, look, width) {
                lines.push(if i == of.selected {
                    highlight(line, look.theme.focus)
                } else {
                    line
                });
            }
        }
        if let Some(Progress { done, total }) = of.reading {
            lines.push(Line::raw(format!("reading the saves: {done} of {total}…")));
        } else if of.entries.is_empty() {
            lines.push(Line::raw("no saved games yet"));
        }
        Paragraph::new(lines).render(inner, buf);
        let footer = SavesList::footer(inner.width);
        let footer_top = inner
            .bottom()
            .saturating_sub(u16::try_from(footer.len()).unwrap_or(u16::MAX));
        for (y, text) in (footer_top..inner.bottom()).zip(footer) {
            Line::styled(text, look.theme.label).render(
                Rect {
                    y,
                    height: 1,
                    ..inner
                },
                buf,
            );
        }
        // Where the entries shown are in the list, on the bottom border.
        if of.entries.len() > shown {
            let last = (top + shown).min(of.entries.len());
            let position = format!(" {}–{last} of {} ", top + 1, of.entries.len());
            let len = u16::try_from(position.chars().count()).unwrap_or(u16::MAX);
            let x = rect.right().saturating_sub(len + 1).max(rect.x);
            Line::styled(position, look.theme.heading)
                .render(Rect::new(x, rect.bottom().saturating_sub(1), len, 1), buf);
        }
    }
}

/// The prompt for a listed save's new name: a save under that name in the save folder (an
/// autosave renamed becomes one). The name is checked as it is typed; a name taken is said
/// once the storage thread has found it so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenamePrompt {
    save: SaveRef,
    dir: PathBuf,
    text: String,
    /// Why the last rename failed, until the name changes.
    failure: Option<String>,
}

impl RenamePrompt {
    /// A prompt to rename `save` into the save folder `dir`, offering its name.
    pub fn new(save: SaveRef, dir: PathBuf) -> RenamePrompt {
        let text = match save.kind {
            SaveKind::Named => save.name.clone(),
            SaveKind::Autosave => String::new(),
        };
        RenamePrompt {
            save,
            dir,
            text,
            failure: None,
        }
    }

    /// Types a character.
    pub fn push(&mut self, c: char) {
        self.failure = None;
        self.text.push(c);
    }

    /// Deletes the last character.
    pub fn pop(&mut self) {
        self.failure = None;
        self.text.pop();
    }

    /// Clears the name typed.
    pub fn clear(&mut self) {
        self.failure = None;
        self.text.clear();
    }

    /// The save renamed.
    pub const fn save(&self) -> &SaveRef {
        &self.save
    }

    /// Its new path, if the name typed is one (else why not, in one line).
    pub fn destination(&self) -> Result<PathBuf, String> {
        SaveName::parse(&self.text)
            .map(|name| name.path_in(&self.dir))
            .map_err(|e| e.to_string())
    }

    /// Shows why the rename failed.
    pub fn set_failure(&mut self, why: String) {
        self.failure = Some(why);
    }

    fn rect(area: Rect) -> Rect {
        centered(area, area.width.clamp(30, 72), 7)
    }
}

impl Widget for Themed<'_, RenamePrompt> {
    /// Draws the prompt: the name, and what is wrong with it if anything.
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Themed { of, look } = self;
        let rect = RenamePrompt::rect(area);
        let inner = popup(&format!("Rename {}", of.save.name), look, rect, buf);
        let (problem, style) = match (&of.failure, of.destination()) {
            (Some(failure), _) => (failure.clone(), look.theme.error),
            (None, Err(bad)) => (bad, look.theme.error),
            (None, Ok(path)) => (format!("renames to {}", path.display()), look.theme.label),
        };
        let room = usize::from(inner.width.max(1));
        let lines = vec![
            Line::from(vec![
                Span::styled("name: ", look.theme.heading),
                Span::raw(printable(&of.text)),
                Span::styled("_", look.theme.focus),
            ]),
            Line::styled(truncate(&problem, room), style),
            Line::default(),
            Line::styled("Enter rename · Esc cancel", look.theme.label),
        ];
        Paragraph::new(lines).render(inner, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Timestamp;
    use crate::game::storage::SaveSummary;

    /// `n` autosaves of the same game, one a second apart, newest first.
    fn autosaves(n: u64) -> Vec<SaveEntry> {
        (0..n)
            .map(|i| SaveEntry {
                path: PathBuf::from(format!("/saves/autosave/{i}.json")),
                name: i.to_string(),
                kind: SaveKind::Autosave,
                modified: None,
                summary: Ok(SaveSummary {
                    text: "human vs human, standard, 3 plies, ongoing".to_owned(),
                    plies: 3,
                    finished: false,
                    updated: Timestamp::from_unix_seconds(1_700_000_000 - i).unwrap(),
                    tags: Tags::default(),
                }),
            })
            .collect()
    }

    fn drawn(list: &SavesList, width: u16, height: u16) -> Vec<String> {
        let area = Rect::new(0, 0, width, height);
        let mut buf = Buffer::empty(area);
        Themed {
            of: list,
            look: &Look::default(),
        }
        .render(area, &mut buf);
        (0..height)
            .map(|y| (0..width).map(|x| buf[(x, y)].symbol()).collect())
            .collect()
    }

    #[test]
    fn an_entry_shows_the_players_names_the_event_and_the_date_before_the_rest() {
        let mut entries = autosaves(2);
        let Ok(summary) = &mut entries[0].summary else {
            panic!("a summary")
        };
        for (tag, value) in [
            (Tag::Attackers, "Alice"),
            (Tag::Defenders, "Bob"),
            (Tag::Event, "Club night"),
            (Tag::Date, "2016.08.12"),
            (Tag::Site, "not in the row"),
        ] {
            summary.tags.set(tag, value).unwrap();
        }
        let list = SavesList::new("/saves".into(), entries, &[]);
        let rows = drawn(&list, 100, 24);
        assert!(
            rows[2].contains("Alice vs Bob · Club night · 2016.08.12 · human vs human"),
            "{}",
            rows[2]
        );
        assert!(
            rows[4].contains("  human vs human, standard"),
            "{}",
            rows[4]
        );
        let mut one = Tags::default();
        one.set(Tag::Defenders, "Bob").unwrap();
        assert_eq!(tags_text(&one).as_deref(), Some("Bob (defenders)"));
        assert_eq!(tags_text(&Tags::default()), None);
    }

    #[test]
    fn the_list_pages_jumps_and_says_which_entries_it_shows() {
        let area = Rect::new(0, 0, 40, 15);
        let mut list = SavesList::new("/saves".into(), autosaves(30), &[]);
        let page = SavesList::shown(SavesList::inner(area));
        assert!(page >= 3, "{page} entries at 40x15");
        list.page(area, true);
        assert_eq!(list.selected, page);
        list.page(area, false);
        assert_eq!(list.selected, 0);
        list.jump(true);
        assert_eq!(list.selected, 29);
        list.page(area, true);
        assert_eq!(list.selected, 29, "stays at the last");
        let rows = drawn(&list, 40, 15);
        let bottom = &rows[14];
        assert!(
            bottom.contains(&format!("{}–30 of 30", 30 - page + 1)),
            "{bottom}"
        );
        list.jump(false);
        assert!(drawn(&list, 40, 15)[14].contains(&format!("1–{page} of 30")));
    }

    #[test]
    fn at_40x15_the_list_fits_its_keys_and_tells_autosaves_apart() {
        let list = SavesList::new("/saves".into(), autosaves(2), &[]);
        let rows = drawn(&list, 40, 15);
        let text = rows.join("\n");
        for key in ["PgUp", "Home", "Enter load", "rename", "delete", "Esc"] {
            assert!(text.contains(key), "{key}:\n{text}");
        }
        // The same game a second apart: the heads differ by the seconds.
        let heads: Vec<&String> = rows.iter().filter(|r| r.contains("autosave")).collect();
        assert_eq!(heads.len(), 2, "{text}");
        assert!(heads[0].contains("11-14 22:13:20"), "{text}");
        assert!(heads[1].contains("11-14 22:13:19"), "{text}");
        assert!(rows.iter().all(|r| r.chars().count() == 40));
    }
}
