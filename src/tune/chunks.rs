//! Data sets on disk: a directory of chunk files of whole games ([`super::gamefile`]).
//!
//! A chunk being written is `chunk-NNNNNN.part`; it is flushed after every game and renamed
//! `chunk-NNNNNN.bin` once it holds its quota of games, so a `.bin` is complete at every moment.
//! A run that is stopped leaves a `.part` whose last game may be cut short: the next run
//! ([`ChunkWriter::open`]) cuts it back to its last whole game and renames it, so a stop loses
//! only the games in flight, and new chunks are numbered after the existing ones.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::gamefile::{
    chunk_header, parse_chunk_header, ChunkHeader, DecodeError, GameRecord, CHUNK_HEADER_BYTES,
};

/// What went wrong with a data file.
#[derive(Debug)]
pub enum ChunkErrorKind {
    /// The file could not be read or written.
    Io(io::Error),
    /// The file does not start with a chunk header.
    NotAChunk,
    /// A game could not be decoded.
    Decode(DecodeError),
    /// The directory already holds games of this run's seed (in the file of the error). A
    /// run's games are fixed by its seed and their index, so a second run with the seed would
    /// repeat the first one's games from the start.
    SeedInUse(u64),
}

/// An error in a data file, naming the file and the byte offset where it was found.
#[derive(Debug)]
pub struct ChunkError {
    /// The file.
    pub path: PathBuf,
    /// The byte offset in the file (0 for errors about the whole file).
    pub offset: u64,
    /// What is wrong.
    pub kind: ChunkErrorKind,
}

impl ChunkError {
    fn io(path: &Path, e: io::Error) -> ChunkError {
        ChunkError {
            path: path.to_path_buf(),
            offset: 0,
            kind: ChunkErrorKind::Io(e),
        }
    }
}

impl fmt::Display for ChunkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.kind {
            ChunkErrorKind::Io(e) => write!(f, "{path}: {e}"),
            ChunkErrorKind::NotAChunk => write!(f, "{path}: not a Ferrum game chunk (bad header)"),
            ChunkErrorKind::Decode(e) => write!(f, "{path}: at byte {}: {e}", self.offset),
            ChunkErrorKind::SeedInUse(seed) => write!(
                f,
                "{path}: already holds games of seed {seed}; a run's games are fixed by its seed, \
                 so this run would repeat them: give the new run a seed of its own"
            ),
        }
    }
}

// No `source`: the message already ends with the cause (the OS error, the decoding error), and
// a report that also walks the chain (anyhow's `{:#}`) would print it twice.
impl std::error::Error for ChunkError {}

/// The games of one chunk, and the error that ended the reading early, if any.
#[derive(Debug)]
pub struct ChunkRead {
    /// The chunk's header.
    pub header: Option<ChunkHeader>,
    /// The games read, in file order.
    pub games: Vec<GameRecord>,
    /// Bytes of the file taken by the header and the whole games.
    pub good_bytes: u64,
    /// Why reading stopped before the end of the file.
    pub error: Option<ChunkError>,
}

/// Decodes a chunk's bytes. A `.part` chunk may end inside a game (the game in flight), which
/// is not an error when `partial` is set.
pub fn decode_chunk(path: &Path, bytes: &[u8], partial: bool) -> ChunkRead {
    let Some(header) = parse_chunk_header(bytes) else {
        let error = (!partial || bytes.len() >= CHUNK_HEADER_BYTES).then(|| ChunkError {
            path: path.to_path_buf(),
            offset: 0,
            kind: ChunkErrorKind::NotAChunk,
        });
        return ChunkRead {
            header: None,
            games: Vec::new(),
            good_bytes: 0,
            error,
        };
    };
    let mut at = CHUNK_HEADER_BYTES;
    let mut games = Vec::new();
    let mut error = None;
    while at < bytes.len() {
        match GameRecord::decode(&bytes[at..]) {
            Ok((g, used)) => {
                games.push(g);
                at += used;
            }
            Err(DecodeError::Truncated { .. }) if partial => break,
            Err(e) => {
                error = Some(ChunkError {
                    path: path.to_path_buf(),
                    offset: at as u64,
                    kind: ChunkErrorKind::Decode(e),
                });
                break;
            }
        }
    }
    ChunkRead {
        header: Some(header),
        games,
        good_bytes: at as u64,
        error,
    }
}

