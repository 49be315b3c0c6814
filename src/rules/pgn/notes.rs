//! What a PGN game says besides its moves: comments, NAGs and variations ([`Notes`]), and how
//! they are written back into movetext.

use crate::core::{Color, Position};

/// The annotations at one point of the movetext: after a move, or before the first move of
/// a game or a variation.
///
/// ```
/// use ferrum::rules::read_pgn;
/// let text = "1. e4 $1 {[%clk 0:03:00]} (1. d4 d5) e5 *\n";
/// let game = read_pgn(text).remove(0).unwrap();
/// let after_e4 = &game.notes[1];
/// assert_eq!(after_e4.nags, [1]);
/// assert_eq!(after_e4.comments, ["[%clk 0:03:00]"]);
/// assert_eq!(after_e4.variations[0].moves[1].san, "d5");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// Numeric Annotation Glyphs (`$1`, or `!` read as 1), in order.
    pub nags: Vec<u8>,
    /// Comments, in order, as written between the braces (or after `;`).
    pub comments: Vec<String>,
    /// Variations: alternatives to the move these notes follow (in a game's or a variation's
    /// opening notes, alternatives from that point).
    pub variations: Vec<Variation>,
}

impl Notes {
    /// True when there is nothing to write.
    pub fn is_empty(&self) -> bool {
        self.nags.is_empty() && self.comments.is_empty() && self.variations.is_empty()
    }
}

/// A variation: moves as written (not checked against the rules: a variation with a move that
/// is not legal is kept as it is), each with its own notes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variation {
    /// The notes before the variation's first move.
    pub intro: Notes,
    /// The moves, in order.
    pub moves: Vec<VariationMove>,
}

/// A move of a [`Variation`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VariationMove {
    /// The move as written, without its number and `!`/`?` marks.
    pub san: String,
    /// The notes after it.
    pub notes: Notes,
}

/// Writes movetext as words, numbering moves from a starting position.
pub(super) struct Words {
    pub(super) words: Vec<String>,
    /// The half-move count of the starting position (0 when White moves in move 1).
    base: usize,
    /// Black's next move needs its number (after a comment or a variation).
    number_black: bool,
}

impl Words {
    pub(super) fn new(start: &Position, capacity: usize) -> Words {
        let black = usize::from(start.side_to_move() == Color::Black);
        Words {
            words: Vec::with_capacity(capacity),
            base: 2 * (usize::from(start.fullmove_number()).max(1) - 1) + black,
            number_black: true,
        }
    }

    /// The move played at ply `ply` (counted from the game's start), with its number when it
    /// needs one.
    pub(super) fn push_move(&mut self, ply: usize, san: &str) {
        let half = self.base + ply;
        let number = half / 2 + 1;
        // A variation's move may be any word; one starting with `%` must not start a line,
        // where it would be an escape line.
        let word = if half % 2 == 0 {
            format!("{number}. {san}")
        } else if self.number_black || san.starts_with('%') {
            format!("{number}... {san}")
        } else {
            san.to_string()
        };
        self.words.push(word);
        self.number_black = false;
    }

    /// The notes following ply `ply` (the variations in them replace that move, so they start
    /// at the ply before; `ply` 0 is before any move).
    pub(super) fn push_notes(&mut self, notes: &Notes, ply: usize) {
        for nag in &notes.nags {
            self.words.push(format!("${nag}"));
        }
        for text in &notes.comments {
            self.push_comment(text);
        }
        for variation in &notes.variations {
            self.push_variation(variation, ply.saturating_sub(1));
        }
    }

    /// A comment in braces. PGN cannot hold a `}` inside braces: such a comment is written
    /// after `;` when it has no line break (it then reads back the same), else without its `}`.
    pub(super) fn push_comment(&mut self, text: &str) {
        let word = match (text.contains('}'), text.contains('\n')) {
            (false, _) => format!("{{{text}}}"),
            (true, false) => format!(";{text}\n"),
            (true, true) => format!("{{{}}}", text.replace('}', "")),
        };
        self.words.push(word);
        self.number_black = true;
    }

    fn push_variation(&mut self, variation: &Variation, start: usize) {
        let first = self.words.len();
        self.number_black = true;
        self.push_notes(&variation.intro, start);
        for (i, m) in variation.moves.iter().enumerate() {
            self.push_move(start + i, &m.san);
            self.push_notes(&m.notes, start + i + 1);
        }
        match self.words.get_mut(first..) {
            Some([only]) => *only = format!("({only})"),
            Some([first, .., last]) => {
                first.insert(0, '(');
                last.push(')');
            }
            _ => self.words.push("()".to_string()),
        }
        self.number_black = true;
    }

    /// The words joined into lines of at most 79 characters where the words allow; a `;`
    /// comment ends its line.
    pub(super) fn write_into(self, out: &mut String) {
        let mut line_len = 0;
        for w in self.words {
            if line_len > 0 && line_len + 1 + w.len() > 79 {
                out.push('\n');
                line_len = 0;
            } else if line_len > 0 {
                out.push(' ');
                line_len += 1;
            }
            out.push_str(&w);
            // After a `;` comment the line has ended.
            line_len = match w.rfind('\n') {
                Some(nl) => w.len() - nl - 1,
                None => line_len + w.len(),
            };
        }
    }
}
