//! Syzygy endgame tablebases: win/draw/loss (WDL) and distance-to-zeroing (DTZ) probes of
//! positions with few pieces, for the search and for library users.
//!
//! The probing itself is done by the `pyrrhic-rs` crate (MIT; a Rust port of the Fathom/Pyrrhic
//! prober) with Ferrum's attack tables plugged in. That crate keeps one set of tables per
//! process and trusts the files it maps, so this module adds what it lacks: every file is
//! checked before it can be mapped, a probe that could reach a bad file is not made, positions
//! the tables do not cover (castling rights, too many pieces) are refused here, and results come
//! back as Ferrum's types.
//!
//! ```
//! use ferrum::core::Position;
//! use ferrum::tb::{Tablebases, Wdl};
//!
//! // The tables beside the checkout (CI has them); any directory list works.
//! let tb = Tablebases::open("../shared/syzygy")?;
//! println!("{}", tb.report().summary());
//! let pos = Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1")?;
//! assert_eq!(tb.probe_wdl(&pos), Some(Wdl::Win));
//! let root = tb.probe_root(&pos).expect("in the tables");
//! println!("DTZ {}; best moves {:?}", root.dtz, root.best_moves());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod adapter;
mod material;
mod scan;

use std::fmt;
use std::sync::Mutex;

use pyrrhic_rs::{DtzProbeValue, TBError, TableBases};

use crate::core::{Color, Move, PieceKind, Position};
use adapter::Adapter;
use material::Guard;
use scan::Kind;

pub use scan::SEPARATOR;

/// The largest piece count (kings included) a Syzygy table can have.
pub const MAX_PIECES: usize = 7;

/// A win/draw/loss value for the side to move, as the WDL tables store it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost.
    Loss,
    /// Lost, but the fifty-move rule saves it (the win takes too long).
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won, but only when the fifty-move rule is ignored.
    CursedWin,
    /// Won.
    Win,
}

impl Wdl {
    /// −2 (loss) … 2 (win), the numbers python-chess and the Syzygy tools use.
    pub fn signed(self) -> i32 {
        match self {
            Wdl::Loss => -2,
            Wdl::BlessedLoss => -1,
            Wdl::Draw => 0,
            Wdl::CursedWin => 1,
            Wdl::Win => 2,
        }
    }

    fn from_prober(w: pyrrhic_rs::WdlProbeResult) -> Wdl {
        use pyrrhic_rs::WdlProbeResult as P;
        match w {
            P::Loss => Wdl::Loss,
            P::BlessedLoss => Wdl::BlessedLoss,
            P::Draw => Wdl::Draw,
            P::CursedWin => Wdl::CursedWin,
            P::Win => Wdl::Win,
        }
    }
}

/// One legal move of a root probe.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Plies from the root to the next zeroing move (capture or pawn move) when this move is
    /// played and both sides then play DTZ-optimally, counting this move: positive when the side
    /// to move wins, negative when it loses, 0 for a draw. A mating move has 1; a zeroing move
    /// that keeps a win has 1 (101 when the win is cursed).
    pub dtz: i32,
}

/// The tables' verdict on a position and on each of its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootProbe {
    /// The position's value for the side to move.
    pub wdl: Wdl,
    /// Its distance to zeroing, signed like [`RootMove::dtz`] (python-chess's convention:
    /// −1 when the side to move is checkmated, 0 for a draw).
    pub dtz: i32,
    /// Every legal move with its distance.
    pub moves: Vec<RootMove>,
}

impl RootProbe {
    /// The moves that keep the position's outcome fastest: the smallest positive DTZ when
    /// winning, every drawing move when drawn, the largest DTZ when losing.
    pub fn best_moves(&self) -> Vec<Move> {
        let key = |d: i32| match d.signum() {
            1 => i32::MAX - d,
            0 => 0,
            _ => i32::MIN - d,
        };
        let best = self.moves.iter().map(|m| key(m.dtz)).max();
        self.moves
            .iter()
            .filter(|m| Some(key(m.dtz)) == best)
            .map(|m| m.mv)
            .collect()
    }
}

/// How many tables of each size a path held, and what was wrong with it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// WDL tables found, indexed by piece count (kings included).
    pub wdl: [usize; MAX_PIECES + 1],
    /// DTZ tables found, indexed by piece count.
    pub dtz: [usize; MAX_PIECES + 1],
    /// One line per unreadable directory or bad file.
    pub problems: Vec<String>,
}

