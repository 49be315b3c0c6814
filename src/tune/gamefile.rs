//! The binary game format of `ferrum datagen`: whole self-play games, a packed start position
//! and then every move with the search score, about 4 bytes per position.
//!
//! Training data is stored as games rather than positions because a game costs 38 bytes plus
//! 4 bytes per move, the positions are replayed on reading, and every filter (opening plies,
//! positions in check, tactical best moves, score bounds) is decided by the reader, so one data
//! set serves every experiment. `src/tune/DATA_FORMAT.md` describes the bytes.
//!
//! ```
//! use ferrum::core::Position;
//! use ferrum::tune::gamefile::{GameRecord, RecordResult, ScoredMove, Termination};
//!
//! let start = Position::startpos();
//! let e4 = start.parse_uci("e2e4").unwrap();
//! let game = GameRecord {
//!     start,
//!     moves: vec![ScoredMove { mv: e4, score: 25 }],
//!     result: RecordResult::Draw,
//!     termination: Termination::AdjudicatedDraw,
//! };
//! let mut bytes = Vec::new();
//! game.encode(&mut bytes);
//! let (back, used) = GameRecord::decode(&bytes).unwrap();
//! assert_eq!((back, used), (game, bytes.len()));
//! ```

use std::fmt;

use crate::core::{Color, Move, Piece, PieceKind, Position, Square};

/// The first eight bytes of every chunk file.
pub const CHUNK_MAGIC: [u8; 8] = *b"FRMGAME1";

/// Bytes of a chunk file's header: the magic, the run's seed (u64) and its soft node limit
/// (u32), then four reserved bytes.
pub const CHUNK_HEADER_BYTES: usize = 24;

/// Bytes of a game before its moves.
const GAME_HEADER_BYTES: usize = 34;

/// Bytes of each move: the move (u16) and the score (i16).
const MOVE_BYTES: usize = 4;

/// Bytes of the checksum that ends each game.
const CHECKSUM_BYTES: usize = 4;

/// Nibble codes above the twelve pieces: a rook that still holds a castling right.
const WHITE_CASTLING_ROOK: u8 = 12;
const BLACK_CASTLING_ROOK: u8 = 13;

/// The game's result as a record stores it: decided games only (named apart from
/// `book::GameResult`, which also has an unknown result and weighs book moves).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RecordResult {
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
    /// White won.
    WhiteWins,
}

impl RecordResult {
    /// The result for White: 1.0, 0.5 or 0.0.
    pub fn white_score(self) -> f32 {
        match self {
            RecordResult::BlackWins => 0.0,
            RecordResult::Draw => 0.5,
            RecordResult::WhiteWins => 1.0,
        }
    }

    /// The result for `side`: 1.0, 0.5 or 0.0.
    pub fn score_for(self, side: Color) -> f32 {
        match side {
            Color::White => self.white_score(),
            Color::Black => 1.0 - self.white_score(),
        }
    }

    /// The game won by `side`.
    pub fn win_for(side: Color) -> RecordResult {
        match side {
            Color::White => RecordResult::WhiteWins,
            Color::Black => RecordResult::BlackWins,
        }
    }

    fn to_byte(self) -> u8 {
        self as u8
    }

    fn from_byte(b: u8) -> Option<RecordResult> {
        [
            RecordResult::BlackWins,
            RecordResult::Draw,
            RecordResult::WhiteWins,
        ]
        .get(b as usize)
        .copied()
    }
}

/// Why the game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// By the rules: checkmate, stalemate, insufficient material, repetition, fifty moves.
    Rules,
    /// The score stayed beyond the win bound long enough.
    AdjudicatedWin,
    /// The score stayed near zero long enough.
    AdjudicatedDraw,
    /// The game reached the ply limit (a draw).
    MaxPlies,
    /// A tablebase settled it.
    Tablebase,
}

impl Termination {
    const ALL: [Termination; 5] = [
        Termination::Rules,
        Termination::AdjudicatedWin,
        Termination::AdjudicatedDraw,
        Termination::MaxPlies,
        Termination::Tablebase,
    ];

    fn to_byte(self) -> u8 {
        self as u8
    }

    fn from_byte(b: u8) -> Option<Termination> {
        Termination::ALL.get(b as usize).copied()
    }
}

/// A move played in the game and the search score of the position it was played from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    /// The move the search chose.
    pub mv: Move,
    /// The search score from the side to move's view, in centipawns; mate scores are
    /// `±(32000 - plies)` as in [`crate::search::MATE`].
    pub score: i16,
}

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The position of the first searched move (after the random opening moves).
    pub start: Position,
    /// Every move from `start` on, with its score.
    pub moves: Vec<ScoredMove>,
    /// How the game ended.
    pub result: RecordResult,
    /// Why it ended.
    pub termination: Termination,
}

