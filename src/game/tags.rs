//! What a record says about a game besides its moves: the players' names, the event, the site,
//! the date and the annotator, as OpenTafl's records tag them (`[event:Club night]`), and the
//! record's other tags as written (`[round:2]`, `[termination:Black resigns]`). A game read
//! from such a record keeps them, saves them and exports them again.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::quote::excerpt;
use crate::rules::Side;

/// The most characters a tag's value holds.
pub const MAX_TAG_CHARS: usize = 200;

/// The most tags of other names (not a [`Tag`]) a game keeps from a record.
pub const MAX_OTHER_TAGS: usize = 32;

/// The most characters of another tag's name.
pub const MAX_TAG_NAME_CHARS: usize = 40;

/// The names of the tags a record's reader and writer handle themselves (besides [`Tag`]'s),
/// never kept as another tag.
const HANDLED: [&str; 4] = ["rules", "position", "result", "start-comment"];

/// Whether `name` can be another tag's: letters, digits and `-`, at most
/// [`MAX_TAG_NAME_CHARS`], neither a [`Tag`]'s name nor one a record's reader handles itself
/// (`rules`, `position`, `result`, `start-comment`).
fn is_other_tag_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_TAG_NAME_CHARS
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && !HANDLED.contains(&name)
        && Tag::ALL.iter().all(|tag| tag.name() != name)
}

/// A tag a game can carry.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Tag {
    /// The name of the attackers' player, where the record names a person rather than one of
    /// our players (`[attackers:Alice]`).
    Attackers,
    /// The name of the defenders' player, likewise.
    Defenders,
    /// The event the game was played at.
    Event,
    /// Where the game was played.
    Site,
    /// When the game was played, as the record writes it (`2016.08.27`, `2016.??.??`,
    /// `August 2016`) or as typed in the tags form.
    Date,
    /// Who wrote the comments.
    Annotator,
}

impl Tag {
    /// Every tag, in the order of a record's header.
    pub const ALL: [Tag; 6] = [
        Tag::Event,
        Tag::Site,
        Tag::Date,
        Tag::Attackers,
        Tag::Defenders,
        Tag::Annotator,
    ];

    /// The tag's name, in OpenTafl's records and in our saves: `event`, `attackers`, ...
    pub const fn name(self) -> &'static str {
        match self {
            Tag::Attackers => "attackers",
            Tag::Defenders => "defenders",
            Tag::Event => "event",
            Tag::Site => "site",
            Tag::Date => "date",
            Tag::Annotator => "annotator",
        }
    }

    /// The tag of `side`'s player's name.
    pub const fn name_of(side: Side) -> Tag {
        match side {
            Side::Attackers => Tag::Attackers,
            Side::Defenders => Tag::Defenders,
        }
    }

    const fn index(self) -> usize {
        match self {
            Tag::Attackers => 0,
            Tag::Defenders => 1,
            Tag::Event => 2,
            Tag::Site => 3,
            Tag::Date => 4,
            Tag::Annotator => 5,
        }
    }
}

impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A tag's value that a game cannot keep.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct TagError {
    /// The tag.
    pub tag: Tag,
    /// The value given.
    pub value: String,
}

impl fmt::Display for TagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let chars = self.value.chars().count();
        if chars > MAX_TAG_CHARS {
            write!(
                f,
                "{}: {chars} characters; a tag holds at most {MAX_TAG_CHARS}",
                self.tag
            )
        } else {
            write!(
                f,
                "{}: \"{}\" holds a control character (a tag is one line of text)",
                self.tag,
                excerpt(&self.value)
            )
        }
    }
}

impl std::error::Error for TagError {}

/// A game's tags: the players' names, the event, site, date and annotator, each one line of
/// at most 200 characters, or none; and up to [`MAX_OTHER_TAGS`] other tags of a record, by
/// name, in its order.
#[derive(Clone, Default, Eq, PartialEq, Hash, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "TagsFields", into = "TagsFields")]
pub struct Tags {
    /// Indexed by [`Tag::index`] (boxed, to keep the game's size down).
    values: [Option<Box<str>>; 6],
    /// The other tags, names as [`is_other_tag_name`] allows, values as [`Tags::set`] does.
    others: Vec<(String, String)>,
}

