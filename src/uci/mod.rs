//! The UCI front end: a pure command parser and the loop that answers a GUI.

// The modules are private and their public items are re-exported here, so each has one path
// (`uci::Session`, not also `uci::session::Session`).
mod book;
mod command;
mod error;
mod eval_options;
mod input;
mod options;
mod report;
mod session;
mod strength_options;
mod syzygy;
mod tasks;

pub use book::BookOptions;
pub use command::{parse, parse_bytes, Command, GoParams, OptionValue, ParseError, StartPosition};
pub use error::OptionError;
pub use eval_options::EvalOptions;
pub use input::MAX_LINE;
pub use options::{declarations, parse_setoption, Change, Options};
pub use report::{bestmove_lines, info_line, info_line_wdl, score_wdl, write_lines, UciReporter};
pub use session::{Flow, Session, ENGINE_AUTHOR, ENGINE_NAME};
pub use strength_options::StrengthOptions;
pub use syzygy::SyzygyOptions;
