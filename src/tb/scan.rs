//! Finding the table files of a `SyzygyPath` and checking each before the prober may map it.
//!
//! The prober (pyrrhic-rs) trusts a file's length and header: a short or foreign file would
//! make it read outside the mapping. So every file it could open is checked here first, in safe
//! Rust, and the materials whose files fail are remembered (see [`super::material`]).

use std::collections::HashSet;
use std::fs::File;
use std::io::Read;
use std::path::Path;

use super::material::Material;

/// The two kinds of table the prober reads.
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
    fn magic(self) -> [u8; 4] {
        match self {
            Kind::Wdl => [0x71, 0xe8, 0x23, 0x5d],
            Kind::Dtz => [0xd7, 0x66, 0x0c, 0xa5],
        }
    }
}

/// What a scan of the directories found.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scan {
    /// Directories that could be listed, in the order given, as the prober is to get them.
    pub dirs: Vec<String>,
    /// Good files as (material, kind): the ones the prober will use.
    pub good: HashSet<(Material, Kind)>,
    /// Materials with a file that failed its check.
    pub bad: HashSet<Material>,
    /// One line per problem (unreadable directory, bad file), for the GUI.
    pub problems: Vec<String>,
}

/// The character that separates directories in a `SyzygyPath` on this system (as in Stockfish).
pub const SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// Scans every directory of `path` (directories separated by [`SEPARATOR`]).
pub(crate) fn scan(path: &str) -> Scan {
    let mut scan = Scan::default();
    let mut seen = HashSet::new();
    for dir in path
        .split(SEPARATOR)
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        scan_dir(Path::new(dir), &mut scan, &mut seen);
    }
    scan
}

fn scan_dir(dir: &Path, scan: &mut Scan, seen: &mut HashSet<(Material, Kind)>) {
    let shown = dir.display();
    let cwd = std::env::current_dir().unwrap_or_default();
    let Some(for_prober) = prober_form(&dir.to_string_lossy(), &cwd.to_string_lossy()) else {
        scan.problems.push(format!(
            "{shown}: the prober cannot take a directory name with ':' (on Windows: another \
             drive than the current one); skipped"
        ));
        return;
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            scan.problems.push(format!("{shown}: {e}; skipped"));
            return;
        }
    };
    scan.dirs.push(for_prober);
    for entry in entries.flatten() {
        let file = entry.path();
        let Some((material, kind)) = table_name(&file) else {
            continue;
        };
        // The prober opens the first directory's copy of a table: only that one matters.
        if !seen.insert((material, kind)) {
            continue;
        }
        match check_file(&file, kind) {
            Ok(()) => {
                scan.good.insert((material, kind));
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

/// The directory as the prober can take it. It splits its list at ':' (and a NUL would end
/// it), so such names cannot be passed, except that on Windows a drive prefix naming the current
/// directory's drive is dropped: `C:\tb` and `\tb` are the same place from there.
fn prober_form(dir: &str, cwd: &str) -> Option<String> {
    let dir = match dir.as_bytes() {
        [d, b':', ..] if cfg!(windows) && d.is_ascii_alphabetic() => {
            let same_drive = cwd
                .get(..2)
                .is_some_and(|c| c.eq_ignore_ascii_case(&dir[..2]));
            if !same_drive {
                return None;
            }
            &dir[2..]
        }
        _ => dir,
    };
    (!dir.contains(':') && !dir.contains('\0')).then(|| dir.to_string())
}

/// The material and kind a file name like `KRPvKR.rtbw` stands for.
fn table_name(file: &Path) -> Option<(Material, Kind)> {
    let kind = Kind::from_extension(file.extension()?.to_str()?)?;
    let material = Material::from_name(file.file_stem()?.to_str()?)?;
    Some((material, kind))
}

/// Checks what the prober takes on trust: the file is readable, its length has the shape of the
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
    fn directories_the_prober_cannot_take_are_refused() {
        assert_eq!(
            prober_form("/data/syzygy", "/home"),
            Some("/data/syzygy".into())
        );
        assert_eq!(prober_form("/odd:name", "/home"), None);
        if cfg!(windows) {
            assert_eq!(prober_form("C:\\tb", "c:\\work"), Some("\\tb".into()));
            assert_eq!(prober_form("D:\\tb", "C:\\work"), None);
        }
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
        let s = scan(&path);
        assert_eq!(s.dirs, vec![dir.to_string_lossy().into_owned()]);
        assert_eq!(s.problems.len(), 3, "{:?}", s.problems);
        let krk = Material::from_name("KRvK").expect("name");
        assert!(s.good.contains(&(krk, Kind::Dtz)));
        assert!(s.bad.contains(&krk));
        assert!(s.bad.contains(&Material::from_name("KQvK").expect("name")));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
