//! Which positions of a self-play game are trained on. The data keeps every move; the choice
//! is made here, when the data is read, so one data set serves every experiment.

use crate::core::Position;

use super::datagen::is_quiet;
use super::gamefile::GameRecord;

/// The rules that pick training positions from a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Filter {
    /// Skip the first plies of each game (still close to the random opening).
    pub skip_plies: usize,
    /// Skip positions whose score is further than this from 0 (decided positions and mates).
    pub max_score: i32,
    /// Skip positions in check and those whose best move is a capture or a promotion.
    pub quiet_best_move: bool,
    /// Also skip positions with a capture that wins material by static exchange (stricter,
    /// slower: it generates the captures).
    pub no_winning_capture: bool,
}

impl Default for Filter {
    fn default() -> Self {
        Filter {
            skip_plies: 8,
            max_score: 3_000,
            quiet_best_move: true,
            no_winning_capture: false,
        }
    }
}

/// One training position: the position, the search score and the result, both from the side
/// to move's view.
#[derive(Clone, Debug)]
pub struct TrainingPosition {
    /// The position.
    pub pos: Position,
    /// The search score in centipawns, side to move's view.
    pub score: i32,
    /// The game's result for the side to move: 1.0, 0.5 or 0.0.
    pub result: f32,
}

impl Filter {
    /// The positions of `game` that pass the filter, in game order.
    pub fn positions<'a>(
        &'a self,
        game: &'a GameRecord,
    ) -> impl Iterator<Item = TrainingPosition> + 'a {
        game.positions()
            .enumerate()
            .filter(move |(ply, (pos, m))| {
                let score = i32::from(m.score);
                *ply >= self.skip_plies
                    && score.abs() <= self.max_score
                    && !(self.quiet_best_move && (pos.in_check() || pos.is_tactical(m.mv)))
                    && (!self.no_winning_capture || is_quiet(pos))
            })
            .map(|(_, (pos, m))| TrainingPosition {
                result: game.result.score_for(pos.side_to_move()),
                score: i32::from(m.score),
                pos,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::gamefile::{RecordResult, ScoredMove, Termination};

    #[test]
    fn the_filter_drops_openings_checks_captures_and_big_scores() {
        let start = Position::startpos();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        // 1. e4 d5 2. exd5 Qxd5 3. Nc3 Qe5+ 4. Be2 a6: ply 2 and 3 are captures, ply 6 is in check.
        let line = [
            "e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5e5", "f1e2", "a7a6",
        ];
        for (i, m) in line.iter().enumerate() {
            let mv = pos.parse_uci(m).expect("move");
            pos.make(mv);
            let score = if i == 7 { 5_000 } else { 20 };
            moves.push(ScoredMove { mv, score });
        }
        let game = GameRecord {
            start,
            moves,
            result: RecordResult::WhiteWins,
            termination: Termination::Rules,
        };
        let f = Filter {
            skip_plies: 1,
            ..Filter::default()
        };
        let kept: Vec<TrainingPosition> = f.positions(&game).collect();
        let fens: Vec<String> = kept.iter().map(|t| t.pos.fen()).collect();
        // Kept: plies 1 (d5), 4 (Nc3), 5 (Qe5+). Dropped: 0 (opening), 2, 3 (captures),
        // 6 (in check), 7 (score beyond the bound).
        assert_eq!(kept.len(), 3, "{fens:?}");
        assert_eq!(kept[0].result, 0.0, "Black to move in a game White won");
        assert_eq!(kept[1].result, 1.0);
        let all = Filter {
            skip_plies: 0,
            max_score: i32::MAX,
            quiet_best_move: false,
            no_winning_capture: false,
        };
        assert_eq!(all.positions(&game).count(), 8);
    }
}
