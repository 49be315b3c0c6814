//! The search's tuning numbers, named and in one place: margins, depth limits and divisors of
//! the pruning, reduction and extension rules, each with what it does.
//!
//! The search reads each one through a function of its name (`params::rfp_margin()`). In the
//! default build that function returns a constant, so the compiled search is the same as with
//! the number written inline (the `bench` node count is unchanged). With the cargo feature
//! `tune-search` each becomes a value that can be set at run time: the UCI loop declares every
//! one as a `spin` option, and `ferrum spsa` prints them in OpenBench's SPSA input format, so a
//! tuner (OpenBench across many machines, or a local SPSA) can play games with other values.
//!
//! Margins are in centipawns. Depths are in plies of remaining depth.

/// One tunable number of the search, with the range and step a tuner should use.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Param {
    /// Its name: the function the search calls, the UCI option and the SPSA name.
    pub name: &'static str,
    /// The value the search plays with unless it is set.
    pub default: i32,
    /// The smallest value a tuner may try.
    pub min: i32,
    /// The largest value a tuner may try.
    pub max: i32,
    /// SPSA's perturbation at the end of a run (OpenBench's `c_end`): about a twentieth of the
    /// range, at least 1 for a depth.
    pub step: f64,
    /// What it does (its doc comment's lines joined, each after a space).
    pub doc: &'static str,
}

/// OpenBench's usual learning rate at the end of a run (`r_end`).
pub const SPSA_LEARNING_RATE: f64 = 0.002;

impl Param {
    /// The parameter as one line of OpenBench's SPSA input:
    /// `name, int, value, min, max, step, learning rate`.
    pub fn spsa_line(&self, value: i32) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, {}",
            self.name, value, self.min, self.max, self.step, SPSA_LEARNING_RATE
        )
    }
}

