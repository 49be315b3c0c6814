//! Why a `setoption` was refused. The UCI loop sends the message as `info string` and the
//! option keeps its value, so every option module refuses in the same words.

use std::fmt;

use crate::eval::nnue::NetError;

/// A refused `setoption` (the option keeps its previous value).
///
/// ```
/// use ferrum::uci::{parse_setoption, OptionError};
/// let e = parse_setoption("Hash", Some("0")).unwrap_err();
/// assert!(matches!(e, OptionError::OutOfRange { min: 1, value: 0, .. }));
/// assert_eq!(e.to_string(), "option Hash must be between 1 and 65536, not 0; unchanged");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OptionError {
    /// No option has this name.
    Unknown {
        /// The name as the GUI sent it (trimmed).
        name: String,
    },
    /// A `check` option's value is not `true` or `false`.
    NotBoolean {
        /// The option.
        name: String,
    },
    /// A `spin` option's value is not a whole number.
    NotANumber {
        /// The option.
        name: String,
        /// The value as sent (trimmed).
        found: String,
    },
    /// A `spin` option's value is outside its range (it is refused, not clamped).
    OutOfRange {
        /// The option.
        name: String,
        /// The smallest value allowed.
        min: i64,
        /// The largest value allowed.
        max: i64,
        /// The value sent.
        value: i64,
    },
    /// `BookFile` could not be loaded; the engine plays without a book file.
    BookFile {
        /// Why, as [`BookError`](crate::book::BookError) says it (kept as text: a
        /// `BookError` holds an `std::io::Error`, which cannot be cloned or compared).
        reason: String,
    },
    /// `EvalFile` could not be loaded; the evaluation in use stays.
    EvalFile {
        /// The file.
        path: String,
        /// Why.
        error: NetError,
        /// The network file still in use, `None` for the embedded network.
        kept: Option<String>,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown { name } => write!(f, "unknown option '{name}'"),
            OptionError::NotBoolean { name } => write!(f, "option {name} takes true or false"),
            OptionError::NotANumber { name, found } => {
                write!(f, "option {name} needs a whole number, found '{found}'")
            }
            OptionError::OutOfRange {
                name,
                min,
                max,
                value,
            } => write!(
                f,
                "option {name} must be between {min} and {max}, not {value}; unchanged"
            ),
            OptionError::BookFile { reason } => {
                write!(f, "BookFile: {reason}; playing without a book file")
            }
            OptionError::EvalFile { path, error, kept } => {
                write!(f, "EvalFile {path}: {error}; ")?;
                match kept {
                    Some(file) => write!(f, "keeping {file}"),
                    None => f.write_str("keeping the embedded network"),
                }
            }
        }
    }
}

/// The network's error is already in the message, so no `source` is chained (error reports
/// would otherwise print it twice).
impl std::error::Error for OptionError {}
