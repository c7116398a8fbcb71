//! Syzygy endgame tablebases: win/draw/loss (WDL, `.rtbw`) and distance to zeroing (DTZ,
//! `.rtbz`) for positions with few pieces, read from the table files as python-chess and
//! Stockfish read them.
//!
//! [`Tablebases::open`] maps every table file of some folders and reads their headers;
//! [`Tablebases::probe_wdl`] and [`Tablebases::probe_dtz`] then answer for a position, resolving
//! captures and en passant as the tables require. The tables are read-only, so one
//! `Tablebases` serves any number of search threads at once. A missing, truncated or corrupt
//! file gives an error, never a crash.

mod encoding;
mod probe;
mod table;

use std::fmt;
use std::path::Path;

use memmap2::Mmap;

use super::types::{KING, PAWN};
use super::Chess;
use encoding::MAX_PIECES;
use table::{Bytes, Layout, Material};

/// WDL from the side to move, ignoring the halfmove clock, as Syzygy defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost, also under the 50-move rule.
    Loss = -2,
    /// Lost, but drawn by the 50-move rule.
    BlessedLoss = -1,
    /// Drawn.
    Draw = 0,
    /// Won, but drawn by the 50-move rule.
    CursedWin = 1,
    /// Won, also under the 50-move rule.
    Win = 2,
}

impl Wdl {
    /// The value for a number in -2..=2 (anything else is clamped).
    fn from_i32(v: i32) -> Wdl {
        match v {
            i32::MIN..=-2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            0 => Wdl::Draw,
            1 => Wdl::CursedWin,
            _ => Wdl::Win,
        }
    }
}

/// Why a probe gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeError {
    /// The position has more pieces than the largest table.
    TooManyPieces,
    /// The position has castling rights (the tables hold none).
    Castling,
    /// A table the probe needs is not there (its name, such as `KRvKN.rtbw`).
    MissingTable(String),
    /// A table file gave an impossible value or read (what and where).
    Corrupt(String),
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::TooManyPieces => write!(f, "too many pieces for the tablebases"),
            ProbeError::Castling => {
                write!(f, "the tablebases hold no positions with castling rights")
            }
            ProbeError::MissingTable(name) => write!(f, "missing table {name}"),
            ProbeError::Corrupt(what) => write!(f, "corrupt table: {what}"),
        }
    }
}

impl std::error::Error for ProbeError {}

/// Piece counts per side and kind, four bits each, first side in the low 24 bits.
type MaterialKey = u64;

fn pack_counts(counts: &[[u8; 6]; 2]) -> MaterialKey {
    let mut key = 0;
    for (side, kinds) in counts.iter().enumerate() {
        for (kind, &n) in kinds.iter().enumerate() {
            key |= u64::from(n & 15) << (4 * (side * 6 + kind));
        }
    }
    key
}

fn mirror_key(key: MaterialKey) -> MaterialKey {
    (key >> 24) | ((key & 0xff_ffff) << 24)
}

/// The material key of a position (White first).
fn position_key(pos: &Chess) -> MaterialKey {
    let mut key = 0;
    for side in 0..2 {
        for kind in 0..6 {
            let n = u64::from(pos.pieces(side, kind).count_ones());
            key |= n.min(15) << (4 * (side * 6 + kind));
        }
    }
    key
}

/// The table name of a material key, such as `KRvKN` (White first).
fn key_name(key: MaterialKey) -> String {
    let mut s = String::new();
    for side in 0..2 {
        if side == 1 {
            s.push('v');
        }
        for (kind, c) in [
            (KING, 'K'),
            (4, 'Q'),
            (3, 'R'),
            (2, 'B'),
            (1, 'N'),
            (PAWN, 'P'),
        ] {
            let n = (key >> (4 * (side * 6 + kind))) & 15;
            for _ in 0..n {
                s.push(c);
            }
        }
    }
    s
}

/// One opened table file.
struct TableFile {
    /// The file name (for messages).
    name: String,
    material: Material,
    layout: Layout,
    /// Both sides have the same material.
    symmetric: bool,
    /// The material of the table's first side as White.
    key: MaterialKey,
    map: Mmap,
}

/// The tables of one kind (WDL or DTZ), found by material.
#[derive(Default)]
struct TableSet {
    tables: Vec<TableFile>,
    /// Material key (both orientations) to index in `tables`, sorted by key.
    index: Vec<(MaterialKey, usize)>,
}