macro_rules! params {
    ($( $(#[doc = $doc:literal])+ $name:ident = $value:literal in $min:literal..=$max:literal step $step:literal; )*) => {
        /// Every parameter, in the order the search meets them.
        pub const PARAMS: &[Param] = &[$(Param {
            name: stringify!($name),
            default: $value,
            min: $min,
            max: $max,
            step: $step,
            // The doc lines, each after a space (the text after `///`), joined.
            doc: concat!($($doc),+),
        }),*];

        /// One index per parameter into [`PARAMS`] (and the run-time values).
        #[allow(non_camel_case_types)]
        #[derive(Copy, Clone)]
        enum Id { $($name),* }

        #[cfg(feature = "tune-search")]
        static VALUES: [std::sync::atomic::AtomicI32; PARAMS.len()] =
            [$(std::sync::atomic::AtomicI32::new($value)),*];

        $(
            $(#[doc = $doc])+
            #[inline(always)]
            pub fn $name() -> i32 {
                value(Id::$name, $value)
            }
        )*
    };
}

/// The value in force: the default, or in a `tune-search` build the value last set.
#[cfg(not(feature = "tune-search"))]
#[inline(always)]
fn value(_: Id, default: i32) -> i32 {
    default
}

#[cfg(feature = "tune-search")]
#[inline(always)]
fn value(id: Id, _: i32) -> i32 {
    VALUES[id as usize].load(std::sync::atomic::Ordering::Relaxed)
}

params! {
    /// Aspiration windows: the first window's half-width around the last iteration's score.
    asp_delta = 25 in 5..=100 step 4.0;
    /// Aspiration windows: the first depth searched with a window instead of the full range.
    asp_min_depth = 4 in 1..=10 step 1.0;
    /// Aspiration windows: past this half-width the window opens to the full range.
    asp_full_width = 1000 in 200..=3000 step 120.0;
    /// Reverse futility pruning: the deepest remaining depth it applies at.
    rfp_depth = 8 in 2..=14 step 1.0;
    /// Reverse futility pruning: the margin per ply of depth by which the evaluation must
    /// exceed beta (one ply less when improving).
    rfp_margin = 80 in 20..=200 step 8.0;
    /// Null-move pruning: the smallest depth it is tried at.
    nmp_min_depth = 3 in 1..=6 step 1.0;
    /// Null-move pruning: the reduction at any depth.
    nmp_base = 3 in 1..=6 step 1.0;
    /// Null-move pruning: one more ply of reduction per this many plies of depth.
    nmp_depth_divisor = 4 in 2..=8 step 1.0;
    /// Null-move pruning: one more ply of reduction per this much evaluation above beta.
    nmp_eval_divisor = 200 in 50..=400 step 16.0;
    /// Null-move pruning: the most the evaluation's excess adds to the reduction.
    nmp_eval_max = 3 in 1..=6 step 1.0;
    /// Null-move pruning: from this depth on, a null-move cutoff is verified by a search.
    nmp_verify_depth = 12 in 6..=20 step 1.0;
    /// Internal iterative reduction: a PV or cut node without a hash move at this depth or
    /// more is searched one ply shallower.
    iir_depth = 4 in 2..=8 step 1.0;
    /// Singular extension: the smallest depth it is tried at.
    se_depth = 8 in 4..=12 step 1.0;
    /// Singular extension: how much shallower than the node the hash entry may be.
    se_tt_depth_margin = 3 in 1..=6 step 1.0;
    /// Singular extension: the margin below the hash score, per ply of depth, that the other
    /// moves must stay under.
    se_margin = 2 in 1..=6 step 1.0;
    /// Late-move pruning: quiet moves tried before the rest are skipped, plus depth squared
    /// (halved when not improving).
    lmp_base = 3 in 1..=10 step 1.0;
    /// Late-move pruning: the deepest remaining depth it applies at.
    lmp_depth = 8 in 2..=12 step 1.0;
    /// Futility pruning: the deepest remaining depth it applies at.
    fp_depth = 6 in 2..=12 step 1.0;
    /// Futility pruning: the margin at any depth by which the evaluation must miss alpha.
    fp_base = 100 in 0..=300 step 12.0;
    /// Futility pruning: the margin added per ply of depth.
    fp_per_depth = 90 in 30..=200 step 8.0;
    /// SEE pruning: the deepest remaining depth moves losing material are skipped at.
    see_depth = 6 in 2..=12 step 1.0;
    /// SEE pruning: a capture is skipped when it loses more than this per ply of depth.
    see_noisy_margin = 90 in 20..=200 step 8.0;
    /// SEE pruning: a quiet move is skipped when it loses more than this per ply squared.
    see_quiet_margin = 25 in 5..=80 step 3.0;
    /// Quiescence delta pruning: a capture is skipped when even winning the piece leaves the
    /// evaluation this far below alpha.
    qs_delta = 150 in 0..=500 step 20.0;
    /// Late-move reductions: the formula's constant term, in hundredths of a ply.
    lmr_base = 75 in 0..=200 step 8.0;
    /// Late-move reductions: the divisor of ln(depth) × ln(move number), in hundredths.
    lmr_divisor = 225 in 100..=400 step 12.0;
    /// Late-move reductions: the smallest depth a move is reduced at.
    lmr_min_depth = 3 in 1..=6 step 1.0;
    /// Late-move reductions: one ply less per this much history score.
    lmr_history_divisor = 8000 in 2000..=32000 step 1000.0;
    /// Late-move reductions at the root: the moves after the first this many may be reduced.
    root_lmr_moves = 4 in 1..=10 step 1.0;
    /// Correction history: no correction of the static evaluation grows beyond this many
    /// centipawns (nor does one observation count for more).
    corr_max_cp = 64 in 16..=160 step 6.0;
    /// Correction history: an observation from a search of depth `d` has the weight
    /// `min(d + 1, this)` in 256ths against the entry's old value.
    corr_max_weight = 16 in 4..=64 step 2.0;
}

/// Why a parameter could not be set.
#[cfg(feature = "tune-search")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// No parameter has this name.
    Unknown(String),
    /// The value is outside the parameter's range.
    OutOfRange {
        /// The parameter.
        name: &'static str,
        /// The value asked for.
        value: i32,
    },
}

#[cfg(feature = "tune-search")]
impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamError::Unknown(name) => write!(f, "no search parameter {name}"),
            ParamError::OutOfRange { name, value } => {
                let p = find(name).map_or((0, 0), |p| (p.min, p.max));
                write!(f, "{name} must be between {} and {}, not {value}", p.0, p.1)
            }
        }
    }
}

