//! Syzygy endgame tablebases: win/draw/loss (WDL) and distance-to-zeroing (DTZ) probes of
//! positions with few pieces, for the search and for library users.
//!
//! The prober is Ferrum's own, in safe Rust, written from the published Syzygy file format:
//! files are found and checked when the tables are opened (`scan.rs`), each is read at its first
//! probe (`table.rs`, `decode.rs`, `index.rs`; small files whole, big ones by positioned reads, so
//! a set need neither fit in memory nor be mapped), and the probing rules that resolve captures
//! and en passant live in `probe.rs`. Any number of sets may be open at once; probes take `&self`
//! and run from many threads. A damaged file makes a probe answer `None`, never panic.
//!
//! ```
//! use ferrum::core::Position;
//! use ferrum::tb::{Tablebases, Wdl};
//!
//! // The 3-piece tables shipped with the tests; any directory list works.
//! let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
//! let tb = Tablebases::open(dir)?;
//! println!("{}", tb.report().summary());
//! let pos = Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1")?;
//! assert_eq!(tb.probe_wdl(&pos), Some(Wdl::Win));
//! let root = tb.probe_root(&pos).expect("in the tables");
//! println!("DTZ {}; best moves {:?}", root.dtz, root.best_moves());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod decode;
mod file;
mod index;
mod material;
mod probe;
mod scan;
mod table;

use std::ffi::OsStr;
use std::fmt;

use crate::core::{Move, PieceKind, Position};
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

    fn from_signed(v: i32) -> Option<Wdl> {
        Some(match v {
            -2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            0 => Wdl::Draw,
            1 => Wdl::CursedWin,
            2 => Wdl::Win,
            _ => return None,
        })
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
        }
    }
}

impl std::error::Error for TbError {}

/// An open set of Syzygy tables. Probes take `&self` and may run on many threads at once;
/// share it with an `Arc`. Any number of sets may be open at a time.
pub struct Tablebases {
    set: probe::Set,
    report: LoadReport,
    max_pieces: u32,
    guard: Guard,
}

impl fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tablebases({})", self.report.summary())
    }
}

impl Tablebases {
    /// Opens the tables in `path`: directories separated by [`SEPARATOR`] (`:` on Unix, `;` on
    /// Windows, split as [`std::env::split_paths`] does, so `C:\tb;D:\tb` works on Windows and
    /// names need not be UTF-8). Unreadable directories and bad files are listed in
    /// [`Tablebases::report`] and left out; it fails only when no usable WDL table is left.
    /// Files are read at their first probe.
    pub fn open(path: impl AsRef<OsStr>) -> Result<Tablebases, TbError> {
        Tablebases::open_with(path.as_ref(), file::WHOLE_FILE_LIMIT)
    }

