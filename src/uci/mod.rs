//! The UCI front end: a pure command parser and the loop that answers a GUI.

pub mod book;
pub mod command;
mod error;
pub mod eval_options;
pub mod options;
pub mod report;
pub mod session;
pub mod strength_options;
pub mod syzygy;
mod tasks;

pub use book::BookOptions;
pub use command::{parse, Command, GoParams, ParseError, StartPosition};
pub use error::OptionError;
pub use session::{Flow, Session};
pub use syzygy::SyzygyOptions;
