//! [`Game`]: a game of chess under the exact rules, on top of the core [`Position`].

use crate::core::{
    Bitboard, CastlingRights, Color, FenError, Move, MoveList, Piece, PieceKind, Position, Square,
    Undo,
};

use super::diagnose;
use super::error::{GameError, MoveError, MoveErrorKind};
use super::outcome::{DrawClaim, Outcome};
use super::san::{self, MoveText};
use crate::core::insufficient_material;

/// What makes two positions the same for the repetition rules: placement, side to move,
/// castling rights and the available en-passant capture (the core keeps an en-passant square
/// only when the capture is legal). Compared field by field, so the test is exact; the key
/// comes first so that different positions usually differ at the first comparison.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Seen {
    key: u64,
    colors: [Bitboard; 2],
    kinds: [Bitboard; 6],
    side: Color,
    rights: CastlingRights,
    ep: Option<Square>,
}

impl Seen {
    fn of(pos: &Position) -> Seen {
        Seen {
            key: pos.key(),
            colors: [pos.color_bb(Color::White), pos.color_bb(Color::Black)],
            kinds: PieceKind::ALL.map(|k| pos.pieces(k)),
            side: pos.side_to_move(),
            rights: pos.castling_rights(),
            ep: pos.en_passant(),
        }
    }
}

/// A game of chess: a starting position, the moves played, and how it stands.
///
/// One gate: a move is played only when it is in the core's list of legal moves. Every refusal
/// returns a [`MoveError`] naming the reason and leaves the game exactly as it was.
///
/// ```
/// use ferrum::rules::{Game, Outcome};
/// let mut game = Game::new();
/// game.play("e4").unwrap();       // SAN
/// game.play("e7e5").unwrap();     // UCI
/// game.play("Nf3").unwrap();
/// assert_eq!(game.ply(), 3);
/// assert_eq!(game.outcome(), Outcome::Ongoing);
/// assert_eq!(game.san_history(), ["e4", "e5", "Nf3"]);
/// let undone = game.undo().unwrap();
/// assert_eq!(undone.to_uci(false), "g1f3");
/// assert_eq!(game.fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    /// The en-passant square written in the starting FEN, even when no capture onto it is
    /// legal (only to explain a refused en-passant capture on the first move).
    start_ep: Option<Square>,
    pos: Position,
    moves: Vec<Move>,
    undos: Vec<Undo>,
    /// `seen[i]` is the position before move `i`; the last entry is the current position.
    seen: Vec<Seen>,
    /// `reps[i]`: how many times `seen[i]` has occurred up to and including ply `i`.
    reps: Vec<u16>,
    redo: Vec<Move>,
    /// An ending a player chose: resignation, agreement or a claimed draw.
    decision: Option<Outcome>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

impl Game {
    /// A game from the standard starting position.
    ///
    /// ```
    /// use ferrum::rules::Game;
    /// assert_eq!(Game::new().legal_moves().len(), 20);
    /// ```
    pub fn new() -> Game {
        Game::from_position(Position::startpos())
    }

    /// A game from any legal position (a puzzle, an adjourned game). A position that is
    /// already mate or stalemate starts finished.
    ///
    /// ```
    /// use ferrum::core::Position;
    /// use ferrum::rules::{Game, Outcome};
    /// let pos = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    /// assert!(matches!(Game::from_position(pos).outcome(), Outcome::Checkmate { .. }));
    /// ```
    pub fn from_position(pos: Position) -> Game {
        let seen = Seen::of(&pos);
        Game {
            start: pos.clone(),
            start_ep: pos.en_passant(),
            pos,
            moves: Vec::new(),
            undos: Vec::new(),
            seen: vec![seen],
            reps: vec![1],
            redo: Vec::new(),
            decision: None,
        }
    }

    /// A game from a FEN (standard chess; a FEN whose castling rights need Chess960 rooks, or
    /// use file letters, is read as Chess960).
    ///
    /// ```
    /// use ferrum::rules::Game;
    /// let game = Game::from_fen("7k/8/8/8/8/8/8/K5R1 w - - 0 1").unwrap();
    /// assert_eq!(game.legal_moves().len(), 16);
    /// assert!(Game::from_fen("not a fen").is_err());
    /// ```
    pub fn from_fen(fen: &str) -> Result<Game, FenError> {
        let pos = Position::from_fen(fen)?;
        Ok(Game::with_fen_ep(pos, fen))
    }

    /// A Chess960 game from a FEN (castling as X-FEN `KQkq` or Shredder-FEN `HAha`); castling
    /// moves are written king-takes-rook in UCI.
    ///
    /// ```
    /// use ferrum::rules::Game;
    /// let mut game = Game::from_fen_960("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1").unwrap();
    /// assert!(game.is_chess960());
    /// let m = game.play("O-O").unwrap();
    /// assert_eq!(m.to_uci(true), "b1h1");
    /// assert_eq!(game.fen(), "rk5r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1");
    /// ```
    pub fn from_fen_960(fen: &str) -> Result<Game, FenError> {
        let pos = Position::from_fen_960(fen)?;
        Ok(Game::with_fen_ep(pos, fen))
    }

