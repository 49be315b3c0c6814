//! How long to think: a soft limit (do not start another iteration after it) and a hard limit
//! (abort the search), both from the `go` parameters and the `Move Overhead` option.

use std::time::Duration;

use crate::core::{Color, Move};

use super::Limits;

/// Moves assumed left in the game when the GUI does not say (sudden death or increment).
const DEFAULT_MOVES_TO_GO: i64 = 30;

/// The time budget of one search. `None` means no time limit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Past this, do not start a new iteration.
    pub soft: Option<Duration>,
    /// Past this, stop at once.
    pub hard: Option<Duration>,
}

impl Budget {
    /// The budget for `side` to move under `limits`, keeping `overhead_ms` per move for the
    /// GUI's and the pipes' delays. A zero or negative clock gives a budget of zero: the search
    /// still returns a legal move (its first iteration is never aborted by the clock).
    ///
    /// ```
    /// use ferrum::core::Color;
    /// use ferrum::search::{Budget, Limits};
    /// let limits = Limits { wtime: Some(60_000), winc: Some(1_000), ..Limits::default() };
    /// let b = Budget::new(&limits, Color::White, 30);
    /// let (soft, hard) = (b.soft.unwrap().as_millis(), b.hard.unwrap().as_millis());
    /// assert!(soft > 1_000 && soft < 5_000 && hard >= soft && hard < 60_000);
    /// ```
    pub fn new(limits: &Limits, side: Color, overhead_ms: u64) -> Budget {
        // Clocks beyond a few years are treated as that much, so the arithmetic cannot overflow.
        const LONGEST: i64 = 1 << 40;
        let overhead = (overhead_ms as i64).min(LONGEST);
        if let Some(mt) = limits.movetime {
            let t = Duration::from_millis((mt.clamp(0, LONGEST) - overhead).max(0) as u64);
            return Budget {
                soft: Some(t),
                hard: Some(t),
            };
        }
        let (time, inc) = match side {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let Some(time) = time else {
            return Budget {
                soft: None,
                hard: None,
            };
        };
        let inc = inc.unwrap_or(0).clamp(0, LONGEST);
        // What may be spent at all: the clock less the overhead, never below zero.
        let avail = (time.clamp(0, LONGEST) - overhead).max(0);
        let mtg = limits
            .movestogo
            .map_or(DEFAULT_MOVES_TO_GO, |m| (m as i64).clamp(1, 50));
        // Never plan to spend more than half the remaining clock on one move: on a loaded
        // machine the process can lose tens of milliseconds to the scheduler, and a low clock
        // must survive that.
        let cap = avail / 2;
        let soft = (avail / mtg + inc * 3 / 4).min(cap / 2).max(0);
        let hard = (soft * 4).min(cap).max(soft);
        Budget {
            soft: Some(Duration::from_millis(soft as u64)),
            hard: Some(Duration::from_millis(hard as u64)),
        }
    }

    /// The soft limit stretched or shrunk by `scale` (from how settled the search is), never
    /// past the hard limit. A budget whose soft and hard limits are equal (`go movetime`) asks
    /// for exactly that time, whatever the search thinks of it, so it is not scaled. `None`
    /// when there is no time limit.
    ///
    /// ```
    /// use std::time::Duration;
    /// use ferrum::search::Budget;
    /// let clock = Budget { soft: Some(Duration::from_millis(100)), hard: Some(Duration::from_millis(400)) };
    /// assert_eq!(clock.soft_limit(2.0), Some(Duration::from_millis(200)));
    /// assert_eq!(clock.soft_limit(9.0), Some(Duration::from_millis(400)));
    /// let movetime = Budget { soft: Some(Duration::from_millis(100)), hard: Some(Duration::from_millis(100)) };
    /// assert_eq!(movetime.soft_limit(0.5), Some(Duration::from_millis(100)));
    /// ```
    pub fn soft_limit(&self, scale: f64) -> Option<Duration> {
        let soft = self.soft?;
        if self.hard == Some(soft) {
            return Some(soft);
        }
        // `mul_f64` panics on a non-finite or negative factor: a non-finite scale changes
        // nothing, a negative one counts as zero.
        let scale = if scale.is_finite() {
            scale.clamp(0.0, 100.0)
        } else {
            1.0
        };
        let stretched = soft.mul_f64(scale);
        Some(self.hard.map_or(stretched, |h| stretched.min(h)))
    }
}

/// How settled the search looks after each completed iteration, to stretch or shrink the soft
/// limit: a best move that keeps changing, that gets a small share of the nodes, or whose score
/// is falling deserves more time; one that has stood for many iterations and takes most of the
/// effort deserves less. The hard limit is never moved.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settledness {
    best: Move,
    /// Completed iterations in a row that ended with `best` first.
    stable: u32,
    last_score: Option<i32>,
    /// How far the best score fell in the last iteration (0 when it rose).
    drop: i32,
}

impl Default for Settledness {
    fn default() -> Self {
        Settledness {
            best: Move::NULL,
            stable: 0,
            last_score: None,
            drop: 0,
        }
    }
}

impl Settledness {
    /// Records a completed iteration's best move and score.
    pub(crate) fn update(&mut self, best: Move, score: i32) {
        self.stable = if best == self.best {
            self.stable + 1
        } else {
            0
        };
        self.best = best;
        self.drop = self.last_score.map_or(0, |last| (last - score).max(0));
        self.last_score = Some(score);
    }

