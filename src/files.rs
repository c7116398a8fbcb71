//! Files a user names (networks, opening books, opening suites), read without trusting them.
//!
//! A path given to `setoption` or on the command line may name anything: a FIFO (opening it
//! blocks until a writer comes), `/dev/zero` (never ends), a huge sparse file, a folder. Every
//! such file is read here: only a regular file, at most the size its format allows, opened so
//! that a FIFO swapped in after the check cannot block the caller either. Each refusal is one
//! error naming the file; nothing is read then.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::Path;

/// The whole of the regular file at `path`, if it holds at most `max` bytes. `what` names the
/// file in the error ("network file", "book").
///
/// # Errors
/// A missing or unreadable file, one that is not a regular file (folder, FIFO, device,
/// socket), or one longer than `max` bytes.
pub fn read_bounded(path: &Path, max: u64, what: &str) -> Result<Vec<u8>, String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {what} '{shown}': {e}"))?;
    check(&meta, max, what, path)?;
    let file = open_nonblocking(path).map_err(|e| format!("cannot read {what} '{shown}': {e}"))?;
    // Checked again on the open file: the path may have been replaced in between.
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot read {what} '{shown}': {e}"))?;
    check(&meta, max, what, path)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {what} '{shown}': {e}"))?;
    if bytes.len() as u64 > max {
        return Err(too_large(what, path, max));
    }
    Ok(bytes)
}

/// [`read_bounded`] for a text file.
///
/// # Errors
/// As [`read_bounded`], and a file that is not UTF-8.
pub fn read_bounded_text(path: &Path, max: u64, what: &str) -> Result<String, String> {
    String::from_utf8(read_bounded(path, max, what)?)
        .map_err(|_| format!("{what} '{}' is not UTF-8 text", path.display()))
}

fn check(meta: &std::fs::Metadata, max: u64, what: &str, path: &Path) -> Result<(), String> {
    if !meta.is_file() {
        return Err(format!("{what} '{}' is not a regular file", path.display()));
    }
    if meta.len() > max {
        return Err(too_large(what, path, max));
    }
    Ok(())
}

fn too_large(what: &str, path: &Path, max: u64) -> String {
    let limit = if max >= 1 << 20 {
        format!("{} MiB", max >> 20)
    } else {
        format!("{max} bytes")
    };
    format!("{what} '{}' is larger than {limit}", path.display())
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer (the file is
    // then refused as not regular); reads of a regular file are not affected by it.
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    OpenOptions::new().read(true).open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("sanqi-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn reads_a_small_regular_file_and_refuses_the_rest() {
        let small = temp("small");
        std::fs::write(&small, b"abc").unwrap();
        assert_eq!(read_bounded(&small, 3, "book").unwrap(), b"abc");
        let e = read_bounded(&small, 2, "book").unwrap_err();
        assert!(e.contains("larger than 2 bytes"), "{e}");
        let e = read_bounded(small.parent().unwrap(), 100, "book").unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        let e = read_bounded(&temp("missing"), 100, "book").unwrap_err();
        assert!(e.starts_with("cannot read book"), "{e}");
        #[cfg(unix)]
        {
            let e = read_bounded(Path::new("/dev/zero"), 100, "network file").unwrap_err();
            assert!(e.contains("not a regular file"), "{e}");
        }
        let _ = std::fs::remove_dir_all(small.parent().unwrap());
    }
}