    fn with_fen_ep(pos: Position, fen: &str) -> Game {
        let mut game = Game::from_position(pos);
        game.start_ep = fen
            .split_whitespace()
            .nth(3)
            .and_then(|f| f.parse::<Square>().ok());
        game
    }

    /// The Chess960 starting position number `n` (0 to 959, Scharnagl numbering; 518 is the
    /// standard arrangement), or `None` for a number out of range.
    ///
    /// ```
    /// use ferrum::rules::Game;
    /// let game = Game::chess960(518).unwrap();
    /// assert_eq!(game.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    /// assert!(game.is_chess960());
    /// assert!(Game::chess960(960).is_none());
    /// ```
    pub fn chess960(n: u16) -> Option<Game> {
        if n >= 960 {
            return None;
        }
        let mut rank: [Option<char>; 8] = [None; 8];
        let mut n = n as usize;
        rank[2 * (n % 4) + 1] = Some('B');
        n /= 4;
        rank[2 * (n % 4)] = Some('B');
        n /= 4;
        let place = |rank: &mut [Option<char>; 8], mut k: usize, piece: char| {
            for slot in rank.iter_mut().filter(|s| s.is_none()) {
                if k == 0 {
                    *slot = Some(piece);
                    return;
                }
                k -= 1;
            }
        };
        place(&mut rank, n % 6, 'Q');
        n /= 6;
        const KNIGHTS: [(usize, usize); 10] = [
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (1, 2),
            (1, 3),
            (1, 4),
            (2, 3),
            (2, 4),
            (3, 4),
        ];
        let (a, b) = KNIGHTS[n];
        // Place the second knight first so the first one's index still counts empty squares.
        place(&mut rank, b, 'N');
        place(&mut rank, a, 'N');
        for piece in ['R', 'K', 'R'] {
            place(&mut rank, 0, piece);
        }
        let white: String = rank.iter().map(|c| c.unwrap_or('R')).collect();
        let black = white.to_ascii_lowercase();
        let fen = format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1");
        Game::from_fen_960(&fen).ok()
    }

    // ---- the position ----

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &Position {
        &self.start
    }

    /// The FEN of the current position.
    pub fn fen(&self) -> String {
        self.pos.fen()
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.pos.side_to_move()
    }

    /// Half-moves played since the start of the game (the number of moves in
    /// [`Game::history`]).
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// True when the side to move is in check.
    ///
    /// ```
    /// use ferrum::rules::Game;
    /// let mut game = Game::new();
    /// for m in ["e4", "f5", "Qh5+"] {
    ///     game.play(m).unwrap();
    /// }
    /// assert!(game.is_check());
    /// ```
    pub fn is_check(&self) -> bool {
        self.pos.in_check()
    }

    /// True for a Chess960 game (castling is written king-takes-rook in UCI).
    pub fn is_chess960(&self) -> bool {
        self.pos.is_chess960()
    }

    /// Switches Chess960 notation on or off (UCI castling as `e1h1` or `e1g1`, the FEN's
    /// castling field, the PGN `Variant`); the rules and the moves are unchanged.
    ///
    /// ```
    /// use ferrum::rules::Game;
    /// let mut game = Game::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    /// let castle = game.parse_move("O-O").unwrap();
    /// assert_eq!(castle.to_uci(game.is_chess960()), "e1g1");
    /// game.set_chess960(true);
    /// assert_eq!(castle.to_uci(game.is_chess960()), "e1h1");
    /// ```
    pub fn set_chess960(&mut self, on: bool) {
        self.pos.set_chess960(on);
        self.start.set_chess960(on);
    }

