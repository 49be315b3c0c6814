//! Reading table files without mapping them (mapping needs `unsafe`): small files are read
//! whole, big ones (the 6- and 7-piece sets run to hundreds of GB) answer positioned reads.

use std::borrow::Cow;
use std::fs::File;
use std::io::Read;
use std::path::Path;

/// Files up to this size are read into memory at their first probe (3- and 4-piece files are
/// at most a few hundred KB): a probe of an in-memory table is a few slice reads, where a big
/// file costs a few positioned reads (system calls) per probe.
pub(crate) const WHOLE_FILE_LIMIT: u64 = 16 << 20;

/// The bytes of one table file.
#[derive(Debug)]
pub(crate) enum Source {
    /// Read whole.
    Memory(Vec<u8>),
    /// Left on disk and read a few bytes at a time.
    Disk { file: File, len: u64 },
}

impl Source {
    /// Opens `path`, reading it whole when it has at most `whole_limit` bytes.
    pub(crate) fn open(path: &Path, whole_limit: u64) -> Option<Source> {
        let mut file = File::open(path).ok()?;
        let len = file.metadata().ok()?.len();
        if len <= whole_limit {
            let mut bytes = vec![0; usize::try_from(len).ok()?];
            file.read_exact(&mut bytes).ok()?;
            Some(Source::Memory(bytes))
        } else {
            Some(Source::Disk { file, len })
        }
    }

    /// The file's length in bytes.
    pub(crate) fn len(&self) -> u64 {
        match self {
            Source::Memory(b) => b.len() as u64,
            Source::Disk { len, .. } => *len,
        }
    }

    /// `len` bytes from `offset`, or `None` when they run past the end or cannot be read.
    pub(crate) fn bytes(&self, offset: u64, len: usize) -> Option<Cow<'_, [u8]>> {
        let end = offset.checked_add(len as u64)?;
        if end > self.len() {
            return None;
        }
        match self {
            Source::Memory(b) => {
                let start = usize::try_from(offset).ok()?;
                b.get(start..start + len).map(Cow::Borrowed)
            }
            Source::Disk { file, .. } => {
                let mut buf = vec![0; len];
                read_exact_at(file, &mut buf, offset)?;
                Some(Cow::Owned(buf))
            }
        }
    }

    /// `N` bytes from `offset` (fixed-size fields, read without allocating in memory).
    pub(crate) fn array<const N: usize>(&self, offset: u64) -> Option<[u8; N]> {
        let end = offset.checked_add(N as u64)?;
        if end > self.len() {
            return None;
        }
        let mut out = [0u8; N];
        match self {
            Source::Memory(b) => {
                let start = usize::try_from(offset).ok()?;
                out.copy_from_slice(b.get(start..start + N)?);
            }
            Source::Disk { file, .. } => read_exact_at(file, &mut out, offset)?,
        }
        Some(out)
    }

    /// The little-endian `u16` at `offset`.
    pub(crate) fn u16_le(&self, offset: u64) -> Option<u16> {
        self.array::<2>(offset).map(u16::from_le_bytes)
    }
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> Option<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(buf, offset).ok()
}

#[cfg(windows)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> Option<()> {
    use std::os::windows::fs::FileExt;
    // `seek_read` may return fewer bytes than asked: loop until the buffer is full.
    let mut done = 0;
    while done < buf.len() {
        match file.seek_read(&mut buf[done..], offset + done as u64) {
            Ok(0) => return None,
            Ok(n) => done += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    Some(())
}

/// Without positioned reads only whole files can be probed.
#[cfg(not(any(unix, windows)))]
fn read_exact_at(_file: &File, _buf: &mut [u8], _offset: u64) -> Option<()> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_and_disk_read_the_same_bytes_and_refuse_the_end() {
        let dir = std::env::temp_dir().join(format!("ferrum-tb-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("bytes.bin");
        let data: Vec<u8> = (0..=255).collect();
        std::fs::write(&path, &data).expect("write");
        let memory = Source::open(&path, 1 << 20).expect("opens");
        let disk = Source::open(&path, 0).expect("opens");
        assert!(matches!(memory, Source::Memory(_)));
        assert!(matches!(disk, Source::Disk { .. }));
        for s in [&memory, &disk] {
            assert_eq!(s.len(), 256);
            assert_eq!(s.bytes(10, 3).as_deref(), Some(&[10u8, 11, 12][..]));
            assert_eq!(s.u16_le(0x20), Some(0x2120));
            assert_eq!(s.array::<2>(255), None);
            assert_eq!(s.bytes(250, 7), None);
            assert_eq!(s.bytes(u64::MAX, 2), None);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