/// Why bytes could not be read as a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The bytes end inside the game (`needed` bytes from the game's start).
    Truncated {
        /// Bytes the game needs.
        needed: usize,
        /// Bytes there were.
        available: usize,
    },
    /// The checksum at the end of the game does not match its bytes.
    Checksum,
    /// A field holds a value the format does not allow.
    BadField(&'static str),
    /// The packed start position is not a legal position.
    BadPosition(String),
    /// Move `index` (0-based) is not legal in its position.
    IllegalMove {
        /// The move's index in the game.
        index: usize,
        /// Its raw 16 bits.
        bits: u16,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Truncated { needed, available } => write!(
                f,
                "truncated game: it needs {needed} bytes, {available} are left"
            ),
            DecodeError::Checksum => write!(f, "the game's checksum does not match its bytes"),
            DecodeError::BadField(field) => write!(f, "invalid {field}"),
            DecodeError::BadPosition(why) => write!(f, "invalid start position: {why}"),
            DecodeError::IllegalMove { index, bits } => {
                write!(f, "move {index} (bits {bits:#06x}) is illegal")
            }
        }
    }
}

impl std::error::Error for DecodeError {}

/// FNV-1a over `bytes`: cheap, and enough to notice a damaged game.
fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

impl GameRecord {
    /// The bytes of this game, appended to `out` (see `src/tune/DATA_FORMAT.md`).
    pub fn encode(&self, out: &mut Vec<u8>) {
        let begin = out.len();
        let count = self.moves.len().min(u16::MAX as usize);
        out.extend_from_slice(&(count as u16).to_le_bytes());
        out.push(self.result.to_byte());
        out.push(self.termination.to_byte());
        pack_position(&self.start, out);
        for m in &self.moves[..count] {
            out.extend_from_slice(&m.mv.to_bits().to_le_bytes());
            out.extend_from_slice(&m.score.to_le_bytes());
        }
        let sum = checksum(&out[begin..]);
        out.extend_from_slice(&sum.to_le_bytes());
    }

    /// Reads one game from the front of `bytes`; returns it and the bytes it used. Every move
    /// is checked for legality, so a decoded game always replays.
    pub fn decode(bytes: &[u8]) -> Result<(GameRecord, usize), DecodeError> {
        let truncated = |needed| DecodeError::Truncated {
            needed,
            available: bytes.len(),
        };
        if bytes.len() < GAME_HEADER_BYTES {
            return Err(truncated(GAME_HEADER_BYTES));
        }
        let count = u16::from_le_bytes([bytes[0], bytes[1]]) as usize;
        let len = GAME_HEADER_BYTES + count * MOVE_BYTES + CHECKSUM_BYTES;
        if bytes.len() < len {
            return Err(truncated(len));
        }
        let body = &bytes[..len - CHECKSUM_BYTES];
        let stored = u32::from_le_bytes([
            bytes[len - 4],
            bytes[len - 3],
            bytes[len - 2],
            bytes[len - 1],
        ]);
        if checksum(body) != stored {
            return Err(DecodeError::Checksum);
        }
        let result = RecordResult::from_byte(bytes[2]).ok_or(DecodeError::BadField("result"))?;
        let termination =
            Termination::from_byte(bytes[3]).ok_or(DecodeError::BadField("termination"))?;
        let start = unpack_position(&bytes[4..GAME_HEADER_BYTES])?;
        let moves = decode_moves(&start, &body[GAME_HEADER_BYTES..])?;
        let game = GameRecord {
            start,
            moves,
            result,
            termination,
        };
        Ok((game, len))
    }

    /// Every position of the game with the move played from it and its score, in order.
    pub fn positions(&self) -> GamePositions<'_> {
        GamePositions {
            pos: self.start.clone(),
            moves: &self.moves,
            next: 0,
        }
    }
}

/// The positions of a game, replayed (see [`GameRecord::positions`]).
pub struct GamePositions<'a> {
    pos: Position,
    moves: &'a [ScoredMove],
    next: usize,
}

impl Iterator for GamePositions<'_> {
    type Item = (Position, ScoredMove);

    fn next(&mut self) -> Option<Self::Item> {
        let m = *self.moves.get(self.next)?;
        let here = self.pos.clone();
        self.pos.make(m.mv);
        self.next += 1;
        Some((here, m))
    }
}

