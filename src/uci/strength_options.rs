//! The strength options: `UCI_LimitStrength`, `UCI_Elo`, `Skill Level` (as in Stockfish) and
//! `Skill Seed`. With `UCI_LimitStrength` on, `UCI_Elo` decides the level; otherwise `Skill
//! Level` does (20, the default, is full strength; 0..=19 map to an Elo, see
//! [`Skill::from_level`]). What a level does to the search is in [`crate::search::Skill`].

use std::time::{SystemTime, UNIX_EPOCH};

use crate::search::{skill_seed, Skill};

use super::options::{parse_check, parse_spin};
use super::OptionError;

/// The strength options and the count of limited searches (for per-move seeds).
#[derive(Clone, Debug)]
pub struct StrengthOptions {
    limit: bool,
    elo: u32,
    level: u32,
    /// `Skill Seed`: 0 draws a base from the clock (different games every session).
    seed: u64,
    /// The base seed in use: `seed`, or the clock's when it is 0.
    base: u64,
    /// Limited searches since the seed was set: each move draws differently.
    searches: u64,
}

/// `UCI_Elo`'s default.
const DEFAULT_ELO: u32 = 1_500;
/// `Skill Seed`'s maximum (a spin a GUI can show).
const MAX_SEED: u64 = 2_147_483_647;

impl Default for StrengthOptions {
    fn default() -> Self {
        StrengthOptions {
            limit: false,
            elo: DEFAULT_ELO,
            level: Skill::MAX_LEVEL,
            seed: 0,
            base: clock_seed(),
            searches: 0,
        }
    }
}

/// A seed from the clock, for a session whose `Skill Seed` is 0.
fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

impl StrengthOptions {
    /// The option lines sent in reply to `uci`.
    pub const UCI_OPTIONS: [&'static str; 4] = [
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1500 min 1000 max 2800",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name Skill Seed type spin default 0 min 0 max 2147483647",
    ];

    /// True when `name` is one of these options.
    pub fn handles(name: &str) -> bool {
        ["UCI_LimitStrength", "UCI_Elo", "Skill Level", "Skill Seed"]
            .iter()
            .any(|n| n.eq_ignore_ascii_case(name.trim()))
    }

    /// Sets one of the options; `Err` is the reason a value was refused (the option keeps its
    /// value). Setting `Skill Seed` restarts its sequence, so a fixed seed repeats a session.
    ///
    /// ```
    /// use ferrum::uci::StrengthOptions;
    /// let mut o = StrengthOptions::default();
    /// assert_eq!(o.elo(), None, "full strength by default");
    /// o.set("Skill Level", Some("0")).unwrap();
    /// assert_eq!(o.elo(), Some(1000));
    /// o.set("uci_limitstrength", Some("true")).unwrap();
    /// assert_eq!(o.elo(), Some(1500), "UCI_Elo decides");
    /// assert!(o.set("UCI_Elo", Some("3500")).is_err());
    /// ```
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let name = name.trim();
        if name.eq_ignore_ascii_case("UCI_LimitStrength") {
            self.limit = parse_check("UCI_LimitStrength", value)?;
        } else if name.eq_ignore_ascii_case("UCI_Elo") {
            let min = u64::from(Skill::MIN_ELO);
            self.elo = parse_spin("UCI_Elo", value, min as i64, i64::from(Skill::MAX_ELO))? as u32;
        } else if name.eq_ignore_ascii_case("Skill Level") {
            self.level = parse_spin("Skill Level", value, 0, i64::from(Skill::MAX_LEVEL))? as u32;
        } else if name.eq_ignore_ascii_case("Skill Seed") {
            self.seed = parse_spin("Skill Seed", value, 0, MAX_SEED as i64)? as u64;
            self.base = if self.seed == 0 {
                clock_seed()
            } else {
                self.seed
            };
            self.searches = 0;
        } else {
            return Err(OptionError::Unknown {
                name: name.to_string(),
            });
        }
        Ok(())
    }

    /// The Elo the engine plays at, `None` for full strength.
    pub fn elo(&self) -> Option<u32> {
        if self.limit {
            Some(self.elo)
        } else {
            Skill::from_level(self.level, 0).map(|s| s.elo())
        }
    }

    /// The level for the next search of the position with Zobrist key `key` (`None`: full
    /// strength); each call counts one search, so the next move draws differently.
    pub fn next_skill(&mut self, key: u64) -> Option<Skill> {
        let elo = self.elo()?;
        self.searches += 1;
        Some(Skill::new(elo, skill_seed(self.base, self.searches, key)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limit_strength_makes_uci_elo_decide_and_skill_level_maps_otherwise() {
        let mut o = StrengthOptions::default();
        assert_eq!(o.next_skill(1), None);
        o.set("UCI_Elo", Some("1200")).unwrap();
        assert_eq!(o.elo(), None, "UCI_Elo alone changes nothing");
        o.set("Skill Level", Some("19")).unwrap();
        assert_eq!(o.elo(), Some(2710));
        o.set("UCI_LimitStrength", Some("TRUE")).unwrap();
        assert_eq!(o.elo(), Some(1200));
        o.set("UCI_LimitStrength", Some("false")).unwrap();
        o.set("Skill Level", Some("20")).unwrap();
        assert_eq!(o.elo(), None);
    }

    #[test]
    fn bad_values_are_refused_and_keep_the_option() {
        let mut o = StrengthOptions::default();
        assert!(o.set("UCI_Elo", Some("999")).is_err());
        assert!(o.set("UCI_Elo", Some("2801")).is_err());
        assert!(o.set("Skill Level", Some("21")).is_err());
        assert!(o.set("Skill Level", Some("-1")).is_err());
        assert!(o.set("Skill Seed", Some("x")).is_err());
        assert!(o.set("UCI_LimitStrength", None).is_err());
        assert_eq!(o.elo(), None);
        o.set("UCI_LimitStrength", Some("true")).unwrap();
        assert_eq!(o.elo(), Some(DEFAULT_ELO));
    }

    #[test]
    fn a_fixed_seed_repeats_and_each_search_draws_anew() {
        let mut o = StrengthOptions::default();
        o.set("Skill Level", Some("3")).unwrap();
        o.set("Skill Seed", Some("7")).unwrap();
        let first = (o.next_skill(5), o.next_skill(5));
        assert_ne!(first.0, first.1, "a new seed per search");
        o.set("Skill Seed", Some("7")).unwrap();
        assert_eq!((o.next_skill(5), o.next_skill(5)), first);
    }

    #[test]
    fn the_declarations_match_the_defaults_and_ranges() {
        let o = StrengthOptions::default();
        assert_eq!((o.elo, o.level, o.seed), (DEFAULT_ELO, Skill::MAX_LEVEL, 0));
        let elo = StrengthOptions::UCI_OPTIONS[1];
        assert!(elo.ends_with(&format!(
            "default {DEFAULT_ELO} min {} max {}",
            Skill::MIN_ELO,
            Skill::MAX_ELO
        )));
        assert!(StrengthOptions::UCI_OPTIONS[3].ends_with(&format!("max {MAX_SEED}")));
        for line in StrengthOptions::UCI_OPTIONS {
            let name = &line["option name ".len()..line.find(" type").unwrap_or(0)];
            assert!(StrengthOptions::handles(name), "{name}");
        }
    }
}
