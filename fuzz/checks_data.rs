//! The invariant of the `data_chunk` fuzz target, apart from `checks.rs` because it needs the
//! library's `tune` feature (the self-play data code); `tests/core.rs` replays its corpus when
//! that feature is on.

/// Self-play data (a chunk file's bytes): decoding never panics; every game decoded writes
/// back to exactly its bytes and replays legally; a damaged chunk reports the offset of a game.
pub fn check_data_chunk(data: &[u8]) {
    use ferrum::tune::chunks::decode_chunk;
    use ferrum::tune::gamefile::{GameRecord, CHUNK_HEADER_BYTES};
    let path = std::path::Path::new("fuzz.bin");
    for partial in [false, true] {
        let read = decode_chunk(path, data, partial);
        let mut bytes = data.get(..CHUNK_HEADER_BYTES).unwrap_or(&[]).to_vec();
        for g in &read.games {
            g.encode(&mut bytes);
            let mut pos = g.start.clone();
            for m in &g.moves {
                assert!(pos.is_legal(m.mv), "a decoded game must replay");
                pos.make(m.mv);
            }
        }
        if read.header.is_some() {
            assert_eq!(bytes.len() as u64, read.good_bytes);
            assert_eq!(
                &bytes[..],
                &data[..bytes.len()],
                "games re-encode to their bytes"
            );
        }
        if let Some(e) = &read.error {
            assert!(e.offset <= data.len() as u64);
        }
    }
    if let Ok((g, used)) = GameRecord::decode(data) {
        let mut again = Vec::new();
        g.encode(&mut again);
        assert_eq!(&again[..], &data[..used]);
    }
}
