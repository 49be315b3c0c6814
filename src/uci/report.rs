//! How search progress and results are written as UCI `info` and `bestmove` lines.

use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::eval::wdl::wdl;
use crate::search::{Bound, Info, Reporter, Score, SearchResult};

/// The `info …` line for a search report; castling in the notation `chess960` asks for.
///
/// ```
/// use ferrum::core::Position;
/// use ferrum::search::{Info, PvInfo, Score};
/// use ferrum::uci::info_line;
/// let pos = Position::startpos();
/// let info = Info::Pv(PvInfo {
///     depth: 3, seldepth: 5, multipv: 1, score: Score::Cp(21), bound: None, nodes: 900,
///     nps: 90_000, hashfull: 2, tbhits: Some(4), time_ms: 10, pv: vec![pos.parse_uci("e2e4").unwrap()],
/// });
/// assert_eq!(
///     info_line(&info, false),
///     "info depth 3 seldepth 5 multipv 1 score cp 21 nodes 900 nps 90000 hashfull 2 tbhits 4 time 10 pv e2e4"
/// );
/// ```
pub fn info_line(info: &Info, chess960: bool) -> String {
    info_line_wdl(info, chess960, None)
}

/// The win/draw/loss chances (per mille) of a score, for material `material` (see
/// [`crate::eval::wdl`]): a mate is a sure result.
pub fn score_wdl(score: Score, material: i32) -> [u32; 3] {
    match score {
        Score::Cp(c) => wdl(c, material),
        Score::Mate(m) if m > 0 => [1000, 0, 0],
        Score::Mate(_) => [0, 0, 1000],
    }
}

/// [`info_line`] with `wdl W D L` after the score when `wdl_material` is given (`UCI_ShowWDL`;
/// the material of the searched position).
///
/// ```
/// use ferrum::core::Position;
/// use ferrum::search::{Info, PvInfo, Score};
/// use ferrum::uci::info_line_wdl;
/// let pos = Position::startpos();
/// let info = Info::Pv(PvInfo {
///     depth: 1, seldepth: 1, multipv: 1, score: Score::Mate(2), bound: None, nodes: 9,
///     nps: 9, hashfull: 0, tbhits: None, time_ms: 1, pv: vec![pos.parse_uci("e2e4").unwrap()],
/// });
/// let line = info_line_wdl(&info, false, Some(78));
/// assert!(line.contains(" score mate 2 wdl 1000 0 0 nodes 9 "), "{line}");
/// ```
pub fn info_line_wdl(info: &Info, chess960: bool, wdl_material: Option<i32>) -> String {
    match info {
        Info::Pv(p) => {
            let mut score = match p.score {
                Score::Cp(c) => format!("cp {c}"),
                Score::Mate(m) => format!("mate {m}"),
            };
            if let Some(material) = wdl_material {
                let [w, d, l] = score_wdl(p.score, material);
                score.push_str(&format!(" wdl {w} {d} {l}"));
            }
            let bound = match p.bound {
                Some(Bound::Lower) => " lowerbound",
                Some(Bound::Upper) => " upperbound",
                _ => "",
            };
            let pv: Vec<String> = p.pv.iter().map(|m| m.to_uci(chess960)).collect();
            // Only a search with tablebases counts their hits.
            let tbhits = p.tbhits.map(|n| format!(" tbhits {n}")).unwrap_or_default();
            format!(
                "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {} hashfull {}{tbhits} time {} pv {}",
                p.depth,
                p.seldepth,
                p.multipv,
                p.nodes,
                p.nps,
                p.hashfull,
                p.time_ms,
                pv.join(" ")
            )
        }
        Info::CurrMove { depth, mv, number } => format!(
            "info depth {depth} currmove {} currmovenumber {number}",
            mv.to_uci(chess960)
        ),
    }
}

/// The lines that end a search: `bestmove m [ponder p]`, or for a position with no legal move
/// an `info` line with its score and `bestmove 0000`.
pub fn bestmove_lines(r: &SearchResult) -> Vec<String> {
    match r.best {
        Some(best) => {
            let mut line = format!("bestmove {}", best.to_uci(r.chess960));
            if let Some(p) = r.ponder {
                line.push_str(&format!(" ponder {}", p.to_uci(r.chess960)));
            }
            vec![line]
        }
        None => {
            let score = match Score::from_internal(r.score) {
                Score::Mate(m) => format!("mate {m}"),
                Score::Cp(c) => format!("cp {c}"),
            };
            vec![
                format!("info depth 0 score {score}"),
                "bestmove 0000".to_string(),
            ]
        }
    }
}

