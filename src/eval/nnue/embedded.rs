//! The network built into the library and the engine: the evaluation Ferrum plays with unless
//! told otherwise (`EvalFile`, `Use NNUE` in UCI; [`crate::search::Job::net`] in the library).
//!
//! It was trained only on Ferrum's own self-play games: the third network, `g2-239` (data sets
//! gen0, scored by Ferrum's search with the hand-crafted evaluation; gen1, scored with the first
//! network `g0-76`; and gen2, scored with the second, `g1-142`), fine-tuned on gen3 (scored with
//! `g2-239`) into `g3-353`, on gen4 (scored with `g3-353`) into `g4-483t`, with one output layer
//! shared by its 8 output buckets, on gen4 and gen5 (scored with `g4-483t`) into `g5-576t`, its
//! output biases corrected for quantisation, and on gen6 (scored with `g5-576t`) into
//! `g6-724tr`, whose target is a fifth the game result and four fifths the search score on the
//! scale the data shows; each fine-tune was brought back to `g3-353`'s scale. `TRAINING.md`
//! records its data (chunk names, counts and hashes), the trainer's settings and the command
//! that reproduces it, and the games that showed it stronger than `g5-576t`.

use std::sync::{Arc, LazyLock};

use super::Network;

/// The name of the embedded network (its row in `TRAINING.md`: the data set and how many of
/// its chunks it was trained on).
pub const EMBEDDED_NAME: &str = "g6-724tr";

static BYTES: &[u8] = include_bytes!("g6-724tr.nnue");

static EMBEDDED: LazyLock<Option<Arc<Network>>> =
    // The file is checked by the tests (it loads, and plays); were it ever unreadable, the
    // hand-crafted evaluation is the safe answer rather than a panic.
    LazyLock::new(|| Network::from_bytes(BYTES).ok().map(Arc::new));

/// The embedded network, shared (`None` only if the built-in file were damaged, which the
/// tests rule out).
///
/// ```
/// let net = ferrum::eval::nnue::embedded().expect("the built-in network loads");
/// let score = net.evaluate(&ferrum::core::Position::startpos());
/// assert!(score.abs() < 100, "the start position is about level: {score}");
/// ```
pub fn embedded() -> Option<Arc<Network>> {
    EMBEDDED.clone()
}
