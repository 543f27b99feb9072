//! The search's signature (see `brandubh::ai::bench`): the nodes a fixed set of fixed-depth
//! searches visits. It catches a change to what the search does without timing anything.

use brandubh::ai::{bench, signature};

/// The signature of the search as it stands.
const SIGNATURE: u64 = 499_303;

#[test]
fn the_search_signature_is_unchanged() {
    let results = bench().expect("every case is a legal game");
    assert!(results.iter().all(|r| r.best.is_some()), "{results:?}");
    let nodes = signature(&results);
    assert_eq!(
        nodes, SIGNATURE,
        "the search changed: the bench signature is now {nodes} nodes, pinned at {SIGNATURE}. \
         A clean-up or speed-up must not change it: find what changed what the search visits. \
         If the change to the search is intended (and measured, as the README's engine changes \
         are), set SIGNATURE in tests/it/ai_bench.rs to the new number in the same commit \
         (`cargo run --release --example bench` prints it, case by case)."
    );
}