/// Reads one chunk file (`.bin`, or `.part` for a chunk still being written).
pub fn read_chunk(path: &Path) -> ChunkRead {
    match fs::read(path) {
        Ok(bytes) => decode_chunk(path, &bytes, is_part(path)),
        Err(e) => ChunkRead {
            header: None,
            games: Vec::new(),
            good_bytes: 0,
            error: Some(ChunkError::io(path, e)),
        },
    }
}

fn is_part(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "part")
}

/// The chunk number of a file named `chunk-NNNNNN.bin` or `.part`.
pub fn chunk_number(path: &Path) -> Option<u64> {
    let stem = path.file_stem()?.to_str()?;
    let ext = path.extension()?.to_str()?;
    if ext != "bin" && ext != "part" {
        return None;
    }
    stem.strip_prefix("chunk-")?.parse().ok()
}

/// The chunk files of a data set directory, in chunk order (`.part` files included when
/// `with_parts`).
pub fn chunk_files(dir: &Path, with_parts: bool) -> Result<Vec<PathBuf>, ChunkError> {
    let mut files: Vec<(u64, PathBuf)> = fs::read_dir(dir)
        .map_err(|e| ChunkError::io(dir, e))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| with_parts || !is_part(p))
        .filter_map(|p| chunk_number(&p).map(|n| (n, p)))
        .collect();
    files.sort();
    Ok(files.into_iter().map(|(_, p)| p).collect())
}

/// What [`ChunkWriter::open`] did with the chunks a stopped run left behind.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Salvage {
    /// `.part` chunks cut back to their last whole game and renamed `.bin`.
    pub chunks: usize,
    /// Games kept from them.
    pub games: usize,
    /// Bytes cut off (the games that were in flight).
    pub bytes_dropped: u64,
}

/// Cuts a `.part` chunk back to its last whole game and renames it `.bin` (or removes it when
/// no whole game is left).
fn salvage_part(path: &Path, out: &mut Salvage) -> Result<(), ChunkError> {
    let bytes = fs::read(path).map_err(|e| ChunkError::io(path, e))?;
    let read = decode_chunk(path, &bytes, true);
    if read.games.is_empty() {
        fs::remove_file(path).map_err(|e| ChunkError::io(path, e))?;
        out.bytes_dropped += bytes.len() as u64;
        return Ok(());
    }
    let file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| ChunkError::io(path, e))?;
    file.set_len(read.good_bytes)
        .and_then(|_| file.sync_all())
        .map_err(|e| ChunkError::io(path, e))?;
    fs::rename(path, path.with_extension("bin")).map_err(|e| ChunkError::io(path, e))?;
    out.chunks += 1;
    out.games += read.games.len();
    out.bytes_dropped += bytes.len() as u64 - read.good_bytes;
    Ok(())
}

/// The error for the first chunk of `dir` (`.part` files included) whose header names `seed`.
fn refuse_a_used_seed(dir: &Path, seed: u64) -> Result<(), ChunkError> {
    for path in chunk_files(dir, true)? {
        let mut header = [0u8; CHUNK_HEADER_BYTES];
        let read = File::open(&path).and_then(|mut f| io::Read::read_exact(&mut f, &mut header));
        // A file too short for a header holds no games (a `.part` just created, or damage).
        if read.is_ok() && parse_chunk_header(&header).is_some_and(|h| h.seed == seed) {
            return Err(ChunkError {
                path,
                offset: 0,
                kind: ChunkErrorKind::SeedInUse(seed),
            });
        }
    }
    Ok(())
}

/// Writes games into numbered chunk files of a data set directory.
pub struct ChunkWriter {
    dir: PathBuf,
    header: [u8; CHUNK_HEADER_BYTES],
    games_per_chunk: usize,
    next_number: u64,
    current: Option<(File, PathBuf, usize)>,
    buf: Vec<u8>,
}

impl ChunkWriter {
    /// Opens (creating it if needed) the data set directory `dir` for a run with `seed` and
    /// `soft_nodes`, salvaging what a stopped run left there. Refuses, touching nothing, when a
    /// chunk there already holds games of `seed` ([`ChunkErrorKind::SeedInUse`]).
    pub fn open(
        dir: &Path,
        seed: u64,
        soft_nodes: u32,
        games_per_chunk: usize,
    ) -> Result<(ChunkWriter, Salvage), ChunkError> {
        fs::create_dir_all(dir).map_err(|e| ChunkError::io(dir, e))?;
        refuse_a_used_seed(dir, seed)?;
        let mut salvage = Salvage::default();
        for path in chunk_files(dir, true)? {
            if is_part(&path) {
                salvage_part(&path, &mut salvage)?;
            }
        }
        let next_number = chunk_files(dir, false)?
            .iter()
            .filter_map(|p| chunk_number(p))
            .max()
            .map_or(0, |n| n + 1);
        let writer = ChunkWriter {
            dir: dir.to_path_buf(),
            header: chunk_header(seed, soft_nodes),
            games_per_chunk: games_per_chunk.max(1),
            next_number,
            current: None,
            buf: Vec::new(),
        };
        Ok((writer, salvage))
    }