impl TableSet {
    #[inline]
    fn find(&self, key: MaterialKey) -> Option<&TableFile> {
        let i = self.index.binary_search_by_key(&key, |e| e.0).ok()?;
        self.tables.get(self.index.get(i)?.1)
    }

    /// Builds the index; a later table with the same material replaces an earlier one.
    fn build_index(&mut self) {
        let mut map = std::collections::BTreeMap::new();
        for (i, t) in self.tables.iter().enumerate() {
            map.insert(t.key, i);
            map.insert(mirror_key(t.key), i);
        }
        self.index = map.into_iter().collect();
    }
}

/// Syzygy tables opened from some folders: probe them from any number of threads.
pub struct Tablebases {
    wdl: TableSet,
    dtz: TableSet,
    max_pieces: usize,
}

/// The folder separator of a path list (as in Stockfish's `SyzygyPath`).
const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

impl Tablebases {
    /// Opens every table under the folders of `paths` (separated by ':' as Stockfish's
    /// SyzygyPath; on Windows ';'); empty string = no tables. Returns the tables found and one
    /// message per problem: a folder that is missing or unreadable, a file with a bad magic
    /// number, a bad size or an unreadable header (such a file is left out, the rest work).
    /// Headers are parsed here (so that probing never does slow setup).
    pub fn open(paths: &str) -> (Tablebases, Vec<String>) {
        let mut tb = Tablebases {
            wdl: TableSet::default(),
            dtz: TableSet::default(),
            max_pieces: 0,
        };
        let mut problems = Vec::new();
        for folder in paths.split(PATH_SEPARATOR).filter(|f| !f.is_empty()) {
            let entries = match std::fs::read_dir(folder) {
                Ok(e) => e,
                Err(e) => {
                    problems.push(format!("syzygy folder {folder}: {e}"));
                    continue;
                }
            };
            let mut files: Vec<std::path::PathBuf> =
                entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            files.sort();
            for path in files {
                tb.add_file(&path, &mut problems);
            }
        }
        tb.wdl.build_index();
        tb.dtz.build_index();
        tb.max_pieces = tb
            .wdl
            .tables
            .iter()
            .map(|t| t.material.num)
            .max()
            .unwrap_or(0);
        (tb, problems)
    }

    /// Opens one file if its name is a table name; notes a problem if it cannot be used.
    fn add_file(&mut self, path: &Path, problems: &mut Vec<String>) {
        let (Some(stem), Some(ext)) = (
            path.file_stem().and_then(|s| s.to_str()),
            path.extension().and_then(|s| s.to_str()),
        ) else {
            return;
        };
        let dtz = match ext {
            "rtbw" => false,
            "rtbz" => true,
            _ => return,
        };
        let Some(material) = Material::from_name(stem) else {
            return;
        };
        if !path.is_file() {
            return;
        }
        let shown = path.display();
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) => {
                problems.push(format!("{shown}: {e}"));
                return;
            }
        };
        let len = match file.metadata() {
            Ok(m) => m.len(),
            Err(e) => {
                problems.push(format!("{shown}: {e}"));
                return;
            }
        };
        if len % 64 != 16 {
            problems.push(format!(
                "{shown}: bad size {len} (a table file is 16 more than a multiple of 64 bytes)"
            ));
            return;
        }
        // SAFETY: the map is read-only and the file is opened read-only. Table files must be
        // mapped, not read: the 5- and 6-piece sets are about 1 GB and 150 GB. Mapping is
        // undefined behaviour only if another process changes or truncates the file while it
        // is mapped, which table files, written once and then only read, are not; every read
        // from the map is bounds-checked against the length it had when mapped.
        let map = match unsafe { Mmap::map(&file) } {
            Ok(m) => m,
            Err(e) => {
                problems.push(format!("{shown}: cannot map: {e}"));
                return;
            }
        };
        #[cfg(unix)]
        {
            let _ = map.advise(memmap2::Advice::Random);
        }
        let layout = match table::read_layout(Bytes(&map), &material, dtz) {
            Ok(l) => l,
            Err(e) => {
                problems.push(format!("{shown}: {e}"));
                return;
            }
        };
        let key = pack_counts(&layout.key_counts);
        let table = TableFile {
            name: path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            symmetric: material.counts[0] == material.counts[1],
            material,
            layout,
            key,
            map,
        };
        if dtz {
            self.dtz.tables.push(table);
        } else {
            self.wdl.tables.push(table);
        }
    }

    /// Largest piece count (kings included) with a WDL table; 0 = none.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// The number of WDL tables opened.
    pub fn wdl_count(&self) -> usize {
        self.wdl.tables.len()
    }

    /// The number of DTZ tables opened.
    pub fn dtz_count(&self) -> usize {
        self.dtz.tables.len()
    }

    /// Same results as python-chess's `Tablebase.probe_wdl` (ep and capture resolution
    /// included). `pos` is left as it was.
    pub fn probe_wdl(&self, pos: &mut Chess) -> Result<Wdl, ProbeError> {
        self.check(pos)?;
        let saved = pos.nnue.take();
        let r = self.wdl_with_ep(pos);
        pos.nnue = saved;
        r.map(Wdl::from_i32)
    }

    /// Same results as python-chess's `Tablebase.probe_dtz` (signed: >0 side to move wins,
    /// <0 loses, 0 draw). `pos` is left as it was.
    pub fn probe_dtz(&self, pos: &mut Chess) -> Result<i32, ProbeError> {
        self.check(pos)?;
        let saved = pos.nnue.take();
        let r = self.dtz_with_ep(pos);
        pos.nnue = saved;
        r
    }

    /// The preconditions of a probe.
    fn check(&self, pos: &Chess) -> Result<(), ProbeError> {
        if pos.castling != 0 {
            return Err(ProbeError::Castling);
        }
        let n = pos.occupied().count_ones() as usize;
        if n > self.max_pieces || n > MAX_PIECES {
            return Err(ProbeError::TooManyPieces);
        }
        Ok(())
    }
}

