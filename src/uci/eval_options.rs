//! The evaluation's UCI options: `EvalFile` (a network file; empty or `<embedded>`: the network
//! built into the engine), `Use NNUE` (false: the hand-crafted evaluation) and `UCI_ShowWDL`
//! (win/draw/loss chances on every `info` line with a score).
//!
//! The strength levels (`UCI_LimitStrength`, `Skill Level`) play with the hand-crafted
//! evaluation whatever these say: their calibration was measured with it.

use std::ffi::OsStr;
use std::path::Path;
use std::sync::Arc;

use crate::eval::nnue::{embedded, Network, EMBEDDED_NAME};

use super::options::parse_check;
use super::OptionError;

/// `EvalFile`, `Use NNUE` and `UCI_ShowWDL`.
#[derive(Clone, Debug)]
pub struct EvalOptions {
    /// A network loaded with `EvalFile` and the file it came from; `None`: the embedded one.
    file: Option<(String, Arc<Network>)>,
    use_nnue: bool,
    show_wdl: bool,
}

impl Default for EvalOptions {
    /// The embedded network, no WDL.
    fn default() -> Self {
        EvalOptions {
            file: None,
            use_nnue: true,
            show_wdl: false,
        }
    }
}

impl EvalOptions {
    /// The option lines sent in reply to `uci`.
    pub const UCI_OPTIONS: [&'static str; 3] = [
        "option name EvalFile type string default <embedded>",
        "option name Use NNUE type check default true",
        "option name UCI_ShowWDL type check default false",
    ];

    /// True when `name` is one of these options.
    pub fn handles(name: &str) -> bool {
        ["EvalFile", "Use NNUE", "UCI_ShowWDL"]
            .iter()
            .any(|o| name.eq_ignore_ascii_case(o))
    }

    /// Sets `EvalFile`, `Use NNUE` or `UCI_ShowWDL`. `Ok` may carry a message for the GUI
    /// (which evaluation is in use); `Err` is the reason a value was refused, and the previous
    /// setting stays.
    ///
    /// ```
    /// use ferrum::uci::EvalOptions;
    /// let mut o = EvalOptions::default();
    /// let embedded = o.network().expect("the embedded network by default");
    /// assert!(o.set("EvalFile", Some("no/such.nnue")).is_err());
    /// assert!(std::sync::Arc::ptr_eq(&o.network().unwrap(), &embedded), "it stays");
    /// assert!(o.set("use nnue", Some("false")).is_ok());
    /// assert!(o.network().is_none(), "the hand-crafted evaluation");
    /// assert!(o.set("uci_showwdl", Some("true")).is_ok());
    /// assert!(o.show_wdl());
    /// ```
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Option<String>, OptionError> {
        if name.eq_ignore_ascii_case("UCI_ShowWDL") {
            self.show_wdl = parse_check("UCI_ShowWDL", value)?;
            return Ok(None);
        }
        if name.eq_ignore_ascii_case("Use NNUE") {
            self.use_nnue = parse_check("Use NNUE", value)?;
            return Ok(Some(format!("evaluation: {}", self.describe())));
        }
        let path = value.map(str::trim).unwrap_or("");
        self.set_file(OsStr::new(path)).map(Some)
    }

    /// Sets `EvalFile` to `path` (empty, `<empty>` or `<embedded>`: the embedded network) and
    /// says which evaluation is now in use; on `Err` the previous one stays. The loop passes
    /// the value's bytes as sent, so a path that is not UTF-8 still loads where the platform
    /// allows it (see [`crate::uci::OptionValue`]).
    pub fn set_file(&mut self, path: &OsStr) -> Result<String, OptionError> {
        if path.is_empty() || path == "<empty>" || path == "<embedded>" {
            self.file = None;
        } else {
            // Messages name the file lossily: they are text for the GUI, the path is not.
            let name = path.to_string_lossy().into_owned();
            match Network::load(Path::new(path)) {
                Ok(net) => self.file = Some((name, Arc::new(net))),
                Err(error) => {
                    return Err(OptionError::EvalFile {
                        path: name,
                        error,
                        kept: self.file.as_ref().map(|(file, _)| file.clone()),
                    })
                }
            }
        }
        Ok(format!("EvalFile: {}", self.describe()))
    }

    /// The network to search with (`None`: the hand-crafted evaluation).
    pub fn network(&self) -> Option<Arc<Network>> {
        if !self.use_nnue {
            return None;
        }
        match &self.file {
            Some((_, net)) => Some(Arc::clone(net)),
            None => embedded(),
        }
    }

    /// The evaluation in use, in words (for `eval` and the GUI's `info string`).
    pub fn describe(&self) -> String {
        match (&self.file, self.network().is_some()) {
            (_, false) => "the hand-crafted evaluation (Use NNUE false)".to_string(),
            (Some((file, _)), true) => format!("network {file}"),
            (None, true) => format!("network {EMBEDDED_NAME} (embedded)"),
        }
    }

    /// True when `info` lines carry `wdl`.
    pub fn show_wdl(&self) -> bool {
        self.show_wdl
    }
}
