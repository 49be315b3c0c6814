//! Reading the GUI's input as bytes. A line that is not UTF-8 (a Windows GUI sends paths in
//! its code page), a NUL, a CRLF ending or a line of megabytes must never end the engine: a
//! GUI that waits for `readyok` or `bestmove` would hang, or lose on time.

use std::borrow::Cow;
use std::io::{self, BufRead};

/// The longest line the loop carries out, in bytes (without its line ending). A real command
/// is far shorter (a `position … moves` line of a 1,000-move game is about 5 KB); a longer
/// line is read to its end in constant memory and ignored with an `info string`, except a
/// `go`, which is carried out as far as its first `MAX_LINE` bytes go (a GUI waits for its
/// `bestmove`).
pub const MAX_LINE: usize = 1 << 20;

/// What [`read_line`] found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Read {
    /// End of input: nothing was left to read.
    End,
    /// A line (in the buffer, without its `\n`).
    Line,
    /// A line longer than the cap, of this many bytes; the buffer keeps its first `cap` bytes.
    TooLong(usize),
}

/// Reads one line into `line` (cleared first), without its `\n`. A line longer than `cap`
/// bytes is read to its end but only its first `cap` bytes are kept, so memory stays bounded by
/// `cap` and the time is linear in the line's length. A last line without `\n` is still a line.
pub(crate) fn read_line<R: BufRead>(
    input: &mut R,
    line: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Read> {
    line.clear();
    let mut len = 0usize;
    let mut read_any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        read_any = true;
        let newline = chunk.iter().position(|&b| b == b'\n');
        let part = &chunk[..newline.unwrap_or(chunk.len())];
        len += part.len();
        let room = cap.saturating_sub(line.len());
        line.extend_from_slice(&part[..part.len().min(room)]);
        let used = newline.map_or(chunk.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            break;
        }
    }
    Ok(match (read_any, len > cap) {
        (false, _) => Read::End,
        (true, false) => Read::Line,
        (true, true) => Read::TooLong(len),
    })
}

/// A line as the parser reads it: a trailing `\r` (CRLF endings) dropped, and NUL bytes read as
/// spaces (a GUI writing C strings may pad or end a command with one; no path can hold one).
pub(crate) fn clean(line: &[u8]) -> Cow<'_, [u8]> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.contains(&0) {
        let spaced = line
            .iter()
            .map(|&b| if b == 0 { b' ' } else { b })
            .collect();
        Cow::Owned(spaced)
    } else {
        Cow::Borrowed(line)
    }
}

/// `None` when `line` is UTF-8; otherwise the `info string` text saying it was read lossily.
pub(crate) fn lossy_note(line: &[u8]) -> Option<String> {
    let bad = std::str::from_utf8(line).err()?.valid_up_to();
    // A path keeps its bytes where the platform's paths are bytes (see `OptionValue`).
    let paths = if cfg!(unix) {
        "a file path keeps its bytes"
    } else {
        "a file path too"
    };
    Some(format!(
        "input is not UTF-8 from byte {bad}: read with U+FFFD for the bad bytes ({paths})"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line `read_line` gives for `input` with cap `cap`.
    fn lines(input: &[u8], cap: usize) -> Vec<(Read, Vec<u8>)> {
        let mut reader = io::BufReader::with_capacity(4, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            match read_line(&mut reader, &mut buf, cap) {
                Ok(Read::End) | Err(_) => return out,
                Ok(r) => out.push((r, buf.clone())),
            }
        }
    }

    #[test]
    fn lines_are_bytes_and_long_ones_are_skipped_whole() {
        let got = lines(b"ab\n\xe9\r\n123456789\nlast", 8);
        assert_eq!(
            got,
            [
                (Read::Line, b"ab".to_vec()),
                (Read::Line, b"\xe9\r".to_vec()),
                (Read::TooLong(9), b"12345678".to_vec()),
                (Read::Line, b"last".to_vec()),
            ]
        );
        assert_eq!(lines(b"", 8), []);
        assert_eq!(lines(b"\n", 8), [(Read::Line, vec![])]);
    }

    #[test]
    fn clean_drops_one_cr_and_spaces_nuls() {
        assert_eq!(&*clean(b"isready\r"), b"isready");
        assert_eq!(&*clean(b"\r"), b"");
        assert_eq!(&*clean(b"isready\0"), b"isready ");
        assert!(matches!(clean(b"go"), Cow::Borrowed(_)));
        assert_eq!(lossy_note(b"go"), None);
        assert!(lossy_note(b"ab\xe9").is_some_and(|n| n.contains("from byte 2")));
    }
}