fn decode_moves(start: &Position, bytes: &[u8]) -> Result<Vec<ScoredMove>, DecodeError> {
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(bytes.len() / MOVE_BYTES);
    for (index, c) in bytes.chunks_exact(MOVE_BYTES).enumerate() {
        let bits = u16::from_le_bytes([c[0], c[1]]);
        let mv = Move::from_bits(bits);
        if !pos.is_legal(mv) {
            return Err(DecodeError::IllegalMove { index, bits });
        }
        pos.make(mv);
        let score = i16::from_le_bytes([c[2], c[3]]);
        moves.push(ScoredMove { mv, score });
    }
    Ok(moves)
}

/// The rooks that hold a castling right.
fn castling_rooks(pos: &Position) -> u64 {
    let castling = pos.castling();
    (0..4)
        .filter(|i| castling.rights.bits() & (1 << i) != 0)
        .fold(0, |bb, i| bb | 1u64 << castling.rook_square(i).index())
}

/// 30 bytes: occupancy, a nibble per piece, flags, en passant, clocks.
fn pack_position(pos: &Position, out: &mut Vec<u8>) {
    let occupied = pos.occupied().0;
    let rooks = castling_rooks(pos);
    out.extend_from_slice(&occupied.to_le_bytes());
    let mut nibbles = [0u8; 16];
    let mut n = 0;
    for i in 0..64u8 {
        if occupied & (1u64 << i) == 0 {
            continue;
        }
        let piece = pos.piece_at(Square::new(i));
        let code = match piece {
            Some(p) if rooks & (1u64 << i) != 0 => match p.color {
                Color::White => WHITE_CASTLING_ROOK,
                Color::Black => BLACK_CASTLING_ROOK,
            },
            Some(p) => p.index() as u8,
            None => 0,
        };
        // At most 32 pieces in a legal position.
        if let Some(slot) = nibbles.get_mut(n / 2) {
            *slot |= code << (4 * (n % 2));
        }
        n += 1;
    }
    out.extend_from_slice(&nibbles);
    let flags = (pos.side_to_move() == Color::Black) as u8 | (pos.is_chess960() as u8) << 1;
    out.push(flags);
    out.push(pos.en_passant().map_or(255, |s| s.to_u8()));
    out.extend_from_slice(&pos.halfmove_clock().to_le_bytes());
    out.extend_from_slice(&pos.fullmove_number().to_le_bytes());
}

/// Reads the 30 bytes written by [`pack_position`] back into a position (through a FEN, so
/// every check of the FEN reader applies).
fn unpack_position(b: &[u8]) -> Result<Position, DecodeError> {
    let occupied = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
    if occupied.count_ones() > 32 {
        return Err(DecodeError::BadField("occupancy (more than 32 pieces)"));
    }
    let mut board: [Option<Piece>; 64] = [None; 64];
    let mut castling = String::new();
    let mut n = 0;
    for i in 0..64u8 {
        if occupied & (1u64 << i) == 0 {
            continue;
        }
        let code = (b[8 + n / 2] >> (4 * (n % 2))) & 0x0f;
        n += 1;
        let piece = match code {
            WHITE_CASTLING_ROOK | BLACK_CASTLING_ROOK => {
                let white = code == WHITE_CASTLING_ROOK;
                let file = (b'a' + i % 8) as char;
                castling.push(if white {
                    file.to_ascii_uppercase()
                } else {
                    file
                });
                let color = if white { Color::White } else { Color::Black };
                Piece::new(color, PieceKind::Rook)
            }
            c if c < 12 => {
                let color = if c < 6 { Color::White } else { Color::Black };
                let kind = PieceKind::from_index(c as usize % 6)
                    .ok_or(DecodeError::BadField("piece code"))?;
                Piece::new(color, kind)
            }
            _ => return Err(DecodeError::BadField("piece code")),
        };
        board[i as usize] = Some(piece);
    }
    let flags = b[24];
    if flags & !3 != 0 {
        return Err(DecodeError::BadField("flags"));
    }
    let ep = match b[25] {
        255 => "-".to_string(),
        s => Square::from_index(s)
            .ok_or(DecodeError::BadField("en-passant square"))?
            .to_string(),
    };
    let halfmove = u16::from_le_bytes([b[26], b[27]]);
    let fullmove = u16::from_le_bytes([b[28], b[29]]);
    let side = if flags & 1 != 0 { 'b' } else { 'w' };
    if castling.is_empty() {
        castling.push('-');
    }
    let fen = format!(
        "{} {side} {castling} {ep} {halfmove} {fullmove}",
        placement(&board)
    );
    let mut pos = Position::from_fen(&fen).map_err(|e| DecodeError::BadPosition(e.to_string()))?;
    pos.set_chess960(flags & 2 != 0);
    Ok(pos)
}

