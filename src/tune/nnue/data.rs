//! Training positions in memory: each kept position of the self-play games packed into 28
//! bytes (board, side to move, score, result), split into training and held-out games.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::core::zobrist::mix64;
use crate::core::{Color, Piece, PieceKind, Position, Square};
use crate::eval::nnue::feature;
use crate::tune::chunks::{chunk_files, chunk_number, read_chunk, ChunkError};
use crate::tune::filter::Filter;
use crate::tune::gamefile::GameRecord;

use super::net::Features;

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packed {
    occupied: u64,
    /// Piece indices (0..12), one nibble per occupied square in square order.
    pieces: [u8; 16],
    /// The search score in centipawns, side to move's view.
    pub score: i16,
    /// Bit 0: Black to move. Bits 1–2: the result for the side to move (0 loss, 1 draw, 2 win).
    flags: u8,
}

impl Packed {
    /// Packs `pos` with its score and result (both side to move's view; result 0, 0.5 or 1).
    pub fn new(pos: &Position, score: i32, result: f32) -> Packed {
        let occupied = pos.occupied().0;
        let mut pieces = [0u8; 16];
        for (n, sq) in pos.occupied().iter().enumerate().take(32) {
            let code = pos.piece_at(sq).map_or(0, |p| p.index() as u8);
            pieces[n / 2] |= code << (4 * (n % 2));
        }
        let black = (pos.side_to_move() == Color::Black) as u8;
        let result = (result * 2.0).round().clamp(0.0, 2.0) as u8;
        Packed {
            occupied,
            pieces,
            score: score.clamp(-32000, 32000) as i16,
            flags: black | result << 1,
        }
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        if self.flags & 1 != 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The game's result for the side to move: 0.0, 0.5 or 1.0.
    pub fn result(&self) -> f32 {
        f32::from((self.flags >> 1) & 3) / 2.0
    }

    /// The pieces on their squares, in square order.
    fn pieces_on_squares(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut occ = self.occupied;
        let mut n = 0;
        std::iter::from_fn(move || loop {
            if occ == 0 {
                return None;
            }
            let sq = Square::new(occ.trailing_zeros() as u8);
            occ &= occ - 1;
            let code = (self.pieces[n / 2] >> (4 * (n % 2))) & 15;
            n += 1;
            let color = if code < 6 { Color::White } else { Color::Black };
            if let Some(kind) = PieceKind::from_index(code as usize % 6) {
                return Some((sq, Piece::new(color, kind)));
            }
        })
    }

    /// The position again, without what packing drops (castling rights, en passant, move
    /// counters); `None` if the packed board is not a position (it always is for packed games).
    pub fn position(&self) -> Option<Position> {
        Position::from_pieces(self.pieces_on_squares(), self.side_to_move()).ok()
    }

    /// The network's inputs for this position.
    pub fn features(&self) -> Features {
        let stm = self.side_to_move();
        let mut f = Features {
            us: Vec::with_capacity(32),
            them: Vec::with_capacity(32),
        };
        for (sq, piece) in self.pieces_on_squares() {
            f.us.push(feature(stm, piece, sq) as u16);
            f.them.push(feature(!stm, piece, sq) as u16);
        }
        f
    }
}

/// Training and held-out positions.
#[derive(Debug, Default)]
pub struct TrainingData {
    /// Positions to fit.
    pub train: Vec<Packed>,
    /// Positions of other games, only measured.
    pub holdout: Vec<Packed>,
    /// Games read.
    pub games: usize,
    /// Chunks read.
    pub chunks: usize,
}

/// True when game `index` of chunk `chunk` is held out (about `percent` % of the games, the
/// same ones on every run).
fn held_out(chunk: &Path, index: usize, percent: u32) -> bool {
    let name = chunk
        .file_name()
        .map_or_else(Vec::new, |n| n.as_encoded_bytes().to_vec());
    let h = name
        .iter()
        .chain(&index.to_le_bytes())
        .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    // FNV alone leaves the high bits of short inputs poorly mixed; SplitMix's finaliser
    // spreads them.
    mix64(h) % 100 < u64::from(percent)
}

fn pack_game(game: &GameRecord, filter: &Filter) -> Vec<Packed> {
    filter
        .positions(game)
        .map(|t| Packed::new(&t.pos, t.score, t.result))
        .collect()
}

/// Reads the chunks of the data set directories `dirs`, each with its chunk limit (only the
/// chunks numbered below it when it is `Some`, so that a network's data stays the same while
/// datagen adds chunks), keeps the positions `filter` picks, and holds out about
/// `holdout_percent` % of the games. Damaged chunks are passed to `warn` and read up to the
/// damage.
pub fn load(
    dirs: &[(PathBuf, Option<u64>)],
    filter: &Filter,
    holdout_percent: u32,
    mut warn: impl FnMut(&ChunkError),
) -> Result<TrainingData, ChunkError> {
    let mut files = Vec::new();
    for (dir, limit) in dirs {
        files.extend(
            chunk_files(dir, false)?
                .into_iter()
                .filter(|f| limit.is_none_or(|n| chunk_number(f).is_some_and(|c| c < n))),
        );
    }
    let reads: Vec<_> = files
        .par_iter()
        .map(|path| {
            let read = read_chunk(path);
            let mut train = Vec::new();
            let mut holdout = Vec::new();
            for (i, g) in read.games.iter().enumerate() {
                let target = if held_out(path, i, holdout_percent) {
                    &mut holdout
                } else {
                    &mut train
                };
                target.extend(pack_game(g, filter));
            }
            (read.games.len(), train, holdout, read.error)
        })
        .collect();
    let mut data = TrainingData {
        chunks: files.len(),
        ..TrainingData::default()
    };
    for (games, train, holdout, error) in reads {
        if let Some(e) = &error {
            warn(e);
        }
        data.games += games;
        data.train.extend(train);
        data.holdout.extend(holdout);
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_positions_give_the_features_of_the_position() {
        for fen in [
            "r3k2r/pppq1ppp/2np1n2/2b1p3/2B1P1b1/2NP1N2/PPPQ1PPP/R3K2R b KQkq - 4 8",
            "4k3/8/8/3pP3/8/8/6p1/4K3 w - d6 0 40",
        ] {
            let pos = Position::from_fen(fen).expect("fen");
            let p = Packed::new(&pos, -123, 1.0);
            let mut a = p.features();
            let mut b = Features::of(&pos);
            a.us.sort_unstable();
            a.them.sort_unstable();
            b.us.sort_unstable();
            b.them.sort_unstable();
            assert_eq!(a, b, "{fen}");
            assert_eq!((p.score, p.result()), (-123, 1.0));
            assert_eq!(p.side_to_move(), pos.side_to_move());
            let board = |fen: &str| fen.split(' ').take(2).collect::<Vec<_>>().join(" ");
            let back = p.position().expect("a packed position unpacks");
            assert_eq!(board(&back.fen()), board(fen));
        }
    }

    #[test]
    fn about_the_asked_share_of_games_is_held_out() {
        let path = Path::new("chunk-000003.bin");
        let held = (0..10_000).filter(|&i| held_out(path, i, 5)).count();
        assert!((350..650).contains(&held), "{held} of 10000");
    }

    #[test]
    fn a_chunk_limit_reads_only_the_chunks_below_it() {
        use crate::tune::chunks::tests::{game, temp_dir};
        use crate::tune::chunks::ChunkWriter;
        let dir = temp_dir("chunk-limit");
        let game = game(&[
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7",
        ]);
        // One game per chunk: chunks 0, 1 and 2.
        let (mut w, _) = ChunkWriter::open(&dir, 1, 5000, 1).expect("open");
        for _ in 0..3 {
            w.write(&game).expect("write");
        }
        drop(w);
        let read = |limit| {
            let d = load(&[(dir.clone(), limit)], &Filter::default(), 0, |_| {}).expect("load");
            (d.chunks, d.games, d.train.len())
        };
        let (chunks, games, positions) = read(None);
        assert_eq!((chunks, games), (3, 3));
        assert!(positions > 0);
        assert_eq!(read(Some(2)), (2, 2, positions / 3 * 2));
        assert_eq!(read(Some(0)), (0, 0, 0));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
