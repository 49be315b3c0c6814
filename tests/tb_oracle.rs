//! TEMPORARY (removed with the pyrrhic-rs dev-dependency): Ferrum's own prober against the
//! old one on random positions of every 3- and 4-piece material, with and without en passant.

use std::collections::HashMap;

use ferrum::core::attacks;
use ferrum::core::{Bitboard, Color, PieceKind, Position, Square};
use ferrum::tb::Tablebases;
use pyrrhic_rs::{DtzProbeValue, EngineAdapter, TableBases};

#[derive(Copy, Clone, Debug)]
struct Adapter;

fn with(sq: u64, f: impl Fn(Square) -> Bitboard) -> u64 {
    Square::from_index(sq as u8).map_or(0, |s| f(s).0)
}

impl EngineAdapter for Adapter {
    fn pawn_attacks(color: pyrrhic_rs::Color, sq: u64) -> u64 {
        let c = if color == pyrrhic_rs::Color::White {
            Color::White
        } else {
            Color::Black
        };
        with(sq, |s| attacks::pawn_attacks(c, s))
    }
    fn knight_attacks(sq: u64) -> u64 {
        with(sq, attacks::knight_attacks)
    }
    fn bishop_attacks(sq: u64, occ: u64) -> u64 {
        with(sq, |s| attacks::bishop_attacks(s, Bitboard(occ)))
    }
    fn rook_attacks(sq: u64, occ: u64) -> u64 {
        with(sq, |s| attacks::rook_attacks(s, Bitboard(occ)))
    }
    fn queen_attacks(sq: u64, occ: u64) -> u64 {
        with(sq, |s| attacks::queen_attacks(s, Bitboard(occ)))
    }
    fn king_attacks(sq: u64) -> u64 {
        with(sq, attacks::king_attacks)
    }
}

fn signed(w: pyrrhic_rs::WdlProbeResult) -> i32 {
    use pyrrhic_rs::WdlProbeResult as P;
    match w {
        P::Loss => -2,
        P::BlessedLoss => -1,
        P::Draw => 0,
        P::CursedWin => 1,
        P::Win => 2,
    }
}

type Answer = (Option<i32>, Option<(i32, Vec<(String, i32)>)>);

fn old(tb: &TableBases<Adapter>, pos: &Position) -> Answer {
    let kind = |k: PieceKind| pos.pieces(k).0;
    let w = pos.color_bb(Color::White).0;
    let b = pos.color_bb(Color::Black).0;
    let ep = pos.en_passant().map_or(0, |s| s.index() as u32);
    let wtm = pos.side_to_move() == Color::White;
    let wdl = tb
        .probe_wdl(
            w,
            b,
            kind(PieceKind::King),
            kind(PieceKind::Queen),
            kind(PieceKind::Rook),
            kind(PieceKind::Bishop),
            kind(PieceKind::Knight),
            kind(PieceKind::Pawn),
            ep,
            wtm,
        )
        .ok()
        .map(signed);
    let raw = tb
        .probe_root(
            w,
            b,
            kind(PieceKind::King),
            kind(PieceKind::Queen),
            kind(PieceKind::Rook),
            kind(PieceKind::Bishop),
            kind(PieceKind::Knight),
            kind(PieceKind::Pawn),
            0,
            ep,
            wtm,
        )
        .ok();
    let root = raw.and_then(|raw| {
        let sd = |r: pyrrhic_rs::DtzResult| {
            let d = i32::from(r.dtz);
            d * signed(r.wdl).signum()
        };
        let dtz = match raw.root {
            DtzProbeValue::DtzResult(r) => sd(r),
            DtzProbeValue::Checkmate => -1,
            DtzProbeValue::Stalemate => 0,
            DtzProbeValue::Failed => return None,
        };
        let mut moves = Vec::new();
        for v in raw.moves.iter().take(raw.num_moves) {
            let DtzProbeValue::DtzResult(r) = *v else {
                return None;
            };
            let promo = match r.promotion {
                pyrrhic_rs::Piece::Queen => "q",
                pyrrhic_rs::Piece::Rook => "r",
                pyrrhic_rs::Piece::Bishop => "b",
                pyrrhic_rs::Piece::Knight => "n",
                _ => "",
            };
            let from = Square::from_index(r.from_square).expect("square");
            let to = Square::from_index(r.to_square).expect("square");
            moves.push((format!("{from}{to}{promo}"), sd(r)));
        }
        moves.sort();
        Some((dtz, moves))
    });
    (wdl, root)
}

