//! The parser's events and errors, token by token.

use super::*;

/// Writes down every event as a short string.
#[derive(Default)]
struct Log(Vec<String>);

impl Visitor for Log {
    type Output = Vec<String>;
    fn begin_game(&mut self, number: usize) {
        self.0.push(format!("game {number}"));
    }
    fn tag(&mut self, name: &str, value: &str, _at: Location) {
        self.0.push(format!("tag {name}={value}"));
    }
    fn san(&mut self, text: &str, at: Location) {
        self.0
            .push(format!("move {text}@{}:{}", at.line, at.column));
    }
    fn nag(&mut self, nag: u8, _at: Location) {
        self.0.push(format!("nag {nag}"));
    }
    fn comment(&mut self, text: &str, _at: Location) {
        self.0.push(format!("comment {text:?}"));
    }
    fn begin_variation(&mut self, _at: Location) {
        self.0.push("(".to_string());
    }
    fn end_variation(&mut self, _at: Location) {
        self.0.push(")".to_string());
    }
    fn result(&mut self, marker: &str, _at: Location) {
        self.0.push(format!("result {marker}"));
    }
    fn error(&mut self, error: SyntaxError) {
        self.0.push(format!("error {error}"));
    }
    fn end_game(&mut self) -> Vec<String> {
        std::mem::take(&mut self.0)
    }
}

/// Every game's events from `parser` to the end of its input.
fn read_all<R: std::io::BufRead>(mut parser: PgnParser<R>) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    while let Some(events) = parser
        .read_game(&mut Log::default())
        .expect("reading a slice")
    {
        out.push(events);
    }
    out
}

fn games(text: &str) -> Vec<Vec<String>> {
    read_all(PgnParser::new(text.as_bytes()))
}

#[test]
fn every_kind_of_token_in_order() {
    let text = "[Event \"a \\\"b\\\"\"]\n\n1. e4 $1 {c1} ; rest\n1... e5!? (1... c5 (1... e6) 2. Nf3) 2.Nf3 1-0\n";
    assert_eq!(
        games(text),
        [[
            "game 1",
            "tag Event=a \"b\"",
            "move e4@3:4",
            "nag 1",
            "comment \"c1\"",
            "comment \" rest\"",
            "move e5@4:6",
            "nag 5",
            "(",
            "move c5@4:17",
            "(",
            "move e6@4:26",
            ")",
            "move Nf3@4:33",
            ")",
            "move Nf3@4:40",
            "result 1-0",
        ]]
    );
}

#[test]
fn games_end_at_results_and_at_the_next_tags() {
    let text = "{file header}\n[A \"1\"]\n{c} [B \"2\"]\n1. e4\n[A \"3\"]\n1. d4 * {after} 1. c4";
    let read = games(text);
    assert_eq!(read.len(), 3);
    // The comment before the first tag belongs to no game; one among the tags does.
    assert_eq!(
        read[0][..4],
        ["game 1", "tag A=1", "comment \"c\"", "tag B=2"]
    );
    assert_eq!(read[1].last().map(String::as_str), Some("result *"));
    // A game without tags keeps the comment before its first move.
    assert_eq!(
        read[2][..3],
        ["game 3", "comment \"after\"", "move c4@6:20"]
    );
}

#[test]
fn comments_span_lines_and_keep_escape_like_lines() {
    let text = "1. e4 {one\n% not an escape\ntwo} e5 *\n% an escape line {\n";
    assert_eq!(
        games(text),
        [[
            "game 1",
            "move e4@1:4",
            "comment \"one\\n% not an escape\\ntwo\"",
            "move e5@3:6",
            "result *",
        ]]
    );
}

/// The errors of `text`, as text.
fn errors(text: &str) -> Vec<String> {
    games(text)
        .concat()
        .into_iter()
        .filter(|e| e.starts_with("error"))
        .collect()
}

