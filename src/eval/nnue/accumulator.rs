//! Accumulators: the first layer's sums for one position, per perspective, kept up to date as
//! moves are made and unmade.
//!
//! The search pushes a [`Delta`] (the pieces a move takes off and puts on squares) before each
//! move and pops it after; the accumulator of the new position is computed only when that
//! position is evaluated, from the nearest computed one below it. Nodes that end without an
//! evaluation (hash cut-offs, repetitions) cost only the push.

use crate::core::{castle_destinations, Color, Move, MoveKind, Piece, PieceKind, Position, Square};

use super::{feature, Network, HIDDEN};

/// The first layer's output for one perspective, before activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator(pub [i16; HIDDEN]);

impl Accumulator {
    /// The accumulator of `pos` seen from `perspective`, summed from scratch.
    pub fn refresh(net: &Network, pos: &Position, perspective: Color) -> Accumulator {
        let mut acc = Accumulator(net.l1_bias);
        for sq in pos.occupied().iter() {
            if let Some(piece) = pos.piece_at(sq) {
                acc.add(net, feature(perspective, piece, sq));
            }
        }
        acc
    }

    #[inline(always)]
    fn add(&mut self, net: &Network, f: usize) {
        for (a, w) in self.0.iter_mut().zip(&net.l1_weights[f]) {
            *a = a.wrapping_add(*w);
        }
    }

    #[inline(always)]
    fn sub(&mut self, net: &Network, f: usize) {
        for (a, w) in self.0.iter_mut().zip(&net.l1_weights[f]) {
            *a = a.wrapping_sub(*w);
        }
    }
}

/// What a move changes on the board: up to two pieces taken off a square and two put on one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    removed: [Option<(Piece, Square)>; 2],
    added: [Option<(Piece, Square)>; 2],
}

impl Delta {
    /// The change `m` makes to `pos` (`m` legal in `pos`; call it before making the move).
    pub fn of(pos: &Position, m: Move) -> Delta {
        let mut d = Delta::default();
        let Some(piece) = pos.moved_piece(m) else {
            return d;
        };
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Castle => {
                let (king_to, rook_to) = castle_destinations(from, to);
                let rook = Piece::new(piece.color, PieceKind::Rook);
                d.removed = [Some((piece, from)), Some((rook, to))];
                d.added = [Some((piece, king_to)), Some((rook, rook_to))];
            }
            MoveKind::EnPassant => {
                let victim_sq = Square::from_coords(to.file(), from.rank());
                d.removed = [
                    Some((piece, from)),
                    pos.captured_piece(m).map(|p| (p, victim_sq)),
                ];
                d.added[0] = Some((piece, to));
            }
            _ => {
                let landed = m
                    .promotion()
                    .map_or(piece, |kind| Piece::new(piece.color, kind));
                d.removed = [Some((piece, from)), pos.captured_piece(m).map(|p| (p, to))];
                d.added[0] = Some((landed, to));
            }
        }
        d
    }

    /// `to` becomes `from` with this change applied, seen from `perspective`.
    ///
    /// The common shapes (a quiet move: one piece off, one on; a capture: two off, one on) are
    /// done in one pass over the accumulator, reading `from` and the weight rows and writing
    /// `to` once, instead of copying and then passing once per changed piece.
    fn apply(&self, net: &Network, from: &Accumulator, to: &mut Accumulator, perspective: Color) {
        let row = |&(p, sq): &(Piece, Square)| &net.l1_weights[feature(perspective, p, sq)];
        match (self.removed, self.added) {
            ([Some(r0), None], [Some(a0), None]) => {
                let (r0, a0) = (row(&r0), row(&a0));
                for i in 0..HIDDEN {
                    to.0[i] = from.0[i].wrapping_sub(r0[i]).wrapping_add(a0[i]);
                }
            }
            ([Some(r0), Some(r1)], [Some(a0), None]) => {
                let (r0, r1, a0) = (row(&r0), row(&r1), row(&a0));
                for i in 0..HIDDEN {
                    to.0[i] = from.0[i]
                        .wrapping_sub(r0[i])
                        .wrapping_sub(r1[i])
                        .wrapping_add(a0[i]);
                }
            }
            _ => {
                *to = *from;
                for &(p, sq) in self.removed.iter().flatten() {
                    to.sub(net, feature(perspective, p, sq));
                }
                for &(p, sq) in self.added.iter().flatten() {
                    to.add(net, feature(perspective, p, sq));
                }
            }
        }
    }
}

/// One ply of the stack: both perspectives' accumulators, whether they are computed yet, and
/// the move's change from the ply below.
#[derive(Clone, Copy, Debug)]
struct Entry {
    acc: [Accumulator; 2],
    computed: bool,
    delta: Delta,
}

/// The accumulators along the line the search is on, computed lazily.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    top: usize,
}

impl AccumulatorStack {
    /// A stack whose root is `pos`.
    pub fn new(net: &Network, pos: &Position) -> AccumulatorStack {
        let mut stack = AccumulatorStack {
            entries: Vec::with_capacity(256),
            top: 0,
        };
        stack.reset(net, pos);
        stack
    }

    /// Makes `pos` the root and forgets the line.
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        let root = Entry {
            acc: [
                Accumulator::refresh(net, pos, Color::White),
                Accumulator::refresh(net, pos, Color::Black),
            ],
            computed: true,
            delta: Delta::default(),
        };
        self.entries.clear();
        self.entries.push(root);
        self.top = 0;
    }

    /// A move with change `delta` is made (a null move has an empty delta).
    #[inline]
    pub fn push(&mut self, delta: Delta) {
        self.top += 1;
        if self.top < self.entries.len() {
            self.entries[self.top].computed = false;
            self.entries[self.top].delta = delta;
        } else {
            // A new ply: its accumulators are filled in when it is first evaluated.
            let acc = self.entries[self.top - 1].acc;
            self.entries.push(Entry {
                acc,
                computed: false,
                delta,
            });
        }
    }

    /// The last pushed move is unmade.
    #[inline]
    pub fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// The accumulators of the current position (White's, Black's), computed as needed.
    pub fn current(&mut self, net: &Network) -> &[Accumulator; 2] {
        let mut base = self.top;
        while !self.entries[base].computed {
            base -= 1;
        }
        for i in base + 1..=self.top {
            let (below, above) = self.entries.split_at_mut(i);
            let (from, to) = (&below[i - 1].acc, &mut above[0]);
            let delta = to.delta;
            delta.apply(net, &from[0], &mut to.acc[0], Color::White);
            delta.apply(net, &from[1], &mut to.acc[1], Color::Black);
            to.computed = true;
        }
        &self.entries[self.top].acc
    }

    /// The score for `side` to move of the current position, which has `pieces` pieces on
    /// the board (they choose the output bucket).
    pub fn evaluate(&mut self, net: &Network, side: Color, pieces: u32) -> i32 {
        let [white, black] = *self.current(net);
        let bucket = super::output_bucket(pieces);
        match side {
            Color::White => net.evaluate_accumulators(&white, &black, bucket),
            Color::Black => net.evaluate_accumulators(&black, &white, bucket),
        }
    }

    /// Plies above the root.
    pub fn depth(&self) -> usize {
        self.top
    }
}