/// Writes lines to the shared output, one flush per batch. A closed output means the GUI has
/// gone: nobody is left to tell, so write errors are ignored.
pub fn write_lines<W: Write>(out: &Mutex<W>, lines: &[String]) {
    if let Ok(mut w) = out.lock() {
        for l in lines {
            let _ = writeln!(w, "{l}");
        }
        let _ = w.flush();
    }
}

/// The [`Reporter`] of a UCI session: formats and writes to the shared output.
pub struct UciReporter<W: Write + Send> {
    out: Arc<Mutex<W>>,
    chess960: bool,
    wdl_material: Option<i32>,
}

impl<W: Write + Send> UciReporter<W> {
    /// A reporter writing to `out`, castling as `chess960` asks.
    pub fn new(out: Arc<Mutex<W>>, chess960: bool) -> UciReporter<W> {
        UciReporter {
            out,
            chess960,
            wdl_material: None,
        }
    }

    /// Adds `wdl` to every line with a score, for a searched position of `material`
    /// ([`crate::eval::wdl::material`]).
    pub fn with_wdl(mut self, material: i32) -> UciReporter<W> {
        self.wdl_material = Some(material);
        self
    }
}

impl<W: Write + Send> Reporter for UciReporter<W> {
    fn info(&self, info: &Info) {
        let line = info_line_wdl(info, self.chess960, self.wdl_material);
        write_lines(&self.out, &[line]);
    }

    fn best_move(&self, result: &SearchResult) {
        let mut lines = bestmove_lines(result);
        // With no legal move the result is exact: mated (a loss) or stalemate (a draw).
        if let (None, Some(first)) = (result.best, self.wdl_material.and(lines.first_mut())) {
            let exact = if result.score < 0 {
                "0 0 1000"
            } else {
                "0 1000 0"
            };
            first.push_str(&format!(" wdl {exact}"));
        }
        write_lines(&self.out, &lines);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Move, MoveKind, Position, Square};
    use crate::search::{PvInfo, MATE};

    #[test]
    fn bounds_mates_and_castling_notation() {
        let castle = Move::new(Square::E1, Square::H1, MoveKind::Castle);
        let info = Info::Pv(PvInfo {
            depth: 9,
            seldepth: 12,
            multipv: 2,
            score: Score::Mate(-3),
            bound: Some(Bound::Upper),
            nodes: 1,
            nps: 2,
            hashfull: 3,
            tbhits: None,
            time_ms: 4,
            pv: vec![castle],
        });
        assert_eq!(
            info_line(&info, true),
            "info depth 9 seldepth 12 multipv 2 score mate -3 upperbound nodes 1 nps 2 hashfull 3 time 4 pv e1h1"
        );
        assert!(info_line(&info, false).ends_with("pv e1g1"));
        let cur = Info::CurrMove {
            depth: 20,
            mv: castle,
            number: 7,
        };
        assert_eq!(
            info_line(&cur, false),
            "info depth 20 currmove e1g1 currmovenumber 7"
        );
    }

    #[test]
    fn bestmove_with_and_without_moves() {
        let pos = Position::startpos();
        let e4 = pos.parse_uci("e2e4").expect("legal");
        let mut r = SearchResult {
            best: Some(e4),
            ponder: None,
            score: 0,
            depth: 1,
            nodes: 1,
            chess960: false,
        };
        assert_eq!(bestmove_lines(&r), vec!["bestmove e2e4".to_string()]);
        r.ponder = Some(Move::new(Square::E7, Square::E5, MoveKind::Normal));
        assert_eq!(
            bestmove_lines(&r),
            vec!["bestmove e2e4 ponder e7e5".to_string()]
        );
        r.best = None;
        r.score = -MATE;
        assert_eq!(
            bestmove_lines(&r),
            vec![
                "info depth 0 score mate 0".to_string(),
                "bestmove 0000".to_string()
            ]
        );
    }
}