    /// Appends a game to the current chunk (starting one if needed) and flushes it; closes the
    /// chunk once it is full.
    pub fn write(&mut self, game: &GameRecord) -> Result<(), ChunkError> {
        if self.current.is_none() {
            let path = self.dir.join(format!("chunk-{:06}.part", self.next_number));
            self.next_number += 1;
            let mut file = OpenOptions::new()
                .create_new(true)
                .write(true)
                .open(&path)
                .map_err(|e| ChunkError::io(&path, e))?;
            file.write_all(&self.header)
                .map_err(|e| ChunkError::io(&path, e))?;
            self.current = Some((file, path, 0));
        }
        self.buf.clear();
        game.encode(&mut self.buf);
        let full = match &mut self.current {
            Some((file, path, count)) => {
                file.write_all(&self.buf)
                    .and_then(|_| file.flush())
                    .map_err(|e| ChunkError::io(path, e))?;
                *count += 1;
                *count >= self.games_per_chunk
            }
            None => false,
        };
        if full {
            self.finish()?;
        }
        Ok(())
    }

    /// Closes the current chunk: it becomes a `.bin` file.
    pub fn finish(&mut self) -> Result<(), ChunkError> {
        if let Some((file, path, _)) = self.current.take() {
            file.sync_all().map_err(|e| ChunkError::io(&path, e))?;
            drop(file);
            fs::rename(&path, path.with_extension("bin")).map_err(|e| ChunkError::io(&path, e))?;
        }
        Ok(())
    }

    /// Chunks this writer has started so far, and the next chunk's number.
    pub fn next_number(&self) -> u64 {
        self.next_number
    }
}

/// A digest of a set of games that does not depend on their order: FNV-1a (64-bit) of each
/// game's bytes ([`game_hash`]), sorted, then FNV-1a of that list ([`set_digest`]).
///
/// A run's games are fixed by its seed and their index, but which chunk a game lands in, and
/// where, follows the order games finish in, so a regenerated chunk can hold the same games
/// in another order and hash differently with `sha256sum`. This digest is what to compare.
pub fn games_digest(games: &[GameRecord]) -> u64 {
    set_digest(games.iter().map(game_hash).collect())
}

/// FNV-1a (64-bit) of one game's bytes: the element of [`games_digest`].
pub fn game_hash(game: &GameRecord) -> u64 {
    let mut bytes = Vec::new();
    game.encode(&mut bytes);
    fnv64(&bytes)
}

/// The digest of a set of games from their [`game_hash`]es, in any order: a whole data set's
/// digest needs only its games' hashes, not the games.
pub fn set_digest(mut hashes: Vec<u64>) -> u64 {
    hashes.sort_unstable();
    let list: Vec<u8> = hashes.iter().flat_map(|h| h.to_le_bytes()).collect();
    fnv64(&list)
}