    /// Every legal move of the side to move; empty once the game is over (including the
    /// draws that end a game with moves still on the board: insufficient material, fivefold
    /// repetition, seventy-five moves, and the players' decisions).
    ///
    /// ```
    /// use ferrum::core::Color;
    /// use ferrum::rules::Game;
    /// let mut game = Game::new();
    /// assert_eq!(game.legal_moves().len(), 20);
    /// game.resign(Color::White).unwrap();
    /// assert!(game.legal_moves().is_empty());
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        if self.outcome().is_over() {
            return MoveList::new();
        }
        self.pos.legal_moves()
    }

    /// The moves played, oldest first.
    ///
    /// ```
    /// use ferrum::rules::Game;
    /// let mut game = Game::new();
    /// game.play("e4").unwrap();
    /// game.play("c5").unwrap();
    /// let uci: Vec<String> = game.history().iter().map(|m| m.to_uci(false)).collect();
    /// assert_eq!(uci, ["e2e4", "c7c5"]);
    /// ```
    pub fn history(&self) -> &[Move] {
        &self.moves
    }

    /// The moves played from ply `ply` on (a spectator who has seen `ply` moves, a player
    /// reconnecting); empty when `ply` is at or past the current ply.
    ///
    /// ```
    /// use ferrum::rules::Game;
    /// let mut game = Game::new();
    /// for m in ["e4", "e5", "Nf3"] {
    ///     game.play(m).unwrap();
    /// }
    /// assert_eq!(game.moves_from(1).len(), 2);
    /// assert!(game.moves_from(7).is_empty());
    /// ```
    pub fn moves_from(&self, ply: usize) -> &[Move] {
        self.moves.get(ply..).unwrap_or(&[])
    }

    /// The moves played, in SAN.
    pub fn san_history(&self) -> Vec<String> {
        let mut pos = self.start.clone();
        self.moves
            .iter()
            .map(|&m| {
                let s = san::san_unchecked(&pos, m);
                pos.make(m);
                s
            })
            .collect()
    }

    /// The Zobrist keys of every position of the game, the starting one first and the current
    /// one last (for a search that must see repetitions of the game's positions).
    ///
    /// ```
    /// use ferrum::rules::Game;
    /// let mut game = Game::new();
    /// for m in ["Nf3", "Nf6", "Ng1", "Ng8"] {
    ///     game.play(m).unwrap();
    /// }
    /// let keys: Vec<u64> = game.keys().collect();
    /// assert_eq!(keys.len(), 5);
    /// assert_eq!(keys[0], keys[4]);
    /// assert_eq!(keys[4], game.position().key());
    /// ```
    pub fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.seen.iter().map(|s| s.key)
    }

    /// How many times the current position has occurred in this game (1 the first time).
    ///
    /// ```
    /// use ferrum::rules::Game;
    /// let mut game = Game::new();
    /// for m in ["Nf3", "Nf6", "Ng1", "Ng8"] {
    ///     game.play(m).unwrap();
    /// }
    /// assert_eq!(game.repetitions(), 2);
    /// ```
    pub fn repetitions(&self) -> usize {
        self.reps.last().map_or(1, |&r| r as usize)
    }

    // ---- moves ----

    /// SAN of `m` in the current position, or why `m` is not legal there.
    ///
    /// ```
    /// use ferrum::rules::Game;
    /// let game = Game::new();
    /// let m = game.position().parse_uci("g1f3").unwrap();
    /// assert_eq!(game.san(m).unwrap(), "Nf3");
    /// ```
    pub fn san(&self, m: Move) -> Result<String, MoveError> {
        if self.pos.is_legal(m) {
            Ok(san::san_unchecked(&self.pos, m))
        } else {
            Err(self.refuse_move(m))
        }
    }

    /// The legal move written `text`, without playing it: UCI (`e2e4`, `e7e8q`, castling as
    /// `e1g1` or `e1h1`) or SAN (`Nf3`, `exd6`, `O-O-O`, `e8=N+`, `Qh4#`, and the tolerant
    /// `0-0`, `e8Q`, a missing or extra `+`/`#`, `!`/`?` marks). Leading and trailing spaces
    /// are ignored.
    ///
    /// ```
    /// use ferrum::rules::{Game, MoveErrorKind};
    /// let game = Game::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    /// assert_eq!(game.parse_move("a8=N").unwrap().to_uci(false), "a7a8n");
    /// assert_eq!(game.parse_move("a7a8Q").unwrap().to_uci(false), "a7a8q");
    /// let err = game.parse_move("a8").unwrap_err();
    /// assert_eq!(err.kind(), &MoveErrorKind::PromotionRequired);
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        // The usual case, a legal move, is found among the moves of the pieces the text can
        // mean: most of the position's moves (and the king's attacked-square tests) are never
        // generated. A move found there is the one the full list below would give, and proves
        // that the side to move has a legal move, which is all the outcome needs to know.
        if let Some(m) = self.quick_match(text) {
            let outcome = match self.decision {
                Some(decided) => decided,
                None => self.automatic_outcome(true),
            };
            if outcome.is_over() {
                return Err(MoveError::new(text, MoveErrorKind::GameOver { outcome }));
            }
            return Ok(m);
        }
        let legal = self.pos.legal_moves();
        let outcome = match self.decision {
            Some(decided) => decided,
            None => self.automatic_outcome(!legal.is_empty()),
        };
        if outcome.is_over() {
            return Err(MoveError::new(text, MoveErrorKind::GameOver { outcome }));
        }
        let Some(parsed) = san::read(text) else {
            return Err(MoveError::new(text, MoveErrorKind::NotAMove));
        };
        self.match_move(parsed, &legal)
            .map_err(|kind| MoveError::new(text, kind))
    }

    /// The legal move of `legal` that `parsed` names, or why there is none. `legal` holds the
    /// position's legal moves, or at least every one of them that `parsed` could name (see
    /// [`Game::quick_match`]); a refusal is only trusted from the full list.
    fn match_move(&self, parsed: MoveText, legal: &[Move]) -> Result<Move, MoveErrorKind> {
        let refused = Err;
        match parsed {
            MoveText::Uci {
                from,
                to,
                promotion,
            } => {
                // Walked without collecting: this runs for every move of every game read.
                let from_here = || legal.iter().copied().filter(move |m| m.from() == from);
                let squares = |m: &Move| m.to() == to;
                let castles = |m: &Move| m.is_castle() && m.king_destination() == to;
                let same: &dyn Fn(&Move) -> bool = if from_here().any(|m| squares(&m)) {
                    &squares
                } else {
                    &castles
                };
                if let Some(m) = from_here().find(|m| same(m) && m.promotion() == promotion) {
                    return Ok(m);
                }
                if let Some(m) = from_here().find(|m| same(m)) {
                    return refused(promotion_refusal(m, promotion));
                }
                refused(self.why_not(from, to, promotion))
            }
            MoveText::Castle(side) => {
                match legal
                    .iter()
                    .find(|m| m.is_castle() && san::castle_side(**m) == side)
                {
                    Some(&m) => Ok(m),
                    None => refused(diagnose::castling(&self.pos, side)),
                }
            }
            MoveText::San {
                piece,
                file,
                rank,
                to,
                promotion,
            } => {
                let fits = || {
                    legal.iter().copied().filter(move |m| {
                        let from = m.from();
                        !m.is_castle()
                            && m.to() == to
                            && self.pos.piece_at(from).map(|p| p.kind) == Some(piece)
                            && file.is_none_or(|f| from.file() == f)
                            && rank.is_none_or(|r| from.rank() == r)
                            && (piece != PieceKind::Pawn
                                || file.is_some()
                                || from.file() == to.file())
                    })
                };
                // Walked without collecting (every move of every game read comes here); the
                // candidates are only gathered for the refusal of an ambiguous move.
                let mut exact = fits().filter(|m| m.promotion() == promotion);
                match (exact.next(), exact.next()) {
                    (Some(m), None) => Ok(m),
                    (None, _) => match fits().next() {
                        Some(m) => refused(promotion_refusal(m, promotion)),
                        None => refused(self.why_not_san(piece, file, rank, to, promotion)),
                    },
                    (Some(_), Some(_)) => refused(MoveErrorKind::Ambiguous {
                        candidates: fits()
                            .filter(|m| m.promotion() == promotion)
                            .map(|m| san::san_unchecked(&self.pos, m))
                            .collect(),
                    }),
                }
            }
        }
    }

    /// The legal move `text` names when it reads as a move and exactly one legal move fits it,
    /// looked for among the legal moves of the pieces it can mean only (the piece on a UCI
    /// origin, the king for castling, the pieces of the SAN's kind); `None` otherwise, and the
    /// full path of [`Game::parse_move`] decides. Every legal move that could fit is in that
    /// smaller list, so a move found there is the one the full list gives.
    fn quick_match(&self, text: &str) -> Option<Move> {
        let parsed = san::read(text)?;
        let us = self.side_to_move();
        let origins = match parsed {
            MoveText::Uci { from, .. } => from.bb(),
            MoveText::Castle(_) => self.pos.king_square(us).bb(),
            MoveText::San { piece, .. } => self.pos.pieces_of(us, piece),
        };
        let mut list = MoveList::new();
        self.pos.legal_moves_from(origins, &mut list);
        self.match_move(parsed, &list).ok()
    }

    /// Plays the move written `text` (UCI or SAN, see [`Game::parse_move`]) and returns it.
    /// A refused move changes nothing.
    ///
    /// ```
    /// use ferrum::rules::{Game, MoveErrorKind};
    /// let mut game = Game::new();
    /// let m = game.play("Nf3").unwrap();
    /// assert_eq!(m.to_uci(false), "g1f3");
    /// let fen = game.fen();
    /// let err = game.play("e2e4").unwrap_err(); // Black to move
    /// assert!(matches!(err.kind(), MoveErrorKind::NotYourTurn { .. }));
    /// assert_eq!(game.fen(), fen);
    /// ```
    pub fn play(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = self.parse_move(text)?;
        self.push(m);
        Ok(m)
    }

    /// Plays `m` if it is legal (in the core's legal list); otherwise says why not and
    /// changes nothing.
    ///
    /// ```
    /// use ferrum::core::{Move, MoveKind, Square};
    /// use ferrum::rules::Game;
    /// let mut game = Game::new();
    /// let m = Move::new(Square::E2, Square::E4, MoveKind::Normal);
    /// game.play_move(m).unwrap();
    /// assert!(game.play_move(m).is_err());
    /// ```
    pub fn play_move(&mut self, m: Move) -> Result<(), MoveError> {
        self.check_playable(m)?;
        self.push(m);
        Ok(())
    }

    /// [`Game::play_move`], returning the move's SAN in the position it was played in (what a
    /// move list or a protocol answer shows).
    ///
    /// ```
    /// use ferrum::rules::Game;
    /// let mut game = Game::new();
    /// let m = game.parse_move("g1f3").unwrap();
    /// assert_eq!(game.play_move_san(m).unwrap(), "Nf3");
    /// ```
    pub fn play_move_san(&mut self, m: Move) -> Result<String, MoveError> {
        self.check_playable(m)?;
        let san = san::san_unchecked(&self.pos, m);
        self.push(m);
        Ok(san)
    }

    /// `Ok` when `m` may be played now: the game goes on and `m` is in the legal list.
    fn check_playable(&self, m: Move) -> Result<(), MoveError> {
        let outcome = self.outcome();
        if outcome.is_over() {
            return Err(MoveError::new(
                m.to_uci(self.is_chess960()),
                MoveErrorKind::GameOver { outcome },
            ));
        }
        if !self.pos.is_legal(m) {
            return Err(self.refuse_move(m));
        }
        Ok(())
    }

    /// Takes back the last move and returns it; it can be played again with [`Game::redo`].
    /// Works after checkmate, stalemate and the other automatic endings (the game resumes);
    /// refused after a resignation, an agreed draw or a claimed draw.
    ///
    /// ```
    /// use ferrum::rules::{Game, Outcome};
    /// let mut game = Game::new();
    /// for m in ["f3", "e5", "g4", "Qh4#"] {
    ///     game.play(m).unwrap();
    /// }
    /// assert!(game.outcome().is_over());
    /// game.undo().unwrap();
    /// assert_eq!(game.outcome(), Outcome::Ongoing);
    /// ```
    pub fn undo(&mut self) -> Result<Move, GameError> {
        if let Some(outcome) = self.decision {
            return Err(GameError::Decided { outcome });
        }
        let (Some(m), Some(undo)) = (self.moves.pop(), self.undos.pop()) else {
            return Err(GameError::NothingToUndo);
        };
        self.pos.unmake(m, &undo);
        self.seen.pop();
        self.reps.pop();
        self.redo.push(m);
        Ok(m)
    }

    /// Plays again the move last taken back by [`Game::undo`] and returns it. Playing any
    /// other move forgets the undone moves.
    ///
    /// ```
    /// use ferrum::rules::{Game, GameError};
    /// let mut game = Game::new();
    /// game.play("d4").unwrap();
    /// let m = game.undo().unwrap();
    /// assert_eq!(game.redo(), Ok(m));
    /// assert_eq!(game.redo(), Err(GameError::NothingToRedo));
    /// ```
    pub fn redo(&mut self) -> Result<Move, GameError> {
        let Some(&m) = self.redo.last() else {
            return Err(GameError::NothingToRedo);
        };
        let outcome = self.outcome();
        if outcome.is_over() {
            return Err(GameError::GameOver { outcome });
        }
        if !self.pos.is_legal(m) {
            self.redo.clear();
            return Err(GameError::NothingToRedo);
        }
        self.push(m);
        Ok(m)
    }

    /// Appends a legal move: makes it, records the position and its repetition count, and
    /// keeps the redo list only when this is the move it expected next.
    fn push(&mut self, m: Move) {
        match self.redo.last() {
            Some(&next) if next == m => {
                self.redo.pop();
            }
            Some(_) => self.redo.clear(),
            None => {}
        }
        let undo = self.pos.make(m);
        self.moves.push(m);
        self.undos.push(undo);
        let now = Seen::of(&self.pos);
        let n = self.seen.len();
        // Only positions since the last capture or pawn move can repeat (and only with the
        // same side to move, every second ply).
        let window = (self.pos.halfmove_clock() as usize).min(n);
        let earlier = (2..=window)
            .step_by(2)
            .map(|back| n - back)
            .find(|&i| self.seen[i] == now);
        let count = earlier.map_or(1, |i| self.reps[i].saturating_add(1));
        self.seen.push(now);
        self.reps.push(count);
    }

    // ---- endings ----

    /// How the game stands: a player's decision if there was one, otherwise what the position
    /// and the moves decide (checkmate, stalemate, insufficient material, fivefold repetition,
    /// the seventy-five-move rule, in that order of precedence, so a mate on the move that
    /// reaches a count limit is still mate).
    ///
    /// ```
    /// use ferrum::rules::{Game, Outcome};
    /// let game = Game::from_fen("8/8/8/8/8/5k2/8/5K2 w - - 0 1").unwrap();
    /// assert_eq!(game.outcome(), Outcome::InsufficientMaterial);
    /// ```
    pub fn outcome(&self) -> Outcome {
        match self.decision {
            Some(decided) => decided,
            None => self.automatic_outcome(self.pos.has_legal_moves()),
        }
    }

    /// The outcome the rules give by themselves, knowing whether the side to move has a
    /// legal move.
    fn automatic_outcome(&self, has_moves: bool) -> Outcome {
        if !has_moves {
            return if self.pos.in_check() {
                Outcome::Checkmate {
                    winner: !self.pos.side_to_move(),
                }
            } else {
                Outcome::Stalemate
            };
        }
        if insufficient_material(&self.pos) {
            Outcome::InsufficientMaterial
        } else if self.repetitions() >= 5 {
            Outcome::FivefoldRepetition
        } else if self.pos.halfmove_clock() >= 150 {
            Outcome::SeventyFiveMoves
        } else {
            Outcome::Ongoing
        }
    }

    /// The draws that could be claimed now: threefold repetition (the current position has
    /// occurred three times or more) and the fifty-move rule (a hundred plies without a
    /// capture or a pawn move). Empty once the game is over.
    ///
    /// ```
    /// use ferrum::rules::{DrawClaim, Game};
    /// let game = Game::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").unwrap();
    /// assert_eq!(game.claimable_draws(), [DrawClaim::FiftyMoves]);
    /// ```
    pub fn claimable_draws(&self) -> Vec<DrawClaim> {
        let mut claims = Vec::new();
        if self.outcome().is_over() {
            return claims;
        }
        if self.repetitions() >= 3 {
            claims.push(DrawClaim::ThreefoldRepetition);
        }
        if self.pos.halfmove_clock() >= 100 {
            claims.push(DrawClaim::FiftyMoves);
        }
        claims
    }

    /// Ends the game as a draw when one can be claimed (threefold repetition first, then the
    /// fifty-move rule); otherwise refuses and changes nothing. A claimed draw cannot be undone.
    ///
    /// ```
    /// use ferrum::rules::{Game, GameError, Outcome};
    /// let mut game = Game::new();
    /// assert_eq!(game.claim_draw(), Err(GameError::NoDrawToClaim));
    /// for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
    ///     game.play(m).unwrap();
    /// }
    /// assert_eq!(game.claim_draw(), Ok(Outcome::ThreefoldRepetition));
    /// ```
    pub fn claim_draw(&mut self) -> Result<Outcome, GameError> {
        let outcome = self.outcome();
        if outcome.is_over() {
            return Err(GameError::GameOver { outcome });
        }
        let claim = self
            .claimable_draws()
            .first()
            .copied()
            .ok_or(GameError::NoDrawToClaim)?;
        self.claim(claim)
    }

    /// Ends the game by the draw `claim` when it can be claimed now (a stored game's claim is
    /// replayed exactly, even where the other claim was possible too).
    pub(crate) fn claim(&mut self, claim: DrawClaim) -> Result<Outcome, GameError> {
        let outcome = self.outcome();
        if outcome.is_over() {
            return Err(GameError::GameOver { outcome });
        }
        if !self.claimable_draws().contains(&claim) {
            return Err(GameError::NoDrawToClaim);
        }
        self.decision = Some(claim.outcome());
        Ok(claim.outcome())
    }

    /// `color` resigns (on either side's turn); refused when the game is already over.
    ///
    /// ```
    /// use ferrum::core::Color;
    /// use ferrum::rules::{Game, Outcome};
    /// let mut game = Game::new();
    /// assert_eq!(game.resign(Color::White), Ok(Outcome::Resignation { winner: Color::Black }));
    /// assert!(game.resign(Color::Black).is_err());
    /// ```
    pub fn resign(&mut self, color: Color) -> Result<Outcome, GameError> {
        self.decide(Outcome::Resignation { winner: !color })
    }

    /// The players agree a draw; refused when the game is already over.
    ///
    /// ```
    /// use ferrum::rules::{Game, Outcome};
    /// let mut game = Game::new();
    /// assert_eq!(game.agree_draw(), Ok(Outcome::Agreement));
    /// assert!(game.play("e4").is_err());
    /// ```
    pub fn agree_draw(&mut self) -> Result<Outcome, GameError> {
        self.decide(Outcome::Agreement)
    }

    fn decide(&mut self, outcome: Outcome) -> Result<Outcome, GameError> {
        let now = self.outcome();
        if now.is_over() {
            return Err(GameError::GameOver { outcome: now });
        }
        self.decision = Some(outcome);
        Ok(outcome)
    }

    // ---- why a move is refused ----

    /// The refusal for a [`Move`] value that is not in the legal list.
    fn refuse_move(&self, m: Move) -> MoveError {
        let text = m.to_uci(self.is_chess960());
        let kind = if m.is_castle()
            && self.pos.piece_at(m.from()) == Some(Piece::new(self.side_to_move(), PieceKind::King))
        {
            diagnose::castling(&self.pos, san::castle_side(m))
        } else {
            self.why_not(m.from(), m.to(), m.promotion())
        };
        MoveError::new(text, kind)
    }

    /// Why the piece on `from` may not go to `to` (with `promotion`): a move known not to be
    /// legal.
    fn why_not(&self, from: Square, to: Square, promotion: Option<PieceKind>) -> MoveErrorKind {
        let us = self.side_to_move();
        let Some(piece) = self.pos.piece_at(from) else {
            return MoveErrorKind::NoPiece { square: from };
        };
        if piece.color != us {
            return MoveErrorKind::NotYourTurn {
                piece,
                square: from,
            };
        }
        if piece.kind == PieceKind::King {
            if let Some(side) = diagnose::castle_attempt(&self.pos, from, to) {
                return diagnose::castling(&self.pos, side);
            }
        }
        let promoting = piece.kind == PieceKind::Pawn && to.rank() == san::last_rank(us);
        if let Some(kind) = bad_promotion_piece(promotion, promoting) {
            return kind;
        }
        diagnose::piece_move(&self.pos, piece, from, to, self.en_passant_target())
    }

    /// Why SAN naming a `piece` going to `to` matches no legal move.
    fn why_not_san(
        &self,
        piece: PieceKind,
        file: Option<u8>,
        rank: Option<u8>,
        to: Square,
        promotion: Option<PieceKind>,
    ) -> MoveErrorKind {
        let us = self.side_to_move();
        // SAN with a promotion piece always names a pawn (the reader refuses others).
        if let Some(kind) = bad_promotion_piece(promotion, to.rank() == san::last_rank(us)) {
            return kind;
        }
        let ep = self.en_passant_target();
        if !diagnose::san_candidates(&self.pos, piece, file, rank, to, ep).is_empty() {
            return MoveErrorKind::LeavesKingInCheck {
                color: us,
                king_move: piece == PieceKind::King,
            };
        }
        // One piece the text could mean: say what stops it. Otherwise speak of them all.
        let mover = Piece::new(us, piece);
        let named: Vec<Square> = self
            .pos
            .pieces_of(us, piece)
            .iter()
            .filter(|s| file.is_none_or(|f| s.file() == f) && rank.is_none_or(|r| s.rank() == r))
            .collect();
        let shaped: Vec<Square> = named
            .iter()
            .copied()
            .filter(|&s| diagnose::geometry(mover, s, to))
            .collect();
        let named = if shaped.len() == 1 { shaped } else { named };
        match named.as_slice() {
            [from] => diagnose::piece_move(&self.pos, Piece::new(us, piece), *from, to, ep),
            _ => MoveErrorKind::CannotMoveThere {
                piece: Piece::new(us, piece),
                from: None,
                to,
                obstacle: None,
            },
        }
    }

    /// The square a pawn skipped with a double push on the last move (before any move: the
    /// starting FEN's en-passant square), whether or not a capture onto it is legal. The core
    /// [`Position`] keeps only a legal one; this one explains a refused en-passant capture and
    /// is what a Polyglot key needs.
    ///
    /// ```
    /// use ferrum::core::Square;
    /// use ferrum::rules::Game;
    /// let mut game = Game::new();
    /// game.play("e4").unwrap();
    /// assert_eq!(game.en_passant_target(), Some(Square::E3));
    /// assert_eq!(game.position().en_passant(), None); // no black pawn can take
    /// game.play("Nf6").unwrap();
    /// assert_eq!(game.en_passant_target(), None);
    /// ```
    pub fn en_passant_target(&self) -> Option<Square> {
        if let Some(ep) = self.pos.en_passant() {
            return Some(ep);
        }
        let Some(&last) = self.moves.last() else {
            return self.start_ep;
        };
        let (from, to) = (last.from(), last.to());
        let pawn = self
            .pos
            .piece_at(to)
            .is_some_and(|p| p.kind == PieceKind::Pawn);
        if pawn
            && !last.is_castle()
            && from.file() == to.file()
            && from.rank().abs_diff(to.rank()) == 2
        {
            Some(Square::from_coords(
                from.file(),
                (from.rank() + to.rank()) / 2,
            ))
        } else {
            None
        }
    }
}