/// Which of the table's stored sides a position is, and how to map its pieces there.
struct Orientation {
    /// XOR on table piece codes: 8 swaps the sides.
    color_flip: u8,
    /// XOR on squares: 0x38 mirrors the ranks (tables with pawns only).
    square_flip: usize,
    /// The stored side to move (0 or 1).
    side: usize,
}

impl TableFile {
    fn corrupt(&self, what: impl fmt::Display) -> ProbeError {
        ProbeError::Corrupt(format!("{}: {what}", self.name))
    }

    fn orientation(&self, pos: &Chess, key: MaterialKey) -> Orientation {
        let white = pos.side() == 0;
        if !self.symmetric {
            if key != self.key {
                Orientation {
                    color_flip: 8,
                    square_flip: 0x38,
                    side: usize::from(white),
                }
            } else {
                Orientation {
                    color_flip: 0,
                    square_flip: 0,
                    side: usize::from(!white),
                }
            }
        } else if white {
            Orientation {
                color_flip: 0,
                square_flip: 0,
                side: 0,
            }
        } else {
            Orientation {
                color_flip: 8,
                square_flip: 0x38,
                side: 0,
            }
        }
    }

    /// Puts the squares of the pieces with codes `codes` (runs of equal codes) into `p` from
    /// `*n` on.
    fn fill(
        &self,
        pos: &Chess,
        codes: &[u8],
        o: &Orientation,
        square_flip: usize,
        p: &mut [usize; MAX_PIECES],
        n: &mut usize,
    ) -> Result<(), ProbeError> {
        let mut prev = None;
        for &code in codes {
            if prev == Some(code) {
                continue;
            }
            prev = Some(code);
            let kind = usize::from(code & 7);
            if !(1..=6).contains(&kind) {
                return Err(self.corrupt("bad piece code"));
            }
            let side = usize::from(((code ^ o.color_flip) >> 3) & 1);
            let mut bb = pos.pieces(side, kind - 1);
            while bb != 0 {
                let sq = bb.trailing_zeros() as usize;
                bb &= bb - 1;
                let slot = p
                    .get_mut(*n)
                    .ok_or_else(|| self.corrupt("more pieces than the table holds"))?;
                *slot = sq ^ square_flip;
                *n += 1;
            }
        }
        Ok(())
    }