impl Tags {
    /// The value of `tag`, if the game has it.
    pub fn get(&self, tag: Tag) -> Option<&str> {
        self.values[tag.index()].as_deref()
    }

    /// The name of `side`'s player, if the record gave one.
    pub fn name(&self, side: Side) -> Option<&str> {
        self.get(Tag::name_of(side))
    }

    /// Whether the game has no tag.
    pub fn is_empty(&self) -> bool {
        self.values.iter().all(Option::is_none) && self.others.is_empty()
    }

    /// The record's other tags (`round`, `compiler`, `termination`, ...), names and values,
    /// in the record's order.
    pub fn others(&self) -> impl Iterator<Item = (&str, &str)> {
        self.others.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// The value of the other tag `name`, if the game has it.
    pub fn other(&self, name: &str) -> Option<&str> {
        self.others().find(|&(n, _)| n == name).map(|(_, v)| v)
    }

    /// Keeps the other tag `name` with as much of `value` as a tag holds (as
    /// [`Tags::set_fitted`] does), in place of one of that name; an empty value removes it.
    /// Returns whether it is kept: not where `name` is no other tag's ([`is_other_tag_name`])
    /// or the game holds [`MAX_OTHER_TAGS`] others already.
    pub fn keep_other(&mut self, name: &str, value: &str) -> bool {
        if !is_other_tag_name(name) {
            return false;
        }
        let value = fitted(value);
        let at = self.others.iter().position(|(n, _)| n == name);
        match (at, value.is_empty()) {
            (Some(i), true) => {
                self.others.remove(i);
                false
            }
            (Some(i), false) => {
                self.others[i].1 = value;
                true
            }
            (None, false) if self.others.len() < MAX_OTHER_TAGS => {
                self.others.push((name.to_owned(), value));
                true
            }
            (None, _) => false,
        }
    }

    /// The tags the game has, in [`Tag::ALL`]'s order.
    pub fn iter(&self) -> impl Iterator<Item = (Tag, &str)> {
        Tag::ALL
            .into_iter()
            .filter_map(|tag| self.get(tag).map(|value| (tag, value)))
    }

    /// Sets `tag` to `value` without white space at its ends; an empty value removes it. A
    /// value of more than [`MAX_TAG_CHARS`] characters or with a control character (a line
    /// break) is refused.
    ///
    /// ```
    /// use brandubh::game::{Tag, Tags};
    /// use brandubh::rules::Side;
    ///
    /// let mut tags = Tags::default();
    /// tags.set(Tag::Event, "Club night").unwrap();
    /// tags.set(Tag::name_of(Side::Attackers), " Alice ").unwrap();
    /// assert_eq!(tags.get(Tag::Event), Some("Club night"));
    /// assert_eq!(tags.name(Side::Attackers), Some("Alice"));
    /// assert!(tags.set(Tag::Site, "Dublin\nIreland").is_err());
    /// tags.set(Tag::Event, "").unwrap();
    /// assert_eq!(tags.get(Tag::Event), None);
    /// ```
    pub fn set(&mut self, tag: Tag, value: &str) -> Result<(), TagError> {
        let value = value.trim();
        if !holds(value) {
            return Err(TagError {
                tag,
                value: value.to_owned(),
            });
        }
        self.values[tag.index()] = (!value.is_empty()).then(|| value.into());
        Ok(())
    }

    /// Sets `tag` to as much of `value` as a tag holds: control characters become spaces,
    /// and the text is cut after [`MAX_TAG_CHARS`] characters (another program's record is
    /// read, not refused, for a tag).
    pub fn set_fitted(&mut self, tag: Tag, value: &str) {
        let value = fitted(value);
        self.values[tag.index()] = (!value.is_empty()).then(|| value.into());
    }

    /// Removes `tag`.
    pub fn remove(&mut self, tag: Tag) {
        self.values[tag.index()] = None;
    }
}

/// As much of `value` as a tag holds: control characters become spaces, the text is cut
/// after [`MAX_TAG_CHARS`] characters and trimmed.
fn fitted(value: &str) -> String {
    let fitted: String = value
        .trim()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_TAG_CHARS)
        .collect();
    fitted.trim().to_owned()
}