impl LoadReport {
    /// The largest piece count with a WDL table (0: none).
    pub fn max_pieces(&self) -> usize {
        (0..=MAX_PIECES)
            .rev()
            .find(|&n| self.wdl[n] > 0)
            .unwrap_or(0)
    }

    /// One line for the GUI, e.g. `found 35 WDL and 35 DTZ tables of up to 4 pieces (3: 5+5, 4: 30+30)`.
    pub fn summary(&self) -> String {
        let wdl: usize = self.wdl.iter().sum();
        let dtz: usize = self.dtz.iter().sum();
        let sizes: Vec<String> = (0..=MAX_PIECES)
            .filter(|&n| self.wdl[n] + self.dtz[n] > 0)
            .map(|n| format!("{n}: {}+{}", self.wdl[n], self.dtz[n]))
            .collect();
        format!(
            "found {wdl} WDL and {dtz} DTZ tables of up to {} pieces ({})",
            self.max_pieces(),
            sizes.join(", ")
        )
    }
}

/// Why tables could not be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TbError {
    /// No usable WDL table in any directory of the path (the report says what was wrong).
    NoTables(Box<LoadReport>),
    /// Another [`Tablebases`] is open in this process (the prober holds one set at a time):
    /// drop it first.
    AlreadyOpen,
    /// The prober refused the directories.
    Prober(String),
}

impl fmt::Display for TbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbError::NoTables(r) if r.problems.is_empty() => write!(f, "no Syzygy tables found"),
            TbError::NoTables(r) => {
                write!(
                    f,
                    "no usable Syzygy tables found ({})",
                    r.problems.join("; ")
                )
            }
            TbError::AlreadyOpen => write!(f, "another set of tablebases is already open"),
            TbError::Prober(e) => write!(f, "the tablebase prober failed: {e}"),
        }
    }
}

impl std::error::Error for TbError {}

/// An open set of Syzygy tables. Probes take `&self` and may run on many threads at once;
/// share it with an `Arc`. Only one can be open per process at a time.
pub struct Tablebases {
    prober: TableBases<Adapter>,
    report: LoadReport,
    max_pieces: u32,
    guard: Guard,
    /// The prober's root probe is not safe to run twice at once.
    root_lock: Mutex<()>,
}

impl fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tablebases({})", self.report.summary())
    }
}

impl Tablebases {
    /// Opens the tables in `path`: directories separated by [`SEPARATOR`] (`:` on Unix, `;` on
    /// Windows). Unreadable directories and bad files are listed in [`Tablebases::report`] and
    /// left out; it fails only when no usable WDL table is left.
    pub fn open(path: &str) -> Result<Tablebases, TbError> {
        let scan = scan::scan(path);
        let mut report = LoadReport {
            problems: scan.problems.clone(),
            ..LoadReport::default()
        };
        for (material, kind) in &scan.good {
            let n = material.piece_count().min(MAX_PIECES);
            match kind {
                Kind::Wdl => report.wdl[n] += 1,
                Kind::Dtz => report.dtz[n] += 1,
            }
        }
        if report.max_pieces() == 0 {
            return Err(TbError::NoTables(Box::new(report)));
        }
        // The prober takes its own ':'-separated list (the scan left out names holding ':').
        let prober = TableBases::<Adapter>::new(scan.dirs.join(":")).map_err(|e| match e {
            TBError::AlreadyInitialized | TBError::NotSingleton => TbError::AlreadyOpen,
            other => TbError::Prober(format!("{other:?}")),
        })?;
        let of_kind = |k: Kind| -> std::collections::HashSet<_> {
            scan.good.iter().filter(|g| g.1 == k).map(|g| g.0).collect()
        };
        let guard = Guard::new(
            &of_kind(Kind::Wdl),
            of_kind(Kind::Dtz),
            scan.bad,
            report.max_pieces(),
        );
        Ok(Tablebases {
            prober,
            max_pieces: report.max_pieces() as u32,
            report,
            guard,
            root_lock: Mutex::new(()),
        })
    }

    /// What was found and what was wrong.
    pub fn report(&self) -> &LoadReport {
        &self.report
    }

    /// The largest piece count (kings included) the tables cover.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// True when the tables may answer for `pos`'s WDL: no castling rights, few enough pieces,
    /// and no bad file or missing table in reach.
    pub fn covers(&self, pos: &Position) -> bool {
        pos.castling_rights().is_empty()
            && pos.occupied().count() <= self.max_pieces
            && !self.guard.blocks(pos)
    }