fn new(tb: &Tablebases, pos: &Position) -> Answer {
    let wdl = tb.probe_wdl(pos).map(|w| w.signed());
    let root = tb.probe_root(pos).map(|r| {
        let mut moves: Vec<(String, i32)> = r
            .moves
            .iter()
            .map(|m| (m.mv.to_uci(false), m.dtz))
            .collect();
        moves.sort();
        (r.dtz, moves)
    });
    (wdl, root)
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random legal position with these white and black pieces (kings added), optionally with a
/// pawn just pushed two squares beside an enemy pawn.
fn random(rng: &mut Rng, white: &str, black: &str, ep: bool) -> Option<Position> {
    let mut board: [Option<char>; 64] = [None; 64];
    let mut stm = if rng.below(2) == 0 { 'w' } else { 'b' };
    let mut ep_sq = "-".to_string();
    if ep {
        // The side not to move just pushed: white pawn on rank 4 (black to move) or black on 5.
        let pusher_white = stm == 'b';
        let file = rng.below(8) as usize;
        let side = file as i64 + if rng.below(2) == 0 { -1 } else { 1 };
        if !(0..8).contains(&side) {
            return None;
        }
        let rank = if pusher_white { 3 } else { 4 };
        board[rank * 8 + file] = Some(if pusher_white { 'P' } else { 'p' });
        board[rank * 8 + side as usize] = Some(if pusher_white { 'p' } else { 'P' });
        let behind = if pusher_white { rank - 1 } else { rank + 1 };
        let start = if pusher_white { rank - 2 } else { rank + 2 };
        board[behind * 8 + file] = Some('x');
        board[start * 8 + file] = Some('x');
        ep_sq = format!("{}{}", (b'a' + file as u8) as char, behind + 1);
        let _ = &mut stm;
    }
    let mut place = |c: char, board: &mut [Option<char>; 64]| loop {
        let sq = rng.below(64) as usize;
        if board[sq].is_some() || (c.eq_ignore_ascii_case(&'p') && !(8..56).contains(&sq)) {
            continue;
        }
        board[sq] = Some(c);
        break;
    };
    for c in format!("K{white}").chars() {
        place(c, &mut board);
    }
    for c in format!("k{}", black.to_lowercase()).chars() {
        place(c, &mut board);
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(c) if c != 'x' => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
                _ => empty += 1,
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let pos = Position::from_fen(&format!("{fen} {stm} - {ep_sq} 0 1")).ok()?;
    if ep && pos.en_passant().is_none() {
        return None;
    }
    Some(pos)
}

fn materials() -> Vec<(String, String)> {
    let p = ["Q", "R", "B", "N", "P"];
    let mut out = Vec::new();
    for a in p {
        out.push((a.to_string(), String::new()));
        for b in p {
            out.push((format!("{a}{b}"), String::new()));
            out.push((a.to_string(), b.to_string()));
        }
    }
    out
}

#[test]
fn the_new_prober_agrees_with_pyrrhic() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/syzygy");
    let old_tb = TableBases::<Adapter>::new(dir).expect("old opens");
    let new_tb = Tablebases::open(dir).expect("new opens");
    let per: usize = std::env::var("ORACLE_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut same, mut differ) = (0usize, 0usize);
    let mut counts: HashMap<bool, usize> = HashMap::new();
    let mut shown = 0;
    for (w, b) in materials() {
        for ep in [false, true] {
            if ep && !(w.contains('P') && b.contains('P')) && !(w == "P" && b == "P") {
                // en passant needs a pawn on each side: only KPvKP-like materials
                if !(w.contains('P') && b.contains('P')) {
                    continue;
                }
            }
            let mut done = 0;
            let mut tries = 0;
            while done < per && tries < per * 200 {
                tries += 1;
                // With en passant the two pawns are placed by `random`; the rest at random.
                let (ww, bb) = if ep {
                    (w.replacen('P', "", 1), b.replacen('P', "", 1))
                } else {
                    (w.clone(), b.clone())
                };
                let (ww, bb) = if rng.below(2) == 0 {
                    (ww, bb)
                } else {
                    (bb, ww)
                };
                let Some(pos) = random(&mut rng, &ww, &bb, ep) else {
                    continue;
                };
                done += 1;
                *counts.entry(ep).or_default() += 1;
                let (o, n) = (old(&old_tb, &pos), new(&new_tb, &pos));
                if o == n {
                    same += 1;
                } else {
                    differ += 1;
                    if shown < 15 {
                        shown += 1;
                        eprintln!("DIFF {}\n  old {:?}\n  new {:?}", pos.fen(), o, n);
                    }
                }
            }
        }
    }
    eprintln!("oracle: {same} agree, {differ} differ ({counts:?} by en passant)");
    assert_eq!(differ, 0);
}

/// WDL probes per second, old and new, on one fixed list of positions (run with `--ignored`).
#[test]
#[ignore]
fn probe_speed() {
    use std::time::Instant;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/syzygy");
    let old_tb = TableBases::<Adapter>::new(dir).expect("old opens");
    let new_tb = Tablebases::open(dir).expect("new opens");
    let mut rng = Rng(12345);
    let mut list = Vec::new();
    for (w, b) in materials() {
        let mut n = 0;
        while n < 400 {
            let (w, b) = if rng.below(2) == 0 {
                (w.clone(), b.clone())
            } else {
                (b.clone(), w.clone())
            };
            if let Some(p) = random(&mut rng, &w, &b, false) {
                list.push(p);
                n += 1;
            }
        }
    }
    let bits: Vec<_> = list
        .iter()
        .map(|pos| {
            let kind = |k: PieceKind| pos.pieces(k).0;
            (
                pos.color_bb(Color::White).0,
                pos.color_bb(Color::Black).0,
                kind(PieceKind::King),
                kind(PieceKind::Queen),
                kind(PieceKind::Rook),
                kind(PieceKind::Bishop),
                kind(PieceKind::Knight),
                kind(PieceKind::Pawn),
                pos.side_to_move() == Color::White,
            )
        })
        .collect();
    // Warm both (files read, pages cached).
    for p in &list {
        let _ = new_tb.probe_wdl(p);
    }
    let (mut olds, mut news) = (Vec::new(), Vec::new());
    let rounds: usize = std::env::var("SPEED_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    for _ in 0..rounds {
        let t = Instant::now();
        let mut s = 0i64;
        for b in &bits {
            s += old_tb
                .probe_wdl(b.0, b.1, b.2, b.3, b.4, b.5, b.6, b.7, 0, b.8)
                .map_or(9, |w| signed(w) as i64);
        }
        olds.push(bits.len() as f64 / t.elapsed().as_secs_f64());
        let t = Instant::now();
        let mut s2 = 0i64;
        for p in &list {
            s2 += new_tb.probe_wdl(p).map_or(9, |w| w.signed() as i64);
        }
        news.push(list.len() as f64 / t.elapsed().as_secs_f64());
        assert_eq!(s, s2);
    }
    olds.sort_by(f64::total_cmp);
    news.sort_by(f64::total_cmp);
    eprintln!(
        "speed: {} positions; pyrrhic {:.0}/s, new {:.0}/s (medians of {rounds}), ratio new/old {:.2}; runs old {:?} new {:?}",
        list.len(), olds[rounds / 2], news[rounds / 2], news[rounds / 2] / olds[rounds / 2],
        olds.iter().map(|x| *x as u64).collect::<Vec<_>>(), news.iter().map(|x| *x as u64).collect::<Vec<_>>()
    );
}