/// Whether `value` is one a tag holds as it is: at most [`MAX_TAG_CHARS`] characters, no
/// control character.
fn holds(value: &str) -> bool {
    value.chars().count() <= MAX_TAG_CHARS && !value.chars().any(char::is_control)
}

/// A date tag that is not a date as records write them.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct BadDate {
    /// The value given.
    pub value: String,
}

impl fmt::Display for BadDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "date: \"{}\" is not a date such as 2016.08.12, 2016-08-12 or 2016.??.??",
            excerpt(&self.value)
        )
    }
}

impl std::error::Error for BadDate {}

/// Checks a date typed for [`Tag::Date`]: a year, then a month and a day if known, joined
/// by `.` or `-` (`2016.08.12`, `2016-08`, `2016`), a part not known written with `?`
/// (`2016.??.??`). A day is one of its month's. (Records read keep whatever date they give:
/// this is for dates typed.)
///
/// ```
/// use brandubh::game::check_date;
///
/// assert!(check_date("2016.08.12").is_ok());
/// assert!(check_date("2016-??-??").is_ok());
/// assert!(check_date("2015.02.29").is_err());
/// assert!(check_date("August 2016").is_err());
/// ```
pub fn check_date(value: &str) -> Result<(), BadDate> {
    let bad = || BadDate {
        value: value.to_owned(),
    };
    let value = value.trim();
    let parts: Vec<&str> = value.split(['.', '-']).collect();
    let widths = [4, 2, 2];
    if parts.len() > widths.len()
        || value.contains('.') && value.contains('-')
        || parts.iter().zip(widths).any(|(part, width)| {
            part.len() != width
                || !(part.bytes().all(|b| b.is_ascii_digit()) || part.bytes().all(|b| b == b'?'))
        })
    {
        return Err(bad());
    }
    let number = |i: usize| parts.get(i).and_then(|p| p.parse::<i16>().ok());
    let (year, month, day) = (number(0), number(1), number(2));
    let valid = match (year, month, day) {
        (Some(y), Some(m), Some(d)) => i8::try_from(m)
            .ok()
            .zip(i8::try_from(d).ok())
            .is_some_and(|(m, d)| jiff::civil::Date::new(y, m, d).is_ok()),
        (_, Some(m), _) => (1..=12).contains(&m),
        (_, None, Some(d)) => (1..=31).contains(&d),
        _ => true,
    };
    if valid { Ok(()) } else { Err(bad()) }
}

/// The pattern of a tag's value in the JSON Schema: no control character.
const ONE_LINE: &str = r"^[^\u0000-\u001F\u007F-\u009F]*$";

/// The tags as a save holds them; each is checked by [`Tags::set`] when read.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Tags")]
struct TagsFields {
    /// The event the game was played at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = MAX_TAG_CHARS), regex(pattern = ONE_LINE))]
    event: Option<String>,
    /// Where the game was played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = MAX_TAG_CHARS), regex(pattern = ONE_LINE))]
    site: Option<String>,
    /// When the game was played, as the record wrote it (`2016.08.27`, `2016.??.??`); a day
    /// is also the game's `created`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = MAX_TAG_CHARS), regex(pattern = ONE_LINE))]
    date: Option<String>,
    /// The name of the attackers' player, where a record named a person (`players` says
    /// who plays: a human).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = MAX_TAG_CHARS), regex(pattern = ONE_LINE))]
    attackers: Option<String>,
    /// The name of the defenders' player, likewise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = MAX_TAG_CHARS), regex(pattern = ONE_LINE))]
    defenders: Option<String>,
    /// Who wrote the comments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = MAX_TAG_CHARS), regex(pattern = ONE_LINE))]
    annotator: Option<String>,
    /// The record's other tags, in its order (`round`, `compiler`, `termination`, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = MAX_OTHER_TAGS))]
    other: Vec<OtherTag>,
}