    /// [`Tablebases::open`], reading files of up to `whole_limit` bytes whole.
    fn open_with(path: &OsStr, whole_limit: u64) -> Result<Tablebases, TbError> {
        let scan = scan::scan(path);
        let mut report = LoadReport {
            problems: scan.problems.clone(),
            ..LoadReport::default()
        };
        for (material, kind) in scan.good.keys() {
            let n = material.piece_count().min(MAX_PIECES);
            match kind {
                Kind::Wdl => report.wdl[n] += 1,
                Kind::Dtz => report.dtz[n] += 1,
            }
        }
        if report.max_pieces() == 0 {
            return Err(TbError::NoTables(Box::new(report)));
        }
        let of_kind = |k: Kind| -> std::collections::HashSet<_> {
            scan.good.keys().filter(|g| g.1 == k).map(|g| g.0).collect()
        };
        let guard = Guard::new(
            &of_kind(Kind::Wdl),
            of_kind(Kind::Dtz),
            scan.bad,
            report.max_pieces(),
        );
        let mut set = probe::Set::default();
        for ((material, kind), path) in scan.good {
            set.add(
                material,
                kind,
                table::LazyTable::new(path, kind, material, whole_limit),
            );
        }
        Ok(Tablebases {
            set,
            max_pieces: report.max_pieces() as u32,
            report,
            guard,
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
    /// cover the position or a table is missing or damaged.
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        if !self.covers(pos) {
            return None;
        }
        Wdl::from_signed(self.set.wdl(pos)?)
    }

    /// The signed DTZ of `pos` (see [`RootProbe::dtz`]).
    pub fn probe_dtz(&self, pos: &Position) -> Option<i32> {
        self.probe_root(pos).map(|r| r.dtz)
    }

    /// The WDL and DTZ of `pos` and the DTZ of each of its legal moves. `None` when the tables
    /// (WDL and DTZ) do not cover it.
    pub fn probe_root(&self, pos: &Position) -> Option<RootProbe> {
        let wdl = self.probe_wdl(pos)?;
        // A DTZ probe reads the position's own DTZ table only (other materials by WDL).
        if !self.guard.has_dtz(pos) {
            return None;
        }
        let dtz = self.set.dtz(pos)?;
        let mut moves = Vec::new();
        let mut after = pos.clone();
        for mv in pos.legal_moves().iter().copied() {
            let zeroing = pos.is_capture(mv)
                || pos
                    .moved_piece(mv)
                    .is_some_and(|p| p.kind == PieceKind::Pawn);
            let undo = after.make(mv);
            let dtz = self.move_dtz(&after, zeroing);
            after.unmake(mv, &undo);
            moves.push(RootMove { mv, dtz: dtz? });
        }
        Some(RootProbe { wdl, dtz, moves })
    }

    /// The DTZ of the move that led to `after`, counted from before it for the side that made
    /// it: 1 for mate, a zeroing move's by the result it keeps, else one more than the reply's.
    fn move_dtz(&self, after: &Position, zeroing: bool) -> Option<i32> {
        if after.in_check() && !after.has_legal_moves() {
            return Some(1);
        }
        if zeroing {
            // 1 for a win, 101 for a cursed one (python-chess's convention, as the module documents).
            let wdl = -self.set.wdl(after)?;
            return Some(match wdl {
                2 => 1,
                1 => 101,
                0 => 0,
                -1 => -101,
                _ => -1,
            });
        }
        let v = -self.set.dtz(after)?;
        Some(v + v.signum())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    fn shipped() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy")
    }

    /// Legal KQvK and KPvK positions of both colourings and sides to move, spread over the board.
    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as usize
        };
        for piece in ['Q', 'P', 'q', 'p'] {
            let mut found = 0;
            while found < 12 {
                let [k, other_k, at] = [next(64), next(64), next(64)];
                let pawn_rank = !(8..56).contains(&at) && piece.eq_ignore_ascii_case(&'p');
                if k == other_k || k == at || other_k == at || pawn_rank {
                    continue;
                }
                let mut board = ['.'; 64];
                board[k] = 'K';
                board[other_k] = 'k';
                board[at] = piece;
                let rows: Vec<String> = (0..8)
                    .rev()
                    .map(|r| board[r * 8..r * 8 + 8].iter().collect())
                    .collect();
                let side = if next(2) == 0 { 'w' } else { 'b' };
                let fen = compress(&format!("{} {side} - - 0 1", rows.join("/")));
                if let Ok(pos) = Position::from_fen(&fen) {
                    out.push(pos);
                    found += 1;
                }
            }
        }
        out
    }

    /// Runs of '.' in a FEN board written as digits.
    fn compress(fen: &str) -> String {
        let mut out = String::new();
        let mut dots = 0;
        for c in fen.chars() {
            if c == '.' {
                dots += 1;
                continue;
            }
            if dots > 0 {
                out.push_str(&dots.to_string());
                dots = 0;
            }
            out.push(c);
        }
        out
    }

