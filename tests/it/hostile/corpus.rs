//! The hostile corpus, generated from valid seeds so that it follows the formats as they
//! change: saved games mutated field by field and byte by byte, OpenTafl records mutated line
//! by line, move records, settings files, protocol sessions and command lines.
//!
//! Generation is deterministic: a failure names its case, and the same case comes back on the
//! next run.

use serde_json::{Value, json};

/// One hostile input: what it is, and its bytes.
pub struct Case {
    /// What the case is, for failure messages.
    pub label: String,
    /// The file's or the input's content.
    pub bytes: Vec<u8>,
}

impl Case {
    fn new(label: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Case {
        Case {
            label: label.into(),
            bytes: bytes.into(),
        }
    }
}

/// Terminal control sequences: a title change (OSC), a screen clear (CSI), a bell.
pub const ESCAPES: &str = "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{7}";

/// Values put in place of any field of a JSON file: wrong types, extremes, control characters,
/// huge and deeply nested values.
fn hostile_values() -> Vec<(&'static str, Value)> {
    let mut nested = json!(1);
    for _ in 0..200 {
        nested = json!([nested]);
    }
    vec![
        ("null", Value::Null),
        ("true", json!(true)),
        ("zero", json!(0)),
        ("minus one", json!(-1)),
        ("fraction", json!(1.5)),
        ("u64 max", json!(u64::MAX)),
        ("i64 min", json!(i64::MIN)),
        ("empty string", json!("")),
        ("escapes", json!(ESCAPES)),
        ("bidi and zero width", json!("\u{202e}\u{200b}d7-b7")),
        ("nul", json!("a\u{0}b")),
        ("100k string", json!("x".repeat(100_000))),
        ("empty array", json!([])),
        ("empty object", json!({})),
        ("nested 200", nested),
        ("number string", json!("4294967296")),
    ]
}

/// A step into a JSON value.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

/// Every path into `value` worth mutating: each object member, and the first, second and last
/// element of each array (the middle of a long list adds nothing new).
fn paths(value: &Value, prefix: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                prefix.push(Step::Key(key.clone()));
                out.push(prefix.clone());
                paths(inner, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(items) => {
            let mut indices = vec![0, 1, items.len().saturating_sub(1)];
            indices.dedup();
            for i in indices.into_iter().filter(|&i| i < items.len()) {
                prefix.push(Step::Index(i));
                out.push(prefix.clone());
                paths(&items[i], prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn describe(path: &[Step]) -> String {
    path.iter()
        .map(|step| match step {
            Step::Key(k) => format!("/{k}"),
            Step::Index(i) => format!("/{i}"),
        })
        .collect()
}

/// The value at `path` in `root`, to change.
fn at<'a>(root: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    path.iter().try_fold(root, |value, step| match step {
        Step::Key(k) => value.get_mut(k.as_str()),
        Step::Index(i) => value.get_mut(*i),
    })
}

/// `root` without what is at `path`.
fn removed(root: &Value, path: &[Step]) -> Option<Value> {
    let (last, parent) = path.split_last()?;
    let mut copy = root.clone();
    match (at(&mut copy, parent)?, last) {
        (Value::Object(map), Step::Key(k)) => {
            map.remove(k);
        }
        (Value::Array(items), Step::Index(i)) => {
            items.remove(*i);
        }
        _ => return None,
    }
    Some(copy)
}

/// Mutations of one valid JSON file, field by field: each field removed, and replaced by a
/// few of the hostile values (a different few for each field, so that every value meets many
/// fields while the corpus stays small).
pub fn json_field_mutations(name: &str, seed: &str, per_field: usize) -> Vec<Case> {
    let Ok(root) = serde_json::from_str::<Value>(seed) else {
        panic!("seed {name} is not JSON");
    };
    let mut all = Vec::new();
    paths(&root, &mut Vec::new(), &mut all);
    let values = hostile_values();
    let mut cases = Vec::new();
    for (n, path) in all.iter().enumerate() {
        let where_ = describe(path);
        if let Some(without) = removed(&root, path) {
            cases.push(Case::new(
                format!("{name}: without {where_}"),
                pretty(&without),
            ));
        }
        for k in 0..per_field {
            let (what, value) = &values[(n * per_field + k) % values.len()];
            let mut copy = root.clone();
            if let Some(slot) = at(&mut copy, path) {
                *slot = value.clone();
                cases.push(Case::new(
                    format!("{name}: {where_} = {what}"),
                    pretty(&copy),
                ));
            }
        }
    }
    // Members the format does not know, at the top level and in every object.
    let mut extra = root.clone();
    if let Value::Object(map) = &mut extra {
        map.insert(ESCAPES.into(), json!(ESCAPES));
    }
    cases.push(Case::new(format!("{name}: unknown member"), pretty(&extra)));
    cases
}

fn pretty(value: &Value) -> Vec<u8> {
    serde_json::to_vec_pretty(value).unwrap_or_default()
}

/// `seed` with its lines ended by CR alone (old Mac) and by CRLF (Windows).
fn other_line_ends(name: &str, seed: &str) -> [Case; 2] {
    [
        Case::new(format!("{name}: CR line ends"), seed.replace('\n', "\r")),
        Case::new(
            format!("{name}: CRLF line ends"),
            seed.replace('\n', "\r\n"),
        ),
    ]
}

/// Mutations of one file's bytes: cut at many places, a byte changed, encodings and
/// wrappings, duplicate keys, and sizes around the limits.
pub fn byte_mutations(name: &str, seed: &str) -> Vec<Case> {
    let bytes = seed.as_bytes();
    let mut cases = Vec::new();
    let cuts = 12;
    for k in 1..cuts {
        let at = bytes.len() * k / cuts;
        cases.push(Case::new(format!("{name}: cut at {at}"), &bytes[..at]));
    }
    for (k, replacement) in [b'\0', b'"', b'{', b']', 0xff, b'\\', b'9', b'\x1b']
        .into_iter()
        .enumerate()
    {
        let mut changed = bytes.to_vec();
        let at = (bytes.len() * (2 * k + 1)) / 17;
        changed[at] = replacement;
        cases.push(Case::new(
            format!("{name}: byte {at} = {replacement:#x}"),
            changed,
        ));
    }
    let mut bom = vec![0xef, 0xbb, 0xbf];
    bom.extend_from_slice(bytes);
    cases.push(Case::new(format!("{name}: UTF-8 byte order mark"), bom));
    let utf16: Vec<u8> = seed.encode_utf16().flat_map(u16::to_le_bytes).collect();
    cases.push(Case::new(format!("{name}: UTF-16"), utf16));
    cases.extend(other_line_ends(name, seed));
    cases.push(Case::new(format!("{name}: twice"), seed.repeat(2)));
    cases.push(Case::new(
        format!("{name}: escapes after"),
        format!("{seed}{ESCAPES}"),
    ));
    for key in ["format", "version", "rules", "moves", "result"] {
        if let Some(start) = seed.find('{') {
            let mut text = seed.to_owned();
            let copy = match key {
                "format" => "\"format\": \"brandubh-game\",",
                "version" => "\"version\": 1,",
                "rules" => "\"rules\": \"standard\",",
                "moves" => "\"moves\": [],",
                _ => "\"result\": null,",
            };
            text.insert_str(start + 1, copy);
            cases.push(Case::new(format!("{name}: duplicate {key}"), text));
        }
    }
    cases.push(Case::new(
        format!("{name}: 2 MiB of spaces before"),
        format!("{}{seed}", " ".repeat(2 << 20)),
    ));
    cases.push(Case::new(
        format!("{name}: unclosed nesting 100k deep"),
        "[".repeat(100_000),
    ));
    cases
}

/// Mutations of an OpenTafl record (`.otg`), line by line: lines removed, repeated, broken,
/// made huge, and its tags and moves given hostile values.
pub fn record_mutations(name: &str, seed: &str) -> Vec<Case> {
    let lines: Vec<&str> = seed.lines().collect();
    let mut cases = Vec::new();
    let join = |lines: &[String]| lines.join("\n") + "\n";
    for i in 0..lines.len() {
        let mut without: Vec<String> = lines.iter().map(|&l| l.to_owned()).collect();
        let line = without.remove(i);
        cases.push(Case::new(
            format!("{name}: without line {i}"),
            join(&without),
        ));
        let mut twice: Vec<String> = lines.iter().map(|&l| l.to_owned()).collect();
        twice.insert(i, line.clone());
        cases.push(Case::new(format!("{name}: line {i} twice"), join(&twice)));
        let broken = [
            line.replace(']', ""),
            line.replace('[', ""),
            line.replace(':', ""),
            line.replace('-', "-z9"),
            line.replace(|c: char| c.is_ascii_digit(), "99999999999999999999"),
            format!("{line}{ESCAPES}"),
            line.replace(' ', "\u{0}"),
            line.chars().take(line.chars().count() / 2).collect(),
        ];
        for (k, broken) in broken.into_iter().enumerate() {
            if broken != line {
                let mut changed: Vec<String> = lines.iter().map(|&l| l.to_owned()).collect();
                changed[i] = broken;
                cases.push(Case::new(
                    format!("{name}: line {i} broken ({k})"),
                    join(&changed),
                ));
            }
        }
    }
    for tag in ["start-comment", "attackers", "event", "result", "rules"] {
        for (what, value) in [
            ("escapes", ESCAPES.to_owned()),
            ("200k", "y".repeat(200_000)),
            ("brackets", "]]][[[".to_owned()),
            ("empty", String::new()),
        ] {
            cases.push(Case::new(
                format!("{name}: tag {tag} = {what}"),
                format!("[{tag}:{value}]\n{seed}"),
            ));
        }
    }
    cases.extend(other_line_ends(name, seed));
    cases.push(Case::new(
        format!("{name}: 100k turns"),
        format!("{seed}{}", "9. d1-d2 d3-d4\n".repeat(100_000)),
    ));
    cases.push(Case::new(
        format!("{name}: a 1 MiB line"),
        format!("{seed}[{}\n", "c".repeat(1 << 20)),
    ));
    cases
}

/// Move records (plain text, one or more moves a line) with hostile tokens.
pub fn move_records() -> Vec<Case> {
    let tokens = [
        "d7-b7",
        "z9-a1",
        "d7-d7",
        "Kd4-d9",
        "d7b7",
        "d7--b7",
        "d7-b7xxb6",
        "1.",
        "99999999999999999999.",
        "d\u{0}7-b7",
        ESCAPES,
        "\u{202e}d7-b7",
        "ｄ７-ｂ７",
        "d7-b7!!??",
        "",
        "-",
        "x",
    ];
    let mut cases = Vec::new();
    for (i, first) in tokens.iter().enumerate() {
        for second in tokens.iter().skip(i % 3).step_by(3) {
            cases.push(Case::new(
                format!("move record {first:?} {second:?}"),
                format!("{first} {second}\n"),
            ));
        }
    }
    cases.push(Case::new(
        "move record: 30,000 moves",
        "d7-b7 b7-d7 ".repeat(15_000),
    ));
    cases
}

/// A valid settings file, and mutations of it field by field and byte by byte.
pub fn settings() -> Vec<Case> {
    let seed = serde_json::to_string_pretty(&json!({
        "preset": "standard",
        "attackers": { "type": "human" },
        "defenders": { "type": "ai", "engine": "search", "level": "hard" },
        "clock": { "main_ms": 300_000, "increment_ms": 3_000, "periods": 0, "period_ms": 0 },
        "theme": "default",
        "ascii": false,
        "bell": false,
        "warnings": true
    }))
    .unwrap_or_default();
    let mut cases = vec![Case::new("settings: the seed", seed.clone())];
    cases.extend(json_field_mutations("settings", &seed, 6));
    cases.extend(byte_mutations("settings", &seed));
    cases
}

/// OpenTafl engine protocol sessions: a valid start, then hostile lines.
pub fn protocol_sessions() -> Vec<Case> {
    let rules = "rules dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: \
                 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    let lines: Vec<String> = vec![
        "rules".into(),
        "rules dim:99999999999 start:/".into(),
        "rules dim:7 start:/7/7/7/7/7/7/7/".into(),
        format!("rules dim:7 name:{ESCAPES} start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"),
        "position".into(),
        "position /K6/7/7/7/7/7/7/".into(),
        "position /9t/".into(),
        "move".into(),
        "move z9-z9".into(),
        "move d7-d7".into(),
        format!("move {ESCAPES}"),
        "side".into(),
        "side sideways".into(),
        "clock".into(),
        "clock 99999999999999999999 1 1 1 1".into(),
        "clock -1 -1 -1 -1 -1".into(),
        "clock x y z".into(),
        "play".into(),
        "play nobody".into(),
        "analyze".into(),
        "analyze 99999999999".into(),
        "analyze -5 -5".into(),
        "goodbye extra".into(),
        "\u{0}\u{0}\u{0}".into(),
        "\u{202e}play attackers".into(),
        "x".repeat(100_000),
        String::new(),
        "   ".into(),
    ];
    let mut cases = Vec::new();
    for line in &lines {
        cases.push(Case::new(
            format!("otep line {:?}", line.chars().take(40).collect::<String>()),
            format!("{rules}\n{line}\nplay defenders\n"),
        ));
    }
    let mut invalid = format!("{rules}\n").into_bytes();
    invalid.extend_from_slice(b"move \xff\xfe-\xc3\n\xc3\n");
    cases.push(Case::new("otep: invalid UTF-8", invalid));
    cases.push(Case::new(
        "otep: 100 play lines",
        format!("{rules}\n{}", "play attackers\n".repeat(100)),
    ));
    cases.push(Case::new(
        "otep: 100 analyze lines",
        format!("{rules}\n{}", "analyze 3 1\n".repeat(100)),
    ));
    cases.push(Case::new("otep: no line end", rules.to_owned()));
    cases
}

/// Values given to options: wrong types, extremes, control characters, overflows. None of them
/// is a valid large number (a valid million games would only be slow, not hostile).
pub fn option_values() -> Vec<String> {
    vec![
        String::new(),
        "-1".into(),
        "x".into(),
        "1.5".into(),
        "18446744073709551616".into(),
        "٣".into(),
        ESCAPES.into(),
        "\u{202e}d7".into(),
        "z9".into(),
        "0s".into(),
        "1e9h".into(),
        "99999999999999999999s".into(),
        "5m/0x".into(),
        "5m+".into(),
        "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ q".into(),
        "/9/9/9/9/9/9/9/ a".into(),
        "ai:ultra".into(),
        "otep:".into(),
        format!("otep:{ESCAPES}"),
        "x".repeat(10_000),
    ]
}