/// The FEN placement field of a board given square by square (a1 = 0).
fn placement(board: &[Option<Piece>; 64]) -> String {
    let mut s = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(p) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(p.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

/// Writes a chunk file's header.
pub fn chunk_header(seed: u64, soft_nodes: u32) -> [u8; CHUNK_HEADER_BYTES] {
    let mut h = [0u8; CHUNK_HEADER_BYTES];
    h[..8].copy_from_slice(&CHUNK_MAGIC);
    h[8..16].copy_from_slice(&seed.to_le_bytes());
    h[16..20].copy_from_slice(&soft_nodes.to_le_bytes());
    h
}

/// A chunk's header fields.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ChunkHeader {
    /// The seed of the run that wrote the chunk.
    pub seed: u64,
    /// The soft node limit per move of that run.
    pub soft_nodes: u32,
}

/// Reads a chunk header; `None` when the bytes are not one.
pub fn parse_chunk_header(bytes: &[u8]) -> Option<ChunkHeader> {
    let h = bytes.get(..CHUNK_HEADER_BYTES)?;
    if h[..8] != CHUNK_MAGIC {
        return None;
    }
    let seed = u64::from_le_bytes(h[8..16].try_into().ok()?);
    let soft_nodes = u32::from_le_bytes(h[16..20].try_into().ok()?);
    Some(ChunkHeader { seed, soft_nodes })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game_from(fen: &str, moves: &[&str], result: RecordResult) -> GameRecord {
        let start = Position::from_fen(fen).expect("fen");
        let mut pos = start.clone();
        let mut scored = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            let mv = pos.parse_uci(m).expect("move");
            pos.make(mv);
            scored.push(ScoredMove {
                mv,
                score: (i as i16 - 3) * 37,
            });
        }
        GameRecord {
            start,
            moves: scored,
            result,
            termination: Termination::Rules,
        }
    }

    /// Castling (both wings), en passant, promotions, and a start position with castling
    /// rights, an en-passant square and clocks: everything the packing must keep.
    fn samples() -> Vec<GameRecord> {
        vec![
            game_from(
                "r3k2r/pppq1ppp/2np1n2/2b1p3/2B1P1b1/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 4 8",
                &["e1g1", "e8c8", "a2a4", "d8e8"],
                RecordResult::WhiteWins,
            ),
            game_from(
                "4k3/8/8/3pP3/8/8/6p1/4K3 w - d6 0 40",
                &["e5d6", "g2g1n", "d6d7", "e8d7"],
                RecordResult::Draw,
            ),
            game_from(
                "rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1",
                &["b1a1"],
                RecordResult::BlackWins,
            ),
            game_from(Position::startpos().fen().as_str(), &[], RecordResult::Draw),
        ]
    }

    #[test]
    fn games_round_trip_with_positions_scores_and_results() {
        let mut bytes = Vec::new();
        for g in samples() {
            g.encode(&mut bytes);
        }
        let mut at = 0;
        for g in samples() {
            let (back, used) = GameRecord::decode(&bytes[at..]).expect("decode");
            assert_eq!(back.start.fen(), g.start.fen());
            assert_eq!(back.start, g.start);
            assert_eq!(back, g);
            let fens: Vec<String> = back.positions().map(|(p, _)| p.fen()).collect();
            let expect: Vec<String> = g.positions().map(|(p, _)| p.fen()).collect();
            assert_eq!(fens, expect);
            at += used;
        }
        assert_eq!(at, bytes.len());
    }

    #[test]
    fn about_four_bytes_per_position() {
        let g = game_from(
            Position::startpos().fen().as_str(),
            &["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"],
            RecordResult::Draw,
        );
        let mut bytes = Vec::new();
        g.encode(&mut bytes);
        assert_eq!(bytes.len(), GAME_HEADER_BYTES + 6 * 4 + CHECKSUM_BYTES);
    }

    #[test]
    fn damage_is_a_typed_error() {
        let mut bytes = Vec::new();
        samples()[0].encode(&mut bytes);
        for cut in [0, 10, bytes.len() - 1] {
            assert!(matches!(
                GameRecord::decode(&bytes[..cut]),
                Err(DecodeError::Truncated { .. })
            ));
        }
        let mut flipped = bytes.clone();
        flipped[GAME_HEADER_BYTES + 1] ^= 0x10;
        assert_eq!(GameRecord::decode(&flipped), Err(DecodeError::Checksum));
    }

    #[test]
    fn an_illegal_move_with_a_good_checksum_is_refused() {
        let mut g = samples()[0].clone();
        g.moves[1].mv = Move::from_bits(0x0fff);
        let mut bytes = Vec::new();
        g.encode(&mut bytes);
        assert!(matches!(
            GameRecord::decode(&bytes),
            Err(DecodeError::IllegalMove { index: 1, .. })
        ));
    }
}