    /// Opens `dir` with files read whole or by positioned reads, and probes every position: a
    /// damaged table may answer `None` or a value, but must not panic or loop.
    fn probe_all(dir: &Path, positions: &[Position]) {
        for whole_limit in [0, file::WHOLE_FILE_LIMIT] {
            let Ok(tb) = Tablebases::open_with(dir.as_os_str(), whole_limit) else {
                continue;
            };
            for (i, pos) in positions.iter().enumerate() {
                let _ = tb.probe_wdl(pos);
                if i % 4 == 0 {
                    if let Some(root) = tb.probe_root(pos) {
                        assert!(root.dtz.abs() <= 0xffff + 1, "{}", pos.fen());
                    }
                }
            }
        }
    }

    #[test]
    fn the_reader_agrees_with_itself_from_memory_and_from_disk() {
        let dir = shipped();
        let memory = Tablebases::open_with(dir.as_os_str(), file::WHOLE_FILE_LIMIT).expect("opens");
        let disk = Tablebases::open_with(dir.as_os_str(), 0).expect("opens");
        let ps = positions();
        assert!(ps.len() >= 48);
        for pos in &ps {
            assert_eq!(memory.probe_wdl(pos), disk.probe_wdl(pos), "{}", pos.fen());
            assert!(memory.probe_wdl(pos).is_some(), "{}", pos.fen());
            assert_eq!(
                memory.probe_root(pos),
                disk.probe_root(pos),
                "{}",
                pos.fen()
            );
        }
    }

    #[test]
    fn many_threads_probing_a_fresh_set_answer_as_one_thread_does() {
        let tb = std::sync::Arc::new(Tablebases::open(shipped()).expect("opens"));
        let ps = positions();
        let alone: Vec<_> = ps.iter().map(|p| tb.probe_root(p)).collect();
        let fresh = std::sync::Arc::new(Tablebases::open(shipped()).expect("opens"));
        std::thread::scope(|scope| {
            for _ in 0..4 {
                let (fresh, ps, alone) = (&fresh, &ps, &alone);
                scope.spawn(move || {
                    for (p, want) in ps.iter().zip(alone) {
                        assert_eq!(&fresh.probe_root(p), want, "{}", p.fen());
                    }
                });
            }
        });
    }

    #[test]
    fn truncated_and_byte_flipped_tables_never_panic() {
        let src = shipped();
        let dir = std::env::temp_dir().join(format!("ferrum-tb-damage-{}", std::process::id()));
        let ps = positions();
        for name in ["KQvK.rtbw", "KQvK.rtbz", "KPvK.rtbw", "KPvK.rtbz"] {
            let good = std::fs::read(src.join(name)).expect("a shipped table");
            let mut variants: Vec<Vec<u8>> = Vec::new();
            // Truncated, keeping the length the scan accepts (64-byte blocks and a 16-byte tail),
            // so the reader itself meets the missing bytes.
            let mut len = good.len();
            while len > 80 {
                len -= 64;
                let mut cut = good[..len - 16].to_vec();
                cut.extend_from_slice(&good[good.len() - 16..]);
                variants.push(cut);
            }
            // One byte flipped: every header byte, then every 23rd byte.
            let positions_to_flip = (4..256.min(good.len())).chain((256..good.len()).step_by(23));
            for at in positions_to_flip {
                let mut bad = good.clone();
                bad[at] ^= 0xff;
                variants.push(bad);
            }
            for bytes in variants {
                let _ = std::fs::remove_dir_all(&dir);
                std::fs::create_dir_all(&dir).expect("temp dir");
                for entry in std::fs::read_dir(&src).expect("shipped tables").flatten() {
                    let to = dir.join(entry.file_name());
                    std::fs::copy(entry.path(), to).expect("copy");
                }
                std::fs::write(dir.join(name), &bytes).expect("write the damaged copy");
                probe_all(&dir, &ps);
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
