//! JSON read as `serde_json` reads it, but refusing an object that names a key twice.
//!
//! `serde_json::Value` keeps the last of two values of a key without a word, so a check made
//! on a `Value` (a save's `format` and `version`, custom rules) would see one value and the
//! loader another, or none of the two the file's author meant. Every object of a save, and of
//! the settings file, is read through here first: a key named twice, at any depth, is refused
//! where it stands, as serde refuses a struct's field named twice.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::quote::excerpt;

/// `text` as a JSON value, if it is JSON and no object in it names a key twice; the error
/// of a duplicate key is a data error at the key ("duplicate field \`version\`"), like serde's.
pub(crate) fn from_str(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str::<Unique>(text).map(|unique| unique.0)
}

/// [`from_str`] for bytes that should be UTF-8 JSON (a file as read).
pub(crate) fn from_slice(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    serde_json::from_slice::<Unique>(bytes).map(|unique| unique.0)
}

/// A JSON value whose objects each name a key once.
struct Unique(Value);

impl<'de> Deserialize<'de> for Unique {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(UniqueVisitor).map(Unique)
    }
}

/// Builds the value as `serde_json::Value` does, but for duplicate keys.
struct UniqueVisitor;

impl<'de> Visitor<'de> for UniqueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        Unique::deserialize(deserializer).map(|unique| unique.0)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Unique(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut fields = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if fields.contains_key(&key) {
                return Err(de::Error::custom(format_args!(
                    "duplicate field `{}`",
                    excerpt(&key)
                )));
            }
            let Unique(value) = map.next_value()?;
            fields.insert(key, value);
        }
        Ok(Value::Object(fields))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_reads_as_serde_json_reads_it() {
        for text in [
            r#"{"a": [1, -2, 3.5, "x", null, true, {"b": {}}], "c": 18446744073709551615}"#,
            "[]",
            "\"\\u00e9\"",
            "null",
        ] {
            let plain: Value = serde_json::from_str(text).unwrap();
            assert_eq!(from_str(text).unwrap(), plain, "{text}");
        }
        for bad in ["{", "[1,]", "{'a': 1}", "1 2"] {
            assert!(from_str(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_key_named_twice_is_refused_at_any_depth_where_it_stands() {
        let e = from_str("{\"version\": 1,\n \"version\": 2}").unwrap_err();
        assert!(e.is_data(), "{e}");
        assert_eq!(e.line(), 2);
        assert!(
            e.to_string().starts_with("duplicate field `version`"),
            "{e}"
        );
        let deep = from_str(r#"{"a": [{"b": {"c": 1, "c": 1}}]}"#).unwrap_err();
        assert!(deep.to_string().contains("duplicate field `c`"), "{deep}");
        // The same key in two objects is no duplicate.
        assert!(from_str(r#"[{"a": 1}, {"a": 2}]"#).is_ok());
        // The key is quoted escaped.
        let raw = from_str("{\"\\u001b[2J\": 1, \"\\u001b[2J\": 1}").unwrap_err();
        assert!(raw.to_string().contains("`\\u{1b}[2J`"), "{raw}");
    }

    #[test]
    fn nesting_stays_limited() {
        let deep = "[".repeat(200) + &"]".repeat(200);
        let e = from_str(&deep).unwrap_err();
        assert!(e.to_string().contains("recursion limit"), "{e}");
    }
}