/// Another tag of a record as a save holds it.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct OtherTag {
    /// Its name: letters, digits and `-`, not one of the fields above nor `rules`,
    /// `position`, `result` or `start-comment`.
    #[schemars(length(min = 1, max = MAX_TAG_NAME_CHARS), regex(pattern = "^[A-Za-z0-9-]+$"))]
    name: String,
    /// Its value.
    #[schemars(length(max = MAX_TAG_CHARS), regex(pattern = ONE_LINE))]
    value: String,
}

/// Tags a save holds that a game cannot keep.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum TagsError {
    /// One of [`Tag`]'s values.
    Value(TagError),
    /// Another tag, by its name: a name not allowed, twice, one too many, or a value a tag
    /// cannot hold.
    Other(String),
}

impl fmt::Display for TagsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Value(e) => e.fmt(f),
            Self::Other(name) => write!(
                f,
                "other tag \"{}\": a name of letters, digits and - (of none of ours, at most \
                 {MAX_TAG_NAME_CHARS}), once, one of at most {MAX_OTHER_TAGS}, with one line of \
                 at most {MAX_TAG_CHARS} characters",
                excerpt(name)
            ),
        }
    }
}

impl std::error::Error for TagsError {}

impl TagsFields {
    /// The field of `tag`.
    fn field(&mut self, tag: Tag) -> &mut Option<String> {
        match tag {
            Tag::Attackers => &mut self.attackers,
            Tag::Defenders => &mut self.defenders,
            Tag::Event => &mut self.event,
            Tag::Site => &mut self.site,
            Tag::Date => &mut self.date,
            Tag::Annotator => &mut self.annotator,
        }
    }
}

impl TryFrom<TagsFields> for Tags {
    type Error = TagsError;

    fn try_from(mut fields: TagsFields) -> Result<Self, Self::Error> {
        let mut tags = Tags::default();
        for tag in Tag::ALL {
            if let Some(value) = fields.field(tag).take() {
                tags.set(tag, &value).map_err(TagsError::Value)?;
            }
        }
        for OtherTag { name, value } in fields.other {
            let kept = holds(&value)
                && value.trim() == value
                && !value.is_empty()
                && tags.other(&name).is_none()
                && tags.keep_other(&name, &value);
            if !kept {
                return Err(TagsError::Other(name));
            }
        }
        Ok(tags)
    }
}