/// FNV-1a, 64-bit.
fn fnv64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl Drop for ChunkWriter {
    fn drop(&mut self) {
        // A chunk cut short by the end of the run is complete: close it.
        let _ = self.finish();
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::core::Position;
    use crate::tune::gamefile::{RecordResult, ScoredMove, Termination};

    /// A drawn game from the start position with these moves, each scored 10 cp.
    pub(crate) fn game(moves: &[&str]) -> GameRecord {
        let start = Position::startpos();
        let mut pos = start.clone();
        let mut scored = Vec::new();
        for m in moves {
            let mv = pos.parse_uci(m).expect("move");
            pos.make(mv);
            scored.push(ScoredMove { mv, score: 10 });
        }
        GameRecord {
            start,
            moves: scored,
            result: RecordResult::Draw,
            termination: Termination::Rules,
        }
    }

    /// An empty directory of its own under the system's temporary directory.
    pub(crate) fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ferrum-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn the_games_digest_ignores_order_and_sees_any_change() {
        let a = game(&["e2e4", "e7e5"]);
        let b = game(&["d2d4"]);
        let c = game(&["d2d4", "d7d5"]);
        let ab = games_digest(&[a.clone(), b.clone()]);
        assert_eq!(ab, games_digest(&[b.clone(), a.clone()]));
        assert_ne!(ab, games_digest(&[a.clone(), c]));
        assert_ne!(ab, games_digest(std::slice::from_ref(&a)));
        let mut rescored = b.clone();
        rescored.moves[0].score = 11;
        assert_ne!(ab, games_digest(&[a, rescored]));
    }

    #[test]
    fn chunks_close_when_full_and_a_stopped_run_is_salvaged() {
        let dir = temp_dir("chunks");
        let (mut w, salvage) = ChunkWriter::open(&dir, 1, 5000, 2).expect("open");
        assert_eq!(salvage, Salvage::default());
        for _ in 0..3 {
            w.write(&game(&["e2e4", "e7e5"])).expect("write");
        }
        // A stop: the writer is forgotten with a chunk in flight, and half a game is appended.
        std::mem::forget(w);
        let part = dir.join("chunk-000001.part");
        let mut half = Vec::new();
        game(&["d2d4"]).encode(&mut half);
        OpenOptions::new()
            .append(true)
            .open(&part)
            .and_then(|mut f| f.write_all(&half[..half.len() / 2]))
            .expect("append");
        assert_eq!(
            read_chunk(&part).games.len(),
            1,
            "a .part reads up to the cut"
        );
        let (w, salvage) = ChunkWriter::open(&dir, 2, 5000, 2).expect("reopen");
        assert_eq!((salvage.chunks, salvage.games), (1, 1));
        assert_eq!(salvage.bytes_dropped, (half.len() / 2) as u64);
        assert_eq!(w.next_number(), 2);
        let files = chunk_files(&dir, true).expect("list");
        assert_eq!(files.len(), 2);
        let games: usize = files.iter().map(|f| read_chunk(f).games.len()).sum();
        assert_eq!(games, 3);
        assert!(files.iter().all(|f| read_chunk(f).error.is_none()));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_second_run_with_a_seed_already_in_the_directory_is_refused() {
        let dir = temp_dir("seed-in-use");
        let (mut w, _) = ChunkWriter::open(&dir, 11, 5000, 1).expect("open");
        w.write(&game(&["e2e4"])).expect("write");
        drop(w);
        // A stopped run of seed 12 leaves a `.part`: its seed counts too.
        let (mut w, _) = ChunkWriter::open(&dir, 12, 5000, 5).expect("open");
        w.write(&game(&["d2d4"])).expect("write");
        std::mem::forget(w);
        for (seed, file) in [(11, "chunk-000000.bin"), (12, "chunk-000001.part")] {
            let err = ChunkWriter::open(&dir, seed, 5000, 1)
                .err()
                .unwrap_or_else(|| panic!("seed {seed} reopened"));
            assert!(matches!(err.kind, ChunkErrorKind::SeedInUse(s) if s == seed));
            assert!(err.to_string().contains(file), "{err}");
        }
        assert!(
            dir.join("chunk-000001.part").exists(),
            "a refused run leaves the .part alone"
        );
        let (w, salvage) = ChunkWriter::open(&dir, 13, 5000, 1).expect("a new seed");
        assert_eq!((salvage.chunks, w.next_number()), (1, 2));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_damaged_chunk_names_the_file_and_offset_and_keeps_the_games_before() {
        let dir = temp_dir("damaged");
        fs::create_dir_all(&dir).expect("dir");
        let mut bytes = chunk_header(3, 5000).to_vec();
        game(&["e2e4"]).encode(&mut bytes);
        let second = bytes.len();
        game(&["e2e4", "e7e5"]).encode(&mut bytes);
        bytes[second + 40] ^= 0xff;
        let path = dir.join("chunk-000000.bin");
        fs::write(&path, &bytes).expect("write");
        let read = read_chunk(&path);
        assert_eq!(read.games.len(), 1);
        let err = read.error.expect("an error");
        assert_eq!(err.offset, second as u64);
        assert!(err.to_string().contains("chunk-000000.bin"), "{err}");
        assert!(read_chunk(&dir.join("missing.bin")).error.is_some());
        fs::write(&path, b"not a chunk at all, longer than a header").expect("write");
        assert!(matches!(
            read_chunk(&path).error.map(|e| e.kind),
            Some(ChunkErrorKind::NotAChunk)
        ));
        let _ = fs::remove_dir_all(&dir);
    }
}
