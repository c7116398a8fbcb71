//! `--append` that continues a file instead of repeating it.
//!
//! Game `i` of a seed is always the same game, so appending with the seed a file was made with
//! would write its games again. Beside the data file `FILE`, datagen keeps `FILE.games`: one line
//! `game <index> seed <seed> positions <n>` per game, written after the game's lines. A resumed
//! run reads it, skips the games of its seed that are there, and so plays new games only. The
//! data lines of a game cut short by an interrupt (written but not recorded, or half written)
//! are removed first, so that the file holds whole games only.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

/// The record file of a data file.
pub fn record_path(out: &str) -> String {
    format!("{out}.games")
}

/// One record line.
pub fn record_line(index: u64, seed: u64, positions: usize) -> String {
    format!("game {index} seed {seed} positions {positions}\n")
}

/// What a data file already holds.
#[derive(Debug, Default)]
pub struct Resume {
    /// The games of this run's seed already in the file.
    pub done: HashSet<u64>,
    /// Games of other seeds.
    pub other_seeds: u64,
    /// Positions in the file (after any cut).
    pub positions: u64,
    /// Lines removed: those of a game cut short.
    pub removed: u64,
}

fn parse_record(line: &str) -> Option<(u64, u64, u64)> {
    let w: Vec<&str> = line.split_whitespace().collect();
    match w.as_slice() {
        ["game", i, "seed", s, "positions", n] => {
            Some((i.parse().ok()?, s.parse().ok()?, n.parse().ok()?))
        }
        _ => None,
    }
}

/// Counts the complete lines of `file` and finds the byte offset after the `keep`-th one (0
/// for none): returns (complete lines, that offset, the file's length, whether the file ends
/// inside a line).
fn count_lines(file: &mut File, keep: u64) -> std::io::Result<(u64, u64, u64, bool)> {
    file.seek(SeekFrom::Start(0))?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let (mut lines, mut offset, mut cut_at, mut partial) = (0u64, 0u64, 0u64, false);
    let mut buf = [0u8; 1 << 16];
    loop {
        let n = reader.read(&mut buf)?;
        if n == 0 {
            break;
        }
        for (i, &b) in buf[..n].iter().enumerate() {
            partial = b != b'\n';
            if b == b'\n' {
                lines += 1;
                if lines == keep {
                    cut_at = offset + i as u64 + 1;
                }
            }
        }
        offset += n as u64;
    }
    Ok((lines, cut_at, offset, partial))
}

/// Reads what `out` (opened for appending) and its record hold for a run with `seed`, and cuts
/// the data back to the recorded games. `seed_given`: the seed was chosen on the command line
/// (needed to append to a data file without a record).
///
/// # Errors
/// A data file with positions but no record (unless `seed_given`), a record that claims more
/// positions than the file has, unreadable files.
pub fn prepare(out: &str, file: &mut File, seed: u64, seed_given: bool) -> Result<Resume, String> {
    let io = |e: std::io::Error| format!("appending to {out}: {e}");
    let record = record_path(out);
    let mut r = Resume::default();
    let mut recorded = 0u64;
    let have_record = Path::new(&record).exists();
    if have_record {
        let rio = |e: std::io::Error| format!("cannot read {record}: {e}");
        let mut f = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&record)
            .map_err(rio)?;
        let mut reader = BufReader::new(&mut f);
        let mut whole = 0u64;
        let mut line = String::new();
        loop {
            line.clear();
            let n = reader.read_line(&mut line).map_err(rio)?;
            // A last line without its newline was cut by an interrupt: it names no game.
            if n == 0 || !line.ends_with('\n') {
                break;
            }
            whole += n as u64;
            if let Some((index, s, positions)) = parse_record(&line) {
                recorded += positions;
                if s == seed {
                    r.done.insert(index);
                } else {
                    r.other_seeds += 1;
                }
            }
        }
        drop(reader);
        f.set_len(whole).map_err(rio)?;
    }
    let (lines, end, len, partial) = count_lines(file, recorded).map_err(io)?;
    if !have_record && len > 0 {
        if !seed_given {
            return Err(format!(
                "{out} has {lines} positions but no record of its games ({record}, which sanqi \
                 datagen writes so that runs can resume): appending with seed {seed} would \
                 repeat its games if it was made with that seed; give --seed with a seed it was \
                 not made with"
            ));
        }
        r.positions = lines;
        return Ok(r);
    }
    if lines < recorded {
        return Err(format!(
            "{record} records {recorded} positions but {out} has {lines}: the files do not \
             belong together (edited or cut?); not appending"
        ));
    }
    if len > end {
        // Lines of a game that was not recorded (cut short), perhaps half a line.
        file.set_len(end).map_err(io)?;
        r.removed = lines - recorded + u64::from(partial);
    }
    r.positions = recorded;
    Ok(r)
}