#[cfg(feature = "tune-search")]
impl std::error::Error for ParamError {}

/// The parameter named `name`.
pub fn find(name: &str) -> Option<&'static Param> {
    PARAMS.iter().find(|p| p.name == name)
}

/// Sets a parameter for every search from now on (`tune-search` builds only).
#[cfg(feature = "tune-search")]
pub fn set(name: &str, value: i32) -> Result<(), ParamError> {
    let i = PARAMS
        .iter()
        .position(|p| p.name == name)
        .ok_or_else(|| ParamError::Unknown(name.to_string()))?;
    let p = &PARAMS[i];
    if !(p.min..=p.max).contains(&value) {
        return Err(ParamError::OutOfRange {
            name: p.name,
            value,
        });
    }
    VALUES[i].store(value, std::sync::atomic::Ordering::Relaxed);
    Ok(())
}

/// The value of the parameter named `name` in force now.
pub fn get(name: &str) -> Option<i32> {
    let i = PARAMS.iter().position(|p| p.name == name)?;
    #[cfg(feature = "tune-search")]
    return Some(VALUES[i].load(std::sync::atomic::Ordering::Relaxed));
    #[cfg(not(feature = "tune-search"))]
    Some(PARAMS[i].default)
}

/// Every parameter in OpenBench's SPSA input format, one line each, with the values in force.
pub fn spsa_input() -> String {
    PARAMS
        .iter()
        .map(|p| p.spsa_line(get(p.name).unwrap_or(p.default)) + "\n")
        .collect()
}

/// Tests that set a parameter, and tests that read every default, take turns through this lock
/// (the values are shared by the whole test process).
#[cfg(all(test, feature = "tune-search"))]
pub(crate) static TEST_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_lies_in_its_range_and_names_are_unique() {
        for (i, p) in PARAMS.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(p.step > 0.0 && p.step <= f64::from(p.max - p.min), "{p:?}");
            assert!(!p.doc.is_empty(), "{} has no doc", p.name);
            assert!(
                PARAMS[..i].iter().all(|q| q.name != p.name),
                "{} twice",
                p.name
            );
        }
    }

    #[test]
    fn the_functions_read_the_table() {
        assert_eq!(
            rfp_margin(),
            find("rfp_margin").map(|p| p.default).unwrap_or(-1)
        );
        assert_eq!(get("lmr_divisor"), Some(lmr_divisor()));
        assert_eq!(get("no_such_thing"), None);
    }

    #[test]
    fn spsa_input_has_one_line_of_seven_fields_per_parameter() {
        let text = spsa_input();
        assert_eq!(text.lines().count(), PARAMS.len());
        let first = text.lines().next().unwrap_or_default();
        assert_eq!(first, "asp_delta, int, 25, 5, 100, 4, 0.002");
        assert!(text.lines().all(|l| l.split(", ").count() == 7), "{text}");
    }

    #[cfg(feature = "tune-search")]
    #[test]
    fn set_checks_names_and_ranges() {
        let _turn = TEST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        assert!(matches!(set("nope", 1), Err(ParamError::Unknown(_))));
        assert!(matches!(
            set("rfp_margin", 5_000),
            Err(ParamError::OutOfRange { .. })
        ));
        assert_eq!(set("qs_delta", 160), Ok(()));
        assert_eq!(qs_delta(), 160);
        assert_eq!(set("qs_delta", 150), Ok(()));
    }
}