/// The refusal for a promotion piece named on a move that does not promote, or a king or pawn
/// named on one that does; `None` when the piece is acceptable (or none was named).
fn bad_promotion_piece(promotion: Option<PieceKind>, promoting: bool) -> Option<MoveErrorKind> {
    let piece = promotion?;
    let promotes = match (promoting, piece) {
        (false, _) => false,
        (true, PieceKind::King | PieceKind::Pawn) => true,
        (true, _) => return None,
    };
    Some(MoveErrorKind::InvalidPromotion { piece, promotes })
}

/// The refusal when the squares of a move match legal moves but the promotion piece does not.
fn promotion_refusal(legal: Move, asked: Option<PieceKind>) -> MoveErrorKind {
    match asked {
        None => MoveErrorKind::PromotionRequired,
        Some(piece) => MoveErrorKind::InvalidPromotion {
            piece,
            promotes: legal.promotion().is_some(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The texts a reader may meet for the legal moves of `game`: each move's SAN and UCI,
    /// and near misses (no disambiguation, another piece letter, no promotion piece, castling
    /// either way) that the full path refuses or reads differently.
    fn texts(game: &Game) -> Vec<String> {
        let mut out = vec!["O-O".to_string(), "O-O-O".to_string(), "e1g1".to_string()];
        for &m in game.legal_moves().iter() {
            let san = san::san_unchecked(&game.pos, m);
            out.push(m.to_uci(false));
            out.push(m.to_uci(true));
            out.push(format!("{}{}", m.from(), m.to()));
            let body = san.trim_end_matches(['+', '#']);
            let dest = m.to().to_string();
            if let Some(at) = body.rfind(&dest) {
                // The destination and what follows, after each of the piece letters.
                let tail = &body[at..];
                for piece in ["", "N", "B", "R", "Q", "K"] {
                    out.push(format!("{piece}{tail}"));
                    out.push(format!("{piece}x{tail}"));
                }
                out.push(body[..at].chars().take(1).collect::<String>() + tail);
                out.push(body[..at].to_string() + &dest);
            }
            out.push(san);
        }
        out
    }

    /// Plays `plies` random moves (a fixed xorshift sequence) from `game`, checking at every
    /// position that the quick match of `parse_move` gives what the full list gives.
    fn check_random_game(mut game: Game, plies: usize, seed: u64) -> [usize; 2] {
        let mut rng = seed;
        // Texts the quick match found a move for, and texts left to the full path.
        let mut checked = [0, 0];
        for _ in 0..plies {
            check_position(&game, &mut checked);
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let m = legal[(rng % legal.len() as u64) as usize];
            game.play_move(m).unwrap();
        }
        checked
    }

    /// Checks that the quick match of `parse_move` gives what the full list gives for the
    /// texts of [`texts`] in `game`'s position; counts them in `checked` (found, left).
    fn check_position(game: &Game, checked: &mut [usize; 2]) {
        for text in texts(game) {
            let full =
                san::read(&text).and_then(|p| game.match_move(p, &game.pos.legal_moves()).ok());
            assert_eq!(
                game.quick_match(&text),
                full,
                "{text} in {}",
                game.pos.fen()
            );
            checked[usize::from(full.is_none())] += 1;
        }
    }

    /// The same check at every position of the opening book's source games (299 lines).
    #[test]
    fn quick_match_agrees_on_the_book_games() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/book/ferrum.pgn");
        let Ok(text) = std::fs::read_to_string(path) else {
            return; // not in a package download
        };
        let mut checked = [0, 0];
        let games = crate::rules::read_pgn(&text);
        for read in &games {
            let read = read.as_ref().unwrap();
            let mut game = Game::from_position(read.game.start_position().clone());
            for &m in read.game.history() {
                check_position(&game, &mut checked);
                game.play_move(m).unwrap();
            }
            check_position(&game, &mut checked);
        }
        assert!(games.len() > 250 && checked[0] > 10_000, "{checked:?}");
    }

    #[test]
    fn quick_match_agrees_with_the_full_list() {
        let mut checked = [0, 0];
        let mut add = |[found, left]: [usize; 2]| {
            checked[0] += found;
            checked[1] += left;
        };
        for seed in 1..=40u64 {
            add(check_random_game(
                Game::new(),
                200,
                seed * 0x9e37_79b9_7f4a_7c15,
            ));
        }
        for n in [0, 518, 959, 77, 300] {
            let game = Game::chess960(n).unwrap();
            add(check_random_game(game, 150, u64::from(n) + 7));
        }
        // Positions with promotions, en passant, castling both ways and pins.
        for fen in [
            "r3k2r/1P4P1/8/2pP4/8/8/1p4p1/R3K2R w KQkq c6 0 1",
            "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",
            "N3k2N/8/8/8/8/8/8/N3K2N w - - 0 1",
        ] {
            add(check_random_game(Game::from_fen(fen).unwrap(), 60, 3));
        }
        assert!(checked[0] > 100_000 && checked[1] > 100_000, "{checked:?}");
    }
}
