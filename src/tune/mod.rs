//! Learning Ferrum's evaluation from its own games.
//!
//! - [`datagen`]: self-play at a node limit per move, whole games (every move with its search
//!   score, the result) written in binary chunks ([`gamefile`], [`chunks`];
//!   `src/tune/DATA_FORMAT.md`), reproducible from a run's seed.
//! - [`filter`]: which positions of those games are fit to learn from (quiet ones).
//! - [`nnue`]: the network's trainer (`ferrum train`), whose quantised output the engine loads.
//! - [`tuner`]: the Texel tuner of the hand-crafted evaluation's weights (`ferrum tune`;
//!   `src/eval/TUNING.md` records how the current weights were made).
//! - [`wdl`]: the fit of the win/draw/loss model behind `UCI_ShowWDL` (`ferrum wdl`).
//!
//! `TRAINING.md` records every data set and network and the commands that make them again.

pub mod chunks;
pub mod datagen;
pub mod filter;
pub mod gamefile;
pub mod nnue;
pub mod tuner;
pub mod wdl;

/// A small deterministic random number generator (SplitMix64): data generation must be
/// reproducible from its seed and needs no dependency for that.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        crate::core::zobrist::splitmix(&mut self.0)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// One training position as read from a data file.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position.
    pub fen: String,
    /// The search score from White's view, in centipawns.
    pub score: i32,
    /// The game's result for White: 1.0 win, 0.5 draw, 0.0 loss.
    pub result: f64,
}

/// Why a data line is not a training position (see [`parse_sample`]). The FEN is not checked
/// here; the tuner reads it and reports a bad one itself.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SampleError {
    /// Not three fields separated by `|`.
    Fields {
        /// How many fields the line has.
        found: usize,
    },
    /// The score is not an integer.
    Score {
        /// The score field as written.
        text: String,
    },
    /// The result is not one of the accepted spellings of a win, draw or loss.
    Result {
        /// The result field as written.
        text: String,
    },
}

impl std::fmt::Display for SampleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SampleError::Fields { found } => write!(
                f,
                "expected `FEN | score | result` (3 fields separated by `|`), found {found} field(s)"
            ),
            SampleError::Score { text } => write!(f, "the score `{text}` is not an integer"),
            SampleError::Result { text } => {
                write!(f, "the result `{text}` is not 1.0, 0.5 or 0.0")
            }
        }
    }
}

impl std::error::Error for SampleError {}

/// Parses one data line (`FEN | score | result`); the error says what is wrong with it.
///
/// ```
/// use ferrum::tune::parse_sample;
/// let s = parse_sample("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 900 | 1.0").unwrap();
/// assert_eq!((s.score, s.result), (900, 1.0));
/// let e = parse_sample("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 900").unwrap_err();
/// assert_eq!(e, ferrum::tune::SampleError::Fields { found: 2 });
/// ```
pub fn parse_sample(line: &str) -> Result<Sample, SampleError> {
    let parts: Vec<&str> = line.split('|').map(str::trim).collect();
    let [fen, score, result] = parts.as_slice() else {
        return Err(SampleError::Fields { found: parts.len() });
    };
    let score = score.parse::<i32>().map_err(|_| SampleError::Score {
        text: score.to_string(),
    })?;
    let result = match *result {
        "1.0" | "1" | "1-0" => 1.0,
        "0.5" | "1/2-1/2" => 0.5,
        "0.0" | "0" | "0-1" => 0.0,
        other => {
            return Err(SampleError::Result {
                text: other.to_string(),
            });
        }
    };
    Ok(Sample {
        fen: fen.to_string(),
        score,
        result,
    })
}