impl From<Tags> for TagsFields {
    fn from(tags: Tags) -> TagsFields {
        let mut fields = TagsFields {
            event: None,
            site: None,
            date: None,
            attackers: None,
            defenders: None,
            annotator: None,
            other: Vec::new(),
        };
        for (tag, value) in tags.iter() {
            *fields.field(tag) = Some(value.to_owned());
        }
        fields.other = tags
            .others
            .into_iter()
            .map(|(name, value)| OtherTag { name, value })
            .collect();
        fields
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_one_trimmed_line_within_the_limit() {
        let mut tags = Tags::default();
        let long = "x".repeat(MAX_TAG_CHARS + 1);
        let err = tags.set(Tag::Event, &long).unwrap_err();
        assert_eq!(
            err.to_string(),
            "event: 201 characters; a tag holds at most 200"
        );
        assert!(tags.set(Tag::Event, &long[1..]).is_ok());
        let err = tags.set(Tag::Site, "a\u{1b}[2J").unwrap_err();
        assert_eq!(
            err.to_string(),
            "site: \"a\\u{1b}[2J\" holds a control character (a tag is one line of text)"
        );
        tags.set_fitted(Tag::Site, &format!(" Dublin\tcentre{long}"));
        let site = tags.get(Tag::Site).unwrap();
        assert!(site.starts_with("Dublin centre") && site.chars().count() == MAX_TAG_CHARS);
        tags.set_fitted(Tag::Annotator, " \n ");
        assert_eq!(tags.get(Tag::Annotator), None);
    }

    #[test]
    fn typed_dates_are_checked_but_any_part_may_be_unknown() {
        for good in [
            "2016.08.12",
            "2016-08-12",
            "2016",
            "2016.08",
            "2016.??.??",
            "????.02.29",
            "2016.??.31",
        ] {
            assert!(check_date(good).is_ok(), "{good}");
        }
        for bad in [
            "2016.13.01",
            "2015.02.29",
            "2016.08-12",
            "16.08.12",
            "2016.8.12",
            "August 2016",
            "2016.08.12.01",
            "2016.0?.12",
            "",
        ] {
            let err = check_date(bad).unwrap_err();
            assert!(err.to_string().starts_with("date: "), "{bad}: {err}");
        }
    }

    #[test]
    fn tags_are_saved_by_name_in_header_order() {
        let mut tags = Tags::default();
        assert!(tags.is_empty());
        tags.set(Tag::Annotator, "Bob").unwrap();
        tags.set(Tag::Defenders, "Carol").unwrap();
        tags.set(Tag::Event, "Club night").unwrap();
        let json = serde_json::to_string(&tags).unwrap();
        assert_eq!(
            json,
            r#"{"event":"Club night","defenders":"Carol","annotator":"Bob"}"#
        );
        let back: Tags = serde_json::from_str(&json).unwrap();
        assert_eq!(back, tags);
        let names: Vec<&str> = Tag::ALL.map(Tag::name).to_vec();
        assert_eq!(
            names,
            [
                "event",
                "site",
                "date",
                "attackers",
                "defenders",
                "annotator"
            ]
        );
        for bad in [r#"{"round": "3"}"#, r#"{"site": "a\nb"}"#, r#"{"date": 3}"#] {
            assert!(serde_json::from_str::<Tags>(bad).is_err(), "{bad}");
        }
        tags.remove(Tag::Event);
        assert_eq!(tags.get(Tag::Event), None);
    }

    #[test]
    fn other_tags_are_kept_in_order_bounded_and_checked_when_read() {
        let mut tags = Tags::default();
        assert!(tags.keep_other("round", "2"));
        assert!(tags.keep_other("termination", " Black\nresigns "));
        assert!(tags.keep_other("round", "3"), "replaced in place");
        for refused in ["event", "rules", "result", "start-comment", "a b", ""] {
            assert!(!tags.keep_other(refused, "x"), "{refused}");
        }
        assert!(
            tags.others()
                .eq([("round", "3"), ("termination", "Black resigns")])
        );
        let json = serde_json::to_string(&tags).unwrap();
        assert_eq!(
            json,
            r#"{"other":[{"name":"round","value":"3"},{"name":"termination","value":"Black resigns"}]}"#
        );
        assert_eq!(serde_json::from_str::<Tags>(&json).unwrap(), tags);
        assert!(!tags.keep_other("round", ""), "removed");
        assert_eq!(tags.other("round"), None);
        for i in 1..MAX_OTHER_TAGS {
            assert!(tags.keep_other(&format!("t{i}"), "x"));
        }
        assert!(!tags.keep_other("one-more", "x"));
        for bad in [
            r#"{"other":[{"name":"rules","value":"x"}]}"#,
            r#"{"other":[{"name":"a","value":"x"},{"name":"a","value":"y"}]}"#,
            r#"{"other":[{"name":"a","value":"x\ny"}]}"#,
            r#"{"other":[{"name":"a","value":""}]}"#,
        ] {
            let err = serde_json::from_str::<Tags>(bad).unwrap_err().to_string();
            assert!(err.starts_with("other tag "), "{bad}: {err}");
        }
    }
}
