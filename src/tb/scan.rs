//! Finding the table files of a `SyzygyPath` and checking each before it is used.
//!
//! A short or foreign file is refused here, by its length and magic number, so that it is
//! reported when the tables are opened; the materials whose files fail are remembered (see
//! [`super::material`]). What this cannot see (damage inside a file) the reader catches at
//! probe time.

use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::material::Material;

/// The two kinds of table file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    /// `.rtbw`: win/draw/loss.
    Wdl,
    /// `.rtbz`: distance to zeroing.
    Dtz,
}

impl Kind {
    fn from_extension(ext: &str) -> Option<Kind> {
        match ext {
            "rtbw" => Some(Kind::Wdl),
            "rtbz" => Some(Kind::Dtz),
            _ => None,
        }
    }

    /// The first four bytes of every file of this kind (little-endian magic numbers of the
    /// Syzygy format).
    pub(crate) fn magic(self) -> [u8; 4] {
        match self {
            Kind::Wdl => [0x71, 0xe8, 0x23, 0x5d],
            Kind::Dtz => [0xd7, 0x66, 0x0c, 0xa5],
        }
    }
}

/// What a scan of the directories found.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scan {
    /// Good files by (material, kind): the first directory's copy of each.
    pub good: HashMap<(Material, Kind), PathBuf>,
    /// Materials with a file that failed its check.
    pub bad: HashSet<Material>,
    /// One line per problem (unreadable directory, bad file), for the GUI.
    pub problems: Vec<String>,
    /// Every (material, kind) met so far, good or bad.
    seen: HashSet<(Material, Kind)>,
}

/// The character that separates directories in a `SyzygyPath` on this system (as in Stockfish
/// and [`std::env::split_paths`]).
pub const SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// Scans every directory of `path` (directories separated by [`SEPARATOR`], split as
/// [`std::env::split_paths`] does; empty entries are skipped).
pub(crate) fn scan(path: &OsStr) -> Scan {
    let mut scan = Scan::default();
    for dir in std::env::split_paths(path).filter(|d| !d.as_os_str().is_empty()) {
        scan_dir(&dir, &mut scan);
    }
    scan
}

fn scan_dir(dir: &Path, scan: &mut Scan) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            scan.problems
                .push(format!("{}: {e}; skipped", dir.display()));
            return;
        }
    };
    for entry in entries.flatten() {
        let file = entry.path();
        let Some((material, kind)) = table_name(&file) else {
            continue;
        };
        // The first directory's copy of a table is the one used: only that one matters.
        if !scan.seen.insert((material, kind)) {
            continue;
        }
        match check_file(&file, kind) {
            Ok(()) => {
                scan.good.insert((material, kind), file);
            }
            Err(why) => {
                scan.problems.push(format!(
                    "{}: {why}; tables that reach it are not probed",
                    file.display()
                ));
                scan.bad.insert(material);
            }
        }
    }
}

/// The material and kind a file name like `KRPvKR.rtbw` stands for.
fn table_name(file: &Path) -> Option<(Material, Kind)> {
    let kind = Kind::from_extension(file.extension()?.to_str()?)?;
    let material = Material::from_name(file.file_stem()?.to_str()?)?;
    Some((material, kind))
}

/// Checks what can be checked cheaply: the file is readable, its length has the shape of the
/// format (64-byte blocks plus a 16-byte tail, the test other probers make) and it starts with
/// the magic number of its kind.
fn check_file(file: &Path, kind: Kind) -> Result<(), String> {
    let mut f = File::open(file).map_err(|e| e.to_string())?;
    let len = f.metadata().map_err(|e| e.to_string())?.len();
    if len % 64 != 16 {
        return Err(format!(
            "{len} bytes is not the length of a whole table (truncated?)"
        ));
    }
    let mut head = [0u8; 4];
    f.read_exact(&mut head).map_err(|e| e.to_string())?;
    if head != kind.magic() {
        return Err("not a Syzygy table of its kind (bad magic number)".to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ferrum-tb-scan-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    #[test]
    fn paths_split_like_the_system_s() {
        let dir = temp_dir("split");
        std::fs::write(dir.join("KQvK.rtbw"), wdl_like()).expect("write");
        let list =
            std::env::join_paths([dir.clone(), PathBuf::from("/no/such/dir")]).expect("joinable");
        let s = scan(&list);
        assert_eq!(s.good.len(), 1);
        assert_eq!(s.problems.len(), 1, "{:?}", s.problems);
        if cfg!(windows) {
            // Drive letters are part of the directory, not separators.
            let s = scan(OsStr::new("C:\\no\\such;D:\\x"));
            assert_eq!(s.problems.len(), 2, "{:?}", s.problems);
            assert!(
                s.problems[0].starts_with("C:\\no\\such"),
                "{:?}",
                s.problems
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn directory_names_need_not_be_utf8() {
        use std::os::unix::ffi::OsStrExt;
        let base = temp_dir("bytes");
        let dir = base.join(OsStr::from_bytes(b"tb-\xff"));
        std::fs::create_dir_all(&dir).expect("a non-UTF-8 name");
        std::fs::write(dir.join("KQvK.rtbw"), wdl_like()).expect("write");
        let s = scan(dir.as_os_str());
        assert_eq!(s.good.len(), 1, "{:?}", s.problems);
        let _ = std::fs::remove_dir_all(&base);
    }

    /// A file with the length and magic number of a WDL table.
    fn wdl_like() -> Vec<u8> {
        let mut good = vec![0u8; 64 + 16];
        good[..4].copy_from_slice(&Kind::Wdl.magic());
        good
    }

    #[test]
    fn missing_directories_and_bad_files_are_reported() {
        let dir = temp_dir("bad");
        std::fs::write(dir.join("KQvK.rtbw"), b"").expect("write");
        let mut wrong_magic = vec![0u8; 64 + 16];
        wrong_magic[0] = 1;
        std::fs::write(dir.join("KRvK.rtbw"), &wrong_magic).expect("write");
        let mut good = vec![0u8; 128 + 16];
        good[..4].copy_from_slice(&Kind::Dtz.magic());
        std::fs::write(dir.join("KRvK.rtbz"), &good).expect("write");
        std::fs::write(dir.join("notes.txt"), b"hello").expect("write");
        let path = format!("{}{SEPARATOR}/no/such/dir", dir.display());
        let s = scan(OsStr::new(&path));
        assert_eq!(s.problems.len(), 3, "{:?}", s.problems);
        let krk = Material::from_name("KRvK").expect("name");
        assert!(s.good.contains_key(&(krk, Kind::Dtz)));
        assert!(s.bad.contains(&krk));
        assert!(s.bad.contains(&Material::from_name("KQvK").expect("name")));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