    /// The WDL value of `pos` for the side to move (the fifty-move counter is not looked at;
    /// cursed wins and blessed losses say where it matters). `None` when the tables do not
    /// cover the position or a table is missing.
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        if !self.covers(pos) {
            return None;
        }
        let b = Bits::of(pos);
        self.prober
            .probe_wdl(
                b.white,
                b.black,
                b.kings,
                b.queens,
                b.rooks,
                b.bishops,
                b.knights,
                b.pawns,
                b.ep,
                b.white_to_move,
            )
            .ok()
            .map(Wdl::from_prober)
    }

    /// The signed DTZ of `pos` (see [`RootProbe::dtz`]).
    pub fn probe_dtz(&self, pos: &Position) -> Option<i32> {
        self.probe_root(pos).map(|r| r.dtz)
    }

    /// The WDL and DTZ of `pos` and the DTZ of each of its legal moves. `None` when the tables
    /// (WDL and DTZ) do not cover it.
    pub fn probe_root(&self, pos: &Position) -> Option<RootProbe> {
        let wdl = self.probe_wdl(pos)?;
        // Without its DTZ file the prober would give up on the material's WDL table too.
        if !self.guard.has_dtz(pos) {
            return None;
        }
        let b = Bits::of(pos);
        let raw = {
            let _only_one = self.root_lock.lock().ok()?;
            self.prober
                .probe_root(
                    b.white,
                    b.black,
                    b.kings,
                    b.queens,
                    b.rooks,
                    b.bishops,
                    b.knights,
                    b.pawns,
                    0,
                    b.ep,
                    b.white_to_move,
                )
                .ok()?
        };
        let dtz = match raw.root {
            DtzProbeValue::DtzResult(r) => signed_dtz(r),
            // python-chess's convention for a mated side; a stalemate is a draw.
            DtzProbeValue::Checkmate => -1,
            DtzProbeValue::Stalemate => 0,
            DtzProbeValue::Failed => return None,
        };
        let legal = pos.legal_moves();
        let mut moves = Vec::with_capacity(legal.len());
        for value in raw.moves.iter().take(raw.num_moves) {
            let DtzProbeValue::DtzResult(r) = *value else {
                return None;
            };
            let mv = legal.iter().copied().find(|&m| same_move(m, r))?;
            moves.push(RootMove {
                mv,
                dtz: signed_dtz(r),
            });
        }
        // Every legal move must have its value, or the ranking built on them would be wrong.
        if moves.len() != legal.len() {
            return None;
        }
        Some(RootProbe { wdl, dtz, moves })
    }
}

/// The prober's DTZ is unsigned with its sign in the WDL it derives (it was asked with a
/// fifty-move counter of 0, so the sign is all it means).
fn signed_dtz(r: pyrrhic_rs::DtzResult) -> i32 {
    let d = i32::from(r.dtz);
    match Wdl::from_prober(r.wdl).signed().signum() {
        1 => d,
        -1 => -d,
        _ => 0,
    }
}

/// Whether the prober's move is `m` (from, to and promotion; castling never comes up, the tables
/// do not cover castling rights).
fn same_move(m: Move, r: pyrrhic_rs::DtzResult) -> bool {
    use pyrrhic_rs::Piece as P;
    let promo = match r.promotion {
        P::Queen => Some(PieceKind::Queen),
        P::Rook => Some(PieceKind::Rook),
        P::Bishop => Some(PieceKind::Bishop),
        P::Knight => Some(PieceKind::Knight),
        _ => None,
    };
    m.from().index() == usize::from(r.from_square)
        && m.to().index() == usize::from(r.to_square)
        && m.promotion() == promo
}

/// A position as the prober takes it.
struct Bits {
    white: u64,
    black: u64,
    kings: u64,
    queens: u64,
    rooks: u64,
    bishops: u64,
    knights: u64,
    pawns: u64,
    ep: u32,
    white_to_move: bool,
}

impl Bits {
    fn of(pos: &Position) -> Bits {
        let kind = |k: PieceKind| pos.pieces(k).0;
        Bits {
            white: pos.color_bb(Color::White).0,
            black: pos.color_bb(Color::Black).0,
            kings: kind(PieceKind::King),
            queens: kind(PieceKind::Queen),
            rooks: kind(PieceKind::Rook),
            bishops: kind(PieceKind::Bishop),
            knights: kind(PieceKind::Knight),
            pawns: kind(PieceKind::Pawn),
            // The core keeps the square only when the capture is legal, which is what the
            // prober expects; 0 means none (a1 can never be an en-passant square).
            ep: pos.en_passant().map_or(0, |s| s.index() as u32),
            white_to_move: pos.side_to_move() == Color::White,
        }
    }
}
