//! What a record says about a game besides its moves: the players' names, the event, the site,
//! the date and the annotator, as OpenTafl's records tag them (`[event:Club night]`). A game
//! read from such a record keeps them, saves them and exports them again.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::quote::excerpt;
use crate::rules::Side;

/// The most characters a tag's value holds.
pub const MAX_TAG_CHARS: usize = 200;

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
    /// When the game was played, as the record writes it, where that is not a day the
    /// game's creation time can hold (`2016.??.??`, `August 2016`).
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
/// at most 200 characters, or none.
#[derive(Clone, Default, Eq, PartialEq, Hash, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "TagsFields", into = "TagsFields")]
pub struct Tags {
    /// Indexed by [`Tag::index`].
    values: [Option<String>; 6],
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
        self.values.iter().all(Option::is_none)
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
        if value.chars().count() > MAX_TAG_CHARS || value.chars().any(char::is_control) {
            return Err(TagError {
                tag,
                value: value.to_owned(),
            });
        }
        self.values[tag.index()] = Some(value.to_owned()).filter(|v| !v.is_empty());
        Ok(())
    }

    /// Sets `tag` to as much of `value` as a tag holds: control characters become spaces,
    /// and the text is cut after [`MAX_TAG_CHARS`] characters (another program's record is
    /// read, not refused, for a tag).
    pub fn set_fitted(&mut self, tag: Tag, value: &str) {
        let fitted: String = value
            .trim()
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .take(MAX_TAG_CHARS)
            .collect();
        self.values[tag.index()] = Some(fitted.trim().to_owned()).filter(|v| !v.is_empty());
    }

    /// Removes `tag`.
    pub fn remove(&mut self, tag: Tag) {
        self.values[tag.index()] = None;
    }
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
    /// When the game was played, as the record wrote it, where that is not a day `created`
    /// can hold (`2016.??.??`).
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
}

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
    type Error = TagError;

    fn try_from(mut fields: TagsFields) -> Result<Self, Self::Error> {
        let mut tags = Tags::default();
        for tag in Tag::ALL {
            if let Some(value) = fields.field(tag).take() {
                tags.set(tag, &value)?;
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
        };
        for (tag, value) in tags.iter() {
            *fields.field(tag) = Some(value.to_owned());
        }
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
}