    /// Finds the part, stored side and index of `pos` (whose material key is `key`);
    /// `single_side` for DTZ tables, which keep one encoding per part.
    fn locate(
        &self,
        pos: &Chess,
        key: MaterialKey,
        single_side: bool,
    ) -> Result<(usize, usize, u64), ProbeError> {
        let o = self.orientation(pos, key);
        let m = &self.material;
        let enc_side = if single_side { 0 } else { o.side };
        let mut p = [0usize; MAX_PIECES];
        let mut n = 0;
        let parts = &self.layout.parts;
        if !m.has_pawns {
            let part = parts.first().ok_or_else(|| self.corrupt("no parts"))?;
            let enc = &part.enc[enc_side];
            self.fill(pos, &enc.pieces[..m.num], &o, 0, &mut p, &mut n)?;
            if n != m.num {
                return Err(self.corrupt("piece count differs from the header"));
            }
            let idx = encoding::encode_pieces(&mut p, m.num, m.three_pivot, &enc.norm, &enc.factor)
                .ok_or_else(|| self.corrupt("position outside the table (kings touch)"))?;
            Ok((0, o.side, idx))
        } else {
            let lead = parts
                .first()
                .map(|part| part.enc[0].pieces[0])
                .ok_or_else(|| self.corrupt("no parts"))?;
            self.fill(pos, &[lead], &o, o.square_flip, &mut p, &mut n)?;
            if n != m.pawns[0] {
                return Err(self.corrupt("leading pawn count differs from the header"));
            }
            let f = encoding::pawn_file(&mut p, m.pawns[0]);
            let part = parts
                .get(f)
                .ok_or_else(|| self.corrupt("missing file group"))?;
            let enc = &part.enc[enc_side];
            let rest = enc.pieces.get(n..m.num).unwrap_or(&[]);
            self.fill(pos, rest, &o, o.square_flip, &mut p, &mut n)?;
            if n != m.num {
                return Err(self.corrupt("piece count differs from the header"));
            }
            let idx = encoding::encode_pawns(
                &mut p,
                m.num,
                m.pawns[0],
                m.pawns[1],
                &enc.norm,
                &enc.factor,
            );
            Ok((f, o.side, idx))
        }
    }

    /// The WDL value (-2..=2) of `pos` from this table, ignoring captures.
    fn wdl(&self, pos: &Chess, key: MaterialKey) -> Result<i32, ProbeError> {
        let (f, side, idx) = self.locate(pos, key, false)?;
        let pairs = self
            .layout
            .parts
            .get(f)
            .and_then(|part| part.pairs[side].as_ref())
            .ok_or_else(|| self.corrupt("no data for this side"))?;
        let v = pairs
            .value(Bytes(&self.map), idx, false)
            .map_err(|e| self.corrupt(e))?;
        Ok(i32::from(v) - 2)
    }

    /// The DTZ value of `pos` from this table for the WDL value `wdl`, or `None` when the
    /// table does not store the side to move.
    fn dtz(&self, pos: &Chess, key: MaterialKey, wdl: i32) -> Result<Option<i32>, ProbeError> {
        let (f, side, idx) = self.locate(pos, key, true)?;
        let part = self
            .layout
            .parts
            .get(f)
            .ok_or_else(|| self.corrupt("missing file group"))?;
        let pairs = part.pairs[0]
            .as_ref()
            .ok_or_else(|| self.corrupt("no data for this file group"))?;
        let flags = pairs.flags;
        let stored = usize::from(flags & 1);
        let other_side = if self.material.has_pawns {
            stored != side
        } else {
            stored != side && !self.symmetric
        };
        if other_side {
            return Ok(None);
        }
        let b = Bytes(&self.map);
        let mut v = usize::from(pairs.value(b, idx, true).map_err(|e| self.corrupt(e))?);
        let w = usize::try_from(wdl + 2).unwrap_or(2).min(4);
        if flags & 2 != 0 {
            const WDL_TO_MAP: [usize; 5] = [1, 3, 0, 2, 0];
            let start = part.map_idx[WDL_TO_MAP[w]];
            let at = start
                .checked_add(v)
                .ok_or_else(|| self.corrupt("map overflow"))?;
            let base = self.layout.map;
            let read = if flags & 16 == 0 {
                b.u8(base + at).map(usize::from)
            } else {
                b.u16_le(base + 2 * at).map(usize::from)
            };
            v = read.map_err(|e| self.corrupt(e))?;
        }
        const PA_FLAGS: [u8; 5] = [8, 0, 0, 0, 4];
        let mut v = v as i32;
        if flags & PA_FLAGS[w] == 0 || wdl & 1 != 0 {
            v *= 2;
        }
        Ok(Some(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_names() {
        let m = Material::from_name("KRPvKR").unwrap_or_else(|| panic!("KRPvKR"));
        let key = pack_counts(&m.counts);
        assert_eq!(key_name(key), "KRPvKR");
        assert_eq!(key_name(mirror_key(key)), "KRvKRP");
        assert!(Material::from_name("KRvKRP").is_none());
        assert!(Material::from_name("KvK").is_none());
        assert!(Material::from_name("KQvKQ").is_some());
    }

    #[test]
    fn empty_path_has_no_tables() {
        let (tb, problems) = Tablebases::open("");
        assert!(problems.is_empty());
        assert_eq!(tb.wdl_count() + tb.dtz_count() + tb.max_pieces(), 0);
    }
}
