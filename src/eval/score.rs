//! A middlegame/endgame score pair and the blend between the two by game phase.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A pair of values, one for the middlegame and one for the endgame, in centipawns.
///
/// ```
/// use ferrum::eval::S;
/// let s = S(10, 30) + S(5, -10);
/// assert_eq!(s, S(15, 20));
/// assert_eq!(s.taper(24), 15); // all pieces on: pure middlegame
/// assert_eq!(s.taper(0), 20); // bare kings and pawns: pure endgame
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

/// The phase of a position with all the pieces of the start position on the board.
pub const MAX_PHASE: i32 = 24;

impl S {
    /// Both halves zero.
    pub const ZERO: S = S(0, 0);

    /// The middlegame half.
    #[inline(always)]
    pub const fn mg(self) -> i32 {
        self.0
    }

    /// The endgame half.
    #[inline(always)]
    pub const fn eg(self) -> i32 {
        self.1
    }

    /// The blend of the two halves for `phase` (0 = endgame .. [`MAX_PHASE`] = middlegame).
    /// Phases outside that range (promoted pieces) are clamped.
    #[inline(always)]
    pub const fn taper(self, phase: i32) -> i32 {
        let p = if phase > MAX_PHASE {
            MAX_PHASE
        } else if phase < 0 {
            0
        } else {
            phase
        };
        (self.0 * p + self.1 * (MAX_PHASE - p)) / MAX_PHASE
    }

    /// Sum usable in `const` tables.
    #[inline(always)]
    pub const fn plus(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}

impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}

impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}

impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}

impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taper_blends_linearly_and_clamps() {
        let s = S(100, 200);
        assert_eq!(s.taper(12), 150);
        assert_eq!(s.taper(6), 175);
        assert_eq!(s.taper(40), 100);
        assert_eq!(s.taper(-3), 200);
        assert_eq!((-s * 2).taper(0), -400);
    }
}
