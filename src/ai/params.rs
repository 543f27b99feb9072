//! The search's tuning numbers in one place, as the evaluation's weights are in theirs: the
//! aspiration window, the pruning near the horizon, the late-move reductions and where the
//! transposition table is used. Plain data: [`SearchParams::DEFAULT`] is what the engine plays
//! with, and a tuner (such as `examples/tune.rs`) can set any of them by name.

/// Declares the parameters, each with its type, default, range and documentation.
macro_rules! params {
    ($(
        $(#[doc = $doc:literal])+
        $name:ident: $ty:ty = $default:literal in $min:literal..=$max:literal,
    )+) => {
        /// The search's tuning numbers. Scores are in hundredths of an attacking soldier,
        /// depths in plies, move numbers count from 0 in the order moves are searched. Each
        /// has a range ([`SearchParams::with`] keeps to it; the engine clamps into it).
        #[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
        pub struct SearchParams {
            $(
                $(#[doc = $doc])+
                #[doc = concat!("\n\nDefault ", $default, ", from ", $min, " to ", $max, ".")]
                pub $name: $ty,
            )+
        }

        impl SearchParams {
            /// The values the engine plays with.
            pub const DEFAULT: SearchParams = SearchParams { $($name: $default,)+ };

            /// The parameters' names (their field names).
            pub const NAMES: [&'static str; [$(stringify!($name)),+].len()] =
                [$(stringify!($name)),+];

            /// These parameters with the one called `name` set to `value`; `None` if there is
            /// no such parameter or the value is out of its range.
            #[must_use]
            pub fn with(self, name: &str, value: i64) -> Option<SearchParams> {
                let mut params = self;
                match name {
                    $(stringify!($name) => {
                        params.$name = <$ty>::try_from(value)
                            .ok()
                            .filter(|v| ($min..=$max).contains(v))?;
                    })+
                    _ => return None,
                }
                Some(params)
            }

            /// These parameters with each brought into its range.
            #[must_use]
            pub fn clamped(self) -> SearchParams {
                SearchParams { $($name: self.$name.clamp($min, $max),)+ }
            }
        }
    };
}

params! {
    /// Half the width of the aspiration window around the score of the depth before.
    aspiration_window: i32 = 30 in 1..=1000,
    /// The first depth searched with an aspiration window (the shallower ones take the full
    /// window).
    aspiration_depth: usize = 4 in 1..=100,
    /// A window that failed is widened on the failing side by its half-width, which then
    /// doubles; past this half-width the full window is searched.
    aspiration_limit: i32 = 600 in 0..=30000,
    /// How many plies above the horizon, at most, quiet moves are pruned (futility and
    /// history pruning, outside the principal variation and with the king's lines closed;
    /// 0 for none).
    pruning_depth: i32 = 2 in 0..=100,
    /// How far below alpha, per ply above the horizon, the static score of a node may be
    /// before its quiet moves are not searched (futility pruning).
    futility_margin: i32 = 120 in 0..=30000,
    /// From this move on, a quiet move without history is not searched near the horizon
    /// (history pruning).
    late_moves: usize = 8 in 1..=200,
    /// A late quiet move is searched one ply shallower from this depth...
    reduction_depth: i32 = 3 in 1..=100,
    /// ... and this move on (late-move reduction).
    reduction_move: usize = 3 in 1..=200,
    /// A late quiet move is searched two plies shallower from this depth...
    deep_reduction_depth: i32 = 5 in 1..=100,
    /// ... and this move on.
    deep_reduction_move: usize = 8 in 1..=200,
    /// Nodes at least this many plies above the horizon use the transposition table; the
    /// shallower ones, the most numerous, gain least from it and skip it and its cache misses.
    table_depth: i32 = 2 in 1..=100,
    /// The history of move ordering is divided by this at the start of each search, so that
    /// older searches count for less.
    history_aging: i32 = 4 in 1..=1000,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_set_by_name_within_their_range() {
        let params = SearchParams::DEFAULT.with("late_moves", 10).unwrap();
        assert_eq!(params.late_moves, 10);
        assert_eq!(
            params,
            SearchParams {
                late_moves: 10,
                ..SearchParams::DEFAULT
            }
        );
        assert_eq!(SearchParams::DEFAULT.with("late_moves", -1), None);
        assert_eq!(SearchParams::DEFAULT.with("history_aging", 0), None);
        assert_eq!(SearchParams::DEFAULT.with("aspiration_window", 0), None);
        assert_eq!(SearchParams::DEFAULT.with("no_such_thing", 1), None);
        for name in SearchParams::NAMES {
            assert!(SearchParams::DEFAULT.with(name, 1).is_some(), "{name}");
        }
        assert_eq!(SearchParams::DEFAULT.clamped(), SearchParams::DEFAULT);
        let wild = SearchParams {
            history_aging: 0,
            aspiration_window: -5,
            ..SearchParams::DEFAULT
        };
        assert_eq!(
            (
                wild.clamped().history_aging,
                wild.clamped().aspiration_window
            ),
            (1, 1)
        );
    }
}