#[test]
fn malformed_annotations_name_line_and_column() {
    let cases = [
        (
            "1. e4 {never closed\n\n",
            "error line 1, column 7: a comment opened here is never closed",
        ),
        (
            "1. e4 e5 ) *",
            "error line 1, column 10: a ) without a variation to close",
        ),
        (
            "1. e4\n  (1. d4 d5",
            "error line 2, column 3: a variation opened here is still open at the end of the game",
        ),
        ("1. e4 } *", "error line 1, column 7: a } outside a comment"),
        (
            "1. e4 $300 *",
            "error line 1, column 7: $300 is not a NAG ($0 to $255, !, ?, !!, ??, !? or ?!)",
        ),
        (
            "1. e4 $ *",
            "error line 1, column 7: $ is not a NAG ($0 to $255, !, ?, !!, ??, !? or ?!)",
        ),
        (
            "1. e4!!! *",
            "error line 1, column 6: !!! is not a NAG ($0 to $255, !, ?, !!, ??, !? or ?!)",
        ),
        (
            "1. e4 (1. d4 1-0) *",
            "error line 1, column 14: a result (1-0) inside a variation",
        ),
        (
            "[Event \"x]\n1. e4 *",
            "error line 1, column 1: not a tag pair: [Event \"x]",
        ),
        (
            "1. e4 {ok [%clk 0:03:00] [%eval} *",
            "error line 1, column 26: [%eval is not a comment command like [%clk 0:03:00]",
        ),
        (
            "1. e4 {a\nb [%] c} *",
            "error line 2, column 3: [%] c is not a comment command like [%clk 0:03:00]",
        ),
        (
            "1. é4 \" *",
            "error line 1, column 7: a \" outside a tag pair",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(errors(text), [expected], "{text:?}");
    }
}

#[test]
fn an_unclosed_variation_is_closed_for_the_visitor() {
    let read = games("1. e4 (1. d4 (1. c4 *");
    let opened = read[0].iter().filter(|e| *e == "(").count();
    let closed = read[0].iter().filter(|e| *e == ")").count();
    assert_eq!((opened, closed), (2, 2), "{:?}", read[0]);
}

#[test]
fn only_comments_make_no_game() {
    assert!(games("{nothing} $1 ; here\n\n").is_empty());
    assert!(games("").is_empty());
    // A malformed comment is worth reporting: it starts a game.
    assert_eq!(games("{[%clk}").len(), 1);
}

#[test]
fn clock_and_eval_commands() {
    let found: Vec<_> = comment_commands("[%clk 0:03:00][%eval #-3] [%bad").collect();
    assert_eq!(found, [("clk", "0:03:00"), ("eval", "#-3")]);
}

#[test]
fn latin1_bytes_and_a_byte_order_mark_are_read() {
    let mut bytes = b"\xef\xbb\xbf[White \"Caf\xe9\"]\n1. e4 *\n".to_vec();
    let mut parser = PgnParser::new(bytes.as_slice());
    let events = parser
        .read_game(&mut Log::default())
        .expect("slice")
        .expect("a game");
    assert_eq!(events[1], "tag White=Caf\u{fffd}");
    bytes.clear();
}

/// The one-pass scan of a `{` comment agrees with the full check: same end, and clean exactly
/// when `command_errors` finds nothing, and spanning lines when it holds a line break, for
/// every text of up to 6 characters over the characters that matter (and the commands of exported
/// games), and for 100,000 random texts of up to 40 characters, mostly ordinary ones as in real
/// comments.
#[test]
fn comment_scan_agrees_with_the_command_check() {
    let alphabet = [b'[', b'%', b']', b'}', b'a', b'\n', b'_', b'0'];
    let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
    let mut level = vec![Vec::new()];
    for _ in 0..6 {
        level = level
            .iter()
            .flat_map(|t: &Vec<u8>| {
                alphabet.iter().map(move |&c| {
                    let mut t = t.clone();
                    t.push(c);
                    t
                })
            })
            .collect();
        texts.extend(level.iter().cloned());
    }
    for extra in [
        "[%clk 0:03:00] [%eval 0.17]} e5",
        "[%clk 0:03:00] [%eval 0.17 } e5",
        "[%clk 0:03:00 [%eval 0.17]}",
        "[% clk 0:03:00]}",
        "ok [%csl Ga4,Rb5][%cal Ge2e4] fine}",
        "no end [%clk 0:01:00]",
        "[%clk\n0:01:00] two\nlines}",
    ] {
        texts.push(extra.as_bytes().to_vec());
    }
    // Longer texts, where commands and line breaks fall after ordinary characters.
    let alphabet = [b'[', b'%', b']', b'}', b'{', b'\n', b'\r', b'_', b'0', b' '];
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    for _ in 0..100_000 {
        seed = crate::core::zobrist::mix64(seed);
        let len = (seed % 40) as usize;
        let text: Vec<u8> = (0..len)
            .map(|k| {
                let pick = crate::core::zobrist::mix64(seed ^ k as u64);
                // Mostly ordinary bytes, as in real comments.
                if pick % 4 == 0 {
                    alphabet[(pick >> 8) as usize % alphabet.len()]
                } else {
                    b'a'
                }
            })
            .collect();
        texts.push(text);
    }
    let at = Location { line: 1, column: 1 };
    for bytes in &texts {
        let text = std::str::from_utf8(bytes).unwrap();
        let Scan { end, clean, lines } = scan_comment(bytes);
        assert_eq!(end, text.find('}'), "{text:?}");
        let checked = &text[..end.unwrap_or(text.len())];
        assert_eq!(
            clean,
            command_errors(checked, at).next().is_none(),
            "{text:?}"
        );
        assert_eq!(lines, checked.contains('\n'), "{text:?}");
    }
    assert!(texts.len() > 350_000);
}

/// Every event of `bytes` read through a `BufReader` of `capacity` bytes.
fn games_through(bytes: &[u8], capacity: usize) -> Vec<Vec<String>> {
    read_all(PgnParser::new(std::io::BufReader::with_capacity(
        capacity, bytes,
    )))
}

#[test]
fn blocks_of_lines_read_the_same_whatever_the_input_hands_over() {
    // Lines longer than a block, comments over several lines, CRLF, an escape line, Latin-1,
    // a byte-order mark and no final line break, read from a slice (one block of up to 64 KB
    // at a time) and through buffers that cut lines and characters anywhere.
    let long = format!("1. e4 {{{}}} e5 *\n", "x".repeat(3 * BLOCK / 2));
    let mut text = b"\xef\xbb\xbf[White \"Caf\xe9\"]\r\n\r\n1. e4 {multi\nline\r\n[%clk 0:01:00]} e5\n% escape\n2. Nf3 {\xc3\xa9t\xc3\xa9} *\n".to_vec();
    text.extend_from_slice(long.as_bytes());
    for n in 0..3000 {
        text.extend_from_slice(
            format!("[Round \"{n}\"]\n1. d4 {{[%eval 0.{n}]}} d5 1/2-1/2\n").as_bytes(),
        );
    }
    text.extend_from_slice(b"1. c4 (1. Nf3 ; open\n");
    let whole = games_through(&text, text.len());
    assert_eq!(whole.len(), 3003);
    assert_eq!(whole[0][1], "tag White=Caf\u{fffd}");
    assert!(whole[0].contains(&"comment \"multi\\nline\\n[%clk 0:01:00]\"".to_string()));
    assert!(
        whole[0].contains(&"comment \"été\"".to_string()),
        "{:?}",
        whole[0]
    );
    assert_eq!(whole[3002].last().map(String::as_str), Some(")"));
    assert_eq!(read_all(PgnParser::new(text.as_slice())), whole);
    for capacity in [1, 2, 3, 7, 64, 1000] {
        assert_eq!(games_through(&text, capacity), whole, "capacity {capacity}");
    }
}
