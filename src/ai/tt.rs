//! The transposition table: search results keyed by Zobrist key, in buckets of four 16-byte
//! entries (one 64-byte cache line): a position may be stored in any entry of its bucket.

use crate::rules::{Move, Square};

/// The largest table, in megabytes: larger sizes asked for are cut to it.
pub const MAX_TT_MB: usize = 4096;

/// What a stored score says about the true score.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (a beta cutoff).
    Lower,
    /// The true score is at most this (every move failed low).
    Upper,
}

/// One stored search result.
#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    /// The best move as `1 << 15 | from << 6 | to`, 0 for none.
    mv: u16,
    score: i16,
    depth: i8,
    /// The bound in the low 2 bits, the search generation above.
    meta: u8,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 16);

/// A probed entry.
#[derive(Copy, Clone, Debug)]
pub struct Hit {
    /// The best move found there, if any.
    pub mv: Option<Move>,
    /// The stored score (ply-adjusted by the caller).
    pub score: i32,
    /// The depth it was searched to.
    pub depth: i32,
    /// What the score bounds.
    pub bound: Bound,
}

/// Entries in a bucket.
const BUCKET: usize = 4;

/// A fixed-size table; in a full bucket the entry of an older search, then the shallowest, is
/// replaced.
pub struct Table {
    entries: Vec<Entry>,
    /// The bucket index mask (buckets are `BUCKET` entries).
    mask: usize,
    generation: u8,
}

impl Table {
    /// A table of at most `megabytes` MB (a power of two number of entries, at least 1 MB, at
    /// most [`MAX_TT_MB`]).
    pub fn new(megabytes: usize) -> Table {
        let len = len_for(megabytes);
        Table {
            entries: vec![Entry::default(); len],
            mask: len / BUCKET - 1,
            generation: 0,
        }
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3f;
    }

    /// Forgets every entry (for a search under other rules, where none of them holds).
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    #[inline]
    #[allow(clippy::cast_possible_truncation)]
    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let start = (key as usize & self.mask) * BUCKET;
        start..start + BUCKET
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let e = *self.entries[self.bucket(key)]
            .iter()
            .find(|e| e.key == key && !e.is_empty())?;
        let bound = match e.meta & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            mv: decode(e.mv),
            score: i32::from(e.score),
            depth: i32::from(e.depth),
            bound,
        })
    }

    /// Stores a result: over the position's own entry in its bucket if it has one, else over
    /// the least worth keeping (empty, then from an older search, then the shallowest).
    #[inline]
    #[allow(clippy::cast_possible_truncation)]
    pub fn store(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let generation = self.generation;
        let bucket = self.bucket(key);
        let entries = &self.entries[bucket.clone()];
        let slot = bucket.start
            + entries
                .iter()
                .position(|e| e.key == key)
                .unwrap_or_else(|| {
                    let worth = |e: &Entry| {
                        if e.is_empty() {
                            i32::MIN
                        } else {
                            i32::from(e.depth) - if e.meta >> 2 == generation { 0 } else { 256 }
                        }
                    };
                    (0..BUCKET).min_by_key(|&i| worth(&entries[i])).unwrap_or(0)
                });
        let old = self.entries[slot];
        let mv = match mv {
            Some(m) => encode(m),
            None if old.key == key => old.mv,
            None => 0,
        };
        let bound_bits = match bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        self.entries[slot] = Entry {
            key,
            mv,
            score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            depth: depth.clamp(0, i32::from(i8::MAX)) as i8,
            meta: self.generation << 2 | bound_bits,
        };
    }
}

/// Entries in a megabyte.
const ENTRIES_PER_MB: usize = (1 << 20) / std::mem::size_of::<Entry>();

/// The number of entries of a table of at most `megabytes` MB (at least 1, at most
/// [`MAX_TT_MB`]): the largest power of two that fits. Checked arithmetic: no size asked
/// overflows.
fn len_for(megabytes: usize) -> usize {
    let wanted = megabytes
        .clamp(1, MAX_TT_MB)
        .checked_mul(ENTRIES_PER_MB)
        .unwrap_or(ENTRIES_PER_MB);
    1 << wanted.ilog2()
}

impl Entry {
    /// Whether nothing was ever stored here.
    fn is_empty(&self) -> bool {
        self.meta == 0 && self.mv == 0 && self.depth == 0 && self.score == 0
    }
}

#[allow(clippy::cast_possible_truncation)]
fn encode(mv: Move) -> u16 {
    1 << 15 | (mv.from().index() as u16) << 6 | mv.to().index() as u16
}

fn decode(bits: u16) -> Option<Move> {
    if bits == 0 {
        return None;
    }
    let from = Square::from_index(usize::from(bits >> 6 & 0x3f))?;
    let to = Square::from_index(usize::from(bits & 0x3f))?;
    Some(Move::new(from, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let mut table = Table::new(1);
        let mv = Move::new("d2".parse().unwrap(), "c2".parse().unwrap());
        assert!(table.probe(12345).is_none());
        table.store(12345, Some(mv), -321, 7, Bound::Lower);
        let hit = table.probe(12345).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.depth, hit.bound),
            (Some(mv), -321, 7, Bound::Lower)
        );
        assert!(table.probe(12345 + (1 << 40)).is_none());
    }

    #[test]
    fn a_bucket_keeps_four_positions_and_replaces_the_shallowest() {
        let mut table = Table::new(1);
        let buckets = (table.mask + 1) as u64;
        // Five keys of one bucket, stored at depths 5, 3, 8, 6, then 4.
        let keys: Vec<u64> = (1..=5).map(|i| 7 + i * buckets).collect();
        for (&key, depth) in keys.iter().zip([5, 3, 8, 6]) {
            table.store(key, None, 10, depth, Bound::Exact);
        }
        assert!(keys[..4].iter().all(|&k| table.probe(k).is_some()));
        table.store(keys[4], None, 10, 4, Bound::Exact);
        let kept: Vec<bool> = keys.iter().map(|&k| table.probe(k).is_some()).collect();
        assert_eq!(kept, [true, false, true, true, true]);
        // An older search's entries go first, the shallowest of them: not the depth-2 entry
        // of this search, but the depth-4 one of the last.
        table.new_search();
        table.store(keys[0], None, 10, 2, Bound::Exact);
        table.store(keys[1], None, 10, 1, Bound::Exact);
        let kept: Vec<bool> = keys.iter().map(|&k| table.probe(k).is_some()).collect();
        assert_eq!(kept, [true, true, true, true, false]);
    }

    #[test]
    fn any_size_asked_gives_a_table_that_fits_in_memory() {
        let per_megabyte = ENTRIES_PER_MB;
        assert_eq!(per_megabyte, (1 << 20) / 16);
        assert_eq!(len_for(0), per_megabyte);
        assert_eq!(len_for(3), 2 * per_megabyte);
        assert_eq!(len_for(MAX_TT_MB), MAX_TT_MB * per_megabyte);
        for megabytes in [MAX_TT_MB + 1, usize::MAX / 2, usize::MAX] {
            assert_eq!(len_for(megabytes), MAX_TT_MB * per_megabyte, "{megabytes}");
        }
    }

    #[test]
    fn size_is_bounded_by_the_megabytes_asked() {
        let table = Table::new(3);
        assert_eq!(table.entries.len() * 16, 2 << 20);
    }
}
