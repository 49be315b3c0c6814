//! The evaluation's UCI options: `EvalFile` (a network file; empty: the built-in evaluation)
//! and `UCI_ShowWDL` (win/draw/loss chances on every `info` line with a score).

use std::sync::Arc;

use crate::eval::nnue::Network;

use super::options::parse_check;
use super::OptionError;

/// `EvalFile` and `UCI_ShowWDL`.
#[derive(Clone, Debug, Default)]
pub struct EvalOptions {
    /// The loaded network and the file it came from; `None`: the built-in evaluation.
    net: Option<(String, Arc<Network>)>,
    show_wdl: bool,
}

impl EvalOptions {
    /// The option lines sent in reply to `uci`.
    pub const UCI_OPTIONS: [&'static str; 2] = [
        "option name EvalFile type string default <empty>",
        "option name UCI_ShowWDL type check default false",
    ];

    /// True when `name` is one of these options.
    pub fn handles(name: &str) -> bool {
        name.eq_ignore_ascii_case("EvalFile") || name.eq_ignore_ascii_case("UCI_ShowWDL")
    }

    /// Sets `EvalFile` or `UCI_ShowWDL`. `Ok` may carry a message for the GUI (what was
    /// loaded); `Err` is the reason a value was refused, and the previous setting stays.
    ///
    /// ```
    /// use ferrum::uci::EvalOptions;
    /// let mut o = EvalOptions::default();
    /// assert!(o.set("EvalFile", Some("no/such.nnue")).is_err());
    /// assert!(o.network().is_none(), "the built-in evaluation stays");
    /// assert!(o.set("uci_showwdl", Some("true")).is_ok());
    /// assert!(o.show_wdl());
    /// ```
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Option<String>, OptionError> {
        if name.eq_ignore_ascii_case("UCI_ShowWDL") {
            self.show_wdl = parse_check("UCI_ShowWDL", value)?;
            return Ok(None);
        }
        let path = value.map(str::trim).unwrap_or("");
        if path.is_empty() || path == "<empty>" {
            self.net = None;
            return Ok(Some("EvalFile: the built-in evaluation".to_string()));
        }
        match Network::load(std::path::Path::new(path)) {
            Ok(net) => {
                self.net = Some((path.to_string(), Arc::new(net)));
                Ok(Some(format!("EvalFile: network {path} loaded")))
            }
            Err(error) => Err(OptionError::EvalFile {
                path: path.to_string(),
                error,
                kept: self.net.as_ref().map(|(file, _)| file.clone()),
            }),
        }
    }

    /// The network to search with (`None`: the built-in evaluation).
    pub fn network(&self) -> Option<Arc<Network>> {
        self.net.as_ref().map(|(_, n)| Arc::clone(n))
    }

    /// True when `info` lines carry `wdl`.
    pub fn show_wdl(&self) -> bool {
        self.show_wdl
    }
}