    /// The factor for the soft limit, given the share of the root's nodes (0..=1) spent on
    /// the best move so far. Between 0.4 and 2.5.
    pub(crate) fn scale(&self, best_share: f64) -> f64 {
        // A move that took most of the effort was hard to refute: the others fell fast.
        let best_share = if best_share.is_nan() {
            0.5
        } else {
            best_share.clamp(0.0, 1.0)
        };
        let share = 0.4 + 1.6 * (1.0 - best_share);
        let stability = match self.stable {
            0 => 1.4,
            1 => 1.15,
            2 => 1.0,
            3 => 0.9,
            _ => 0.8,
        };
        // A falling score is the search finding trouble (a fall of 100 cp or more counts as 100).
        let falling = 1.0 + f64::from(self.drop.clamp(0, 100)) / 200.0;
        (share * stability * falling).clamp(0.4, 2.5)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Option<Duration>) -> i64 {
        d.map_or(-1, |d| d.as_millis() as i64)
    }

    #[test]
    fn no_clock_means_no_limit() {
        let b = Budget::new(&Limits::default(), Color::White, 30);
        assert_eq!((b.soft, b.hard), (None, None));
        let only_black = Limits {
            btime: Some(1000),
            ..Limits::default()
        };
        assert_eq!(Budget::new(&only_black, Color::White, 30).hard, None);
    }

    #[test]
    fn movetime_keeps_the_overhead() {
        let l = Limits {
            movetime: Some(300),
            ..Limits::default()
        };
        let b = Budget::new(&l, Color::Black, 30);
        assert_eq!((ms(b.soft), ms(b.hard)), (270, 270));
        for extreme in [i64::MIN, -1, 0, i64::MAX] {
            let l = Limits {
                movetime: Some(extreme),
                ..Limits::default()
            };
            let b = Budget::new(&l, Color::White, u64::MAX);
            assert_eq!(b.soft, b.hard, "{extreme}");
        }
    }

    #[test]
    fn zero_and_negative_clocks_give_zero() {
        for t in [0, -500, 10] {
            let l = Limits {
                wtime: Some(t),
                winc: Some(-20),
                ..Limits::default()
            };
            let b = Budget::new(&l, Color::White, 30);
            assert_eq!((ms(b.soft), ms(b.hard)), (0, 0), "wtime {t}");
        }
    }

    #[test]
    fn never_more_than_the_clock_allows() {
        for (time, inc, mtg) in [
            (1000, 0, None),
            (1000, 100, None),
            (1000, 0, Some(2)),
            (1000, 0, Some(1)),
            (2000, 20, None),
            (100, 2000, None),
            (300_000, 0, Some(40)),
            (i64::MAX, i64::MAX, Some(u32::MAX)),
            (i64::MIN, i64::MIN, Some(0)),
        ] {
            let l = Limits {
                btime: Some(time),
                binc: Some(inc),
                movestogo: mtg,
                ..Limits::default()
            };
            let b = Budget::new(&l, Color::Black, 30);
            let (s, h) = (ms(b.soft), ms(b.hard));
            assert!(s <= h, "{time} {inc} {mtg:?}");
            let clock = time.clamp(0, 1 << 40);
            assert!(
                h <= ((clock - 30) / 2).max(0),
                "{time} {inc} {mtg:?}: hard {h}"
            );
        }
    }

    #[test]
    fn the_soft_limit_stretches_only_clock_budgets_and_never_past_hard() {
        for (time, inc) in [
            (60_000, 0),
            (60_000, 1_000),
            (300, 10),
            (5, 0),
            (10_000, 100),
        ] {
            let limits = Limits {
                wtime: Some(time),
                winc: Some(inc),
                ..Limits::default()
            };
            let b = Budget::new(&limits, Color::White, 10);
            for scale in [0.4, 1.0, 2.5, 1e9, f64::NAN, -1.0] {
                let limit = b.soft_limit(scale).unwrap();
                assert!(
                    Some(limit) <= b.hard,
                    "{time}+{inc} x{scale}: {limit:?} > {b:?}"
                );
            }
            if b.soft.unwrap().as_millis() > 0 {
                assert!(
                    b.soft_limit(2.0) > b.soft && b.soft_limit(0.5) < b.soft,
                    "{b:?}"
                );
            }
        }
        let movetime = Budget::new(
            &Limits {
                movetime: Some(1_000),
                ..Limits::default()
            },
            Color::White,
            10,
        );
        for scale in [0.4, 2.5] {
            assert_eq!(movetime.soft_limit(scale), movetime.soft);
        }
        assert_eq!(
            Budget::new(&Limits::default(), Color::White, 10).soft_limit(2.0),
            None
        );
    }

    #[test]
    fn a_settled_search_stops_sooner_than_an_unsettled_one() {
        let (a, b) = (Move::from_bits(12 | 28 << 6), Move::from_bits(11 | 27 << 6));
        let mut settled = Settledness::default();
        for _ in 0..6 {
            settled.update(a, 30);
        }
        let mut changing = Settledness::default();
        for (i, m) in [a, b, a, b, a, b].into_iter().enumerate() {
            changing.update(m, 30 - 20 * i as i32);
        }
        let calm = settled.scale(0.9);
        let restless = changing.scale(0.3);
        assert!(calm < 0.7, "{calm}");
        assert!(restless > 1.6, "{restless}");
        // Each factor moves the scale the right way on its own.
        assert!(settled.scale(0.2) > settled.scale(0.8));
        let mut falling = settled;
        falling.update(a, -70);
        assert!(falling.scale(0.9) > settled.scale(0.9));
        for share in [-1.0, 0.0, 0.5, 1.0, 2.0, f64::NAN] {
            let s = changing.scale(share);
            assert!((0.4..=2.5).contains(&s), "{share}: {s}");
        }
    }
}
