//! One table file: its header (read once when the file is opened) and the decoding of one
//! stored value.
//!
//! Every read from the file goes through [`Bytes`], which answers an error for anything past
//! the end, and all arithmetic on numbers read from the file is checked, so a truncated or
//! corrupt file gives an error and never a crash.

use super::encoding::{self, MAX_PIECES};

/// A failed read or an impossible value: the text says what.
pub type Fault = String;

/// The bytes of a table file with bounds-checked reads.
#[derive(Clone, Copy)]
pub struct Bytes<'a>(pub &'a [u8]);

impl<'a> Bytes<'a> {
    #[inline]
    fn slice(&self, at: usize, len: usize) -> Result<&'a [u8], Fault> {
        at.checked_add(len)
            .and_then(|end| self.0.get(at..end))
            .ok_or_else(|| {
                format!(
                    "read of {len} bytes at {at} past the end ({})",
                    self.0.len()
                )
            })
    }

    /// The byte at `at`.
    #[inline]
    pub fn u8(&self, at: usize) -> Result<u8, Fault> {
        self.0
            .get(at)
            .copied()
            .ok_or_else(|| format!("read at {at} past the end ({})", self.0.len()))
    }

    /// The little-endian 16-bit number at `at`.
    #[inline]
    pub fn u16_le(&self, at: usize) -> Result<u16, Fault> {
        let s = self.slice(at, 2)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }

    /// The little-endian 32-bit number at `at`.
    #[inline]
    pub fn u32_le(&self, at: usize) -> Result<u32, Fault> {
        let s = self.slice(at, 4)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }

    /// The big-endian 32-bit number at `at`.
    #[inline]
    pub fn u32_be(&self, at: usize) -> Result<u32, Fault> {
        let s = self.slice(at, 4)?;
        Ok(u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
    }

    /// The big-endian 64-bit number at `at`.
    #[inline]
    pub fn u64_be(&self, at: usize) -> Result<u64, Fault> {
        let s = self.slice(at, 8)?;
        let mut b = [0u8; 8];
        b.copy_from_slice(s);
        Ok(u64::from_be_bytes(b))
    }
}

/// `a + b`, or a fault.
#[inline]
fn add(a: usize, b: usize) -> Result<usize, Fault> {
    a.checked_add(b)
        .ok_or_else(|| "offset overflow".to_string())
}

/// `a * b`, or a fault.
#[inline]
fn mul(a: usize, b: usize) -> Result<usize, Fault> {
    a.checked_mul(b).ok_or_else(|| "size overflow".to_string())
}

/// Rounds up to the next multiple of 64 (where each compressed data area starts).
fn align64(a: usize) -> Result<usize, Fault> {
    Ok(add(a, 63)? & !63)
}

/// Where the compressed values of one table part lie and how to decode them.
#[derive(Clone, Debug, Default)]
pub struct Pairs {
    /// The header flags of the part (DTZ tables keep their map and side bits here).
    pub flags: u8,
    /// Every value is `constant` (no compressed data).
    pub constant: Option<u16>,
    block_size: u32,
    index_bits: u32,
    num_blocks: usize,
    min_len: u32,
    /// Offset of the table of lowest symbols per code length.
    lowest_sym: usize,
    /// Offset of the symbol pairs (3 bytes each).
    sym_pat: usize,
    /// Per symbol, the number of values it stands for, less one.
    sym_len: Vec<u32>,
    /// Per code length (from `min_len`), the lowest code of that length, left-aligned.
    base: Vec<u64>,
    index_table: usize,
    size_table: usize,
    data: usize,
    /// Sizes of the index table, the size table and the data in bytes.
    sizes: [usize; 3],
}

impl Pairs {
    /// Reads the decoding header of one part at `at` for a table part of `tb_size` positions;
    /// gives the part and the offset just past its header. `wdl` says whether a constant part
    /// stores its value (WDL) or is 0 (DTZ).
    fn read(b: Bytes, at: usize, tb_size: u64, wdl: bool) -> Result<(Pairs, usize), Fault> {
        let flags = b.u8(at)?;
        if flags & 0x80 != 0 {
            let value = if wdl { u16::from(b.u8(at + 1)?) } else { 0 };
            let pairs = Pairs {
                flags,
                constant: Some(value),
                ..Pairs::default()
            };
            return Ok((pairs, add(at, 2)?));
        }
        let block_size = u32::from(b.u8(at + 1)?);
        let index_bits = u32::from(b.u8(at + 2)?);
        if block_size > 32 || !(1..=48).contains(&index_bits) {
            return Err(format!(
                "bad block size {block_size} or index bits {index_bits}"
            ));
        }
        let real_blocks = b.u32_le(at + 4)? as usize;
        let num_blocks = add(real_blocks, usize::from(b.u8(at + 3)?))?;
        let max_len = u32::from(b.u8(at + 8)?);
        let min_len = u32::from(b.u8(at + 9)?);
        if min_len == 0 || max_len < min_len || max_len > 64 {
            return Err(format!("bad code lengths {min_len}..{max_len}"));
        }
        let h = (max_len - min_len + 1) as usize;
        let lowest_sym = at + 10;
        let num_syms = usize::from(b.u16_le(lowest_sym + 2 * h)?);
        let sym_pat = lowest_sym + 2 + 2 * h;
        let next = sym_pat + 3 * num_syms + (num_syms & 1);
        // The whole pair table must be in the file.
        b.slice(sym_pat, 3 * num_syms)?;

        let step = 1u64 << index_bits;
        let num_indices = tb_size.div_ceil(step);
        let num_indices =
            usize::try_from(num_indices).map_err(|_| "index table too large".to_string())?;
        let data_size = 1usize
            .checked_shl(block_size)
            .and_then(|s| s.checked_mul(real_blocks))
            .ok_or_else(|| "data size overflow".to_string())?;
        let sizes = [mul(6, num_indices)?, mul(2, num_blocks)?, data_size];

        let sym_len = symbol_lengths(b, sym_pat, num_syms)?;

        // Canonical code bases, from the longest length (base 0) down.
        let mut wide = vec![0i128; h];
        for i in (0..h - 1).rev() {
            let lo = i128::from(b.u16_le(lowest_sym + 2 * i)?);
            let hi = i128::from(b.u16_le(lowest_sym + 2 * i + 2)?);
            wide[i] = (wide[i + 1] + lo - hi).div_euclid(2);
        }
        let mut base = vec![0u64; h];
        for (i, (out, &v)) in base.iter_mut().zip(&wide).enumerate() {
            let v = u64::try_from(v).map_err(|_| "negative code base".to_string())?;
            // Left-aligned in 64 bits; the base must fit in its code length.
            let shift = 64 - (min_len + i as u32);
            let aligned = v << shift;
            if aligned >> shift != v {
                return Err("code base too large".to_string());
            }
            *out = aligned;
        }

        let pairs = Pairs {
            flags,
            constant: None,
            block_size,
            index_bits,
            num_blocks,
            min_len,
            lowest_sym,
            sym_pat,
            sym_len,
            base,
            index_table: 0,
            size_table: 0,
            data: 0,
            sizes,
        };
        Ok((pairs, next))
    }

    /// The stored value at `idx` (a byte for WDL, 12 bits for DTZ).
    pub fn value(&self, b: Bytes, idx: u64, dtz: bool) -> Result<u16, Fault> {
        if let Some(v) = self.constant {
            return Ok(v);
        }
        let main = usize::try_from(idx >> self.index_bits)
            .map_err(|_| "index out of range".to_string())?;
        let half = 1i64 << (self.index_bits - 1);
        let mask = (1u64 << self.index_bits) - 1;
        let mut lit = (idx & mask) as i64 - half;
        let entry = add(self.index_table, mul(6, main)?)?;
        let mut block = b.u32_le(entry)? as usize;
        lit += i64::from(b.u16_le(entry + 4)?);

        let block_len = |block: usize| -> Result<i64, Fault> {
            if block >= self.num_blocks {
                return Err(format!("block {block} out of range"));
            }
            Ok(i64::from(b.u16_le(add(self.size_table, 2 * block)?)?))
        };
        if lit < 0 {
            while lit < 0 {
                block = block
                    .checked_sub(1)
                    .ok_or_else(|| "block before the first".to_string())?;
                lit += block_len(block)? + 1;
            }
        } else {
            loop {
                let len = block_len(block)?;
                if lit <= len {
                    break;
                }
                lit -= len + 1;
                block += 1;
            }
        }

        let start = mul(block, 1usize << self.block_size)?;
        let mut ptr = add(self.data, start)?;
        let mut code = b.u64_be(ptr)?;
        ptr += 8;
        let mut bits: u32 = 0;
        let min = self.min_len;
        let sym_count = self.sym_len.len();
        let mut sym;
        loop {
            let mut l = min;
            loop {
                let base = *self
                    .base
                    .get((l - min) as usize)
                    .ok_or_else(|| "code longer than the longest".to_string())?;
                if code >= base {
                    break;
                }
                l += 1;
            }
            let lowest = b.u16_le(self.lowest_sym + 2 * (l - min) as usize)?;
            let base = self.base[(l - min) as usize];
            let offset = (code - base).checked_shr(64 - l).unwrap_or(0);
            sym = usize::from(lowest)
                .checked_add(usize::try_from(offset).unwrap_or(usize::MAX))
                .filter(|&s| s < sym_count)
                .ok_or_else(|| "symbol out of range".to_string())?;
            let len = i64::from(self.sym_len[sym]);
            if lit < len + 1 {
                break;
            }
            lit -= len + 1;
            code = code.checked_shl(l).unwrap_or(0);
            bits += l;
            if bits >= 32 {
                bits -= 32;
                let more = u64::from(b.u32_be(ptr)?);
                code |= more.checked_shl(bits).unwrap_or(0);
                ptr += 4;
            }
        }

        // Walk down the pair tree to the single value.
        let mut steps = 0;
        while self.sym_len[sym] != 0 {
            let (left, right) = symbol_pair(b, self.sym_pat, sym)?;
            let left_len = i64::from(*self.sym_len.get(left).ok_or("bad symbol")?);
            if lit < left_len + 1 {
                sym = left;
            } else {
                lit -= left_len + 1;
                sym = right;
            }
            if sym >= sym_count {
                return Err("symbol out of range".to_string());
            }
            steps += 1;
            if steps > sym_count {
                return Err("symbol tree loops".to_string());
            }
        }
        let at = self.sym_pat + 3 * sym;
        if dtz {
            Ok((u16::from(b.u8(at + 1)? & 0x0f) << 8) | u16::from(b.u8(at)?))
        } else {
            Ok(u16::from(b.u8(at)?))
        }
    }
}

/// The two halves of symbol `sym` (12 bits each); the right one is 0xfff for a leaf.
fn symbol_pair(b: Bytes, sym_pat: usize, sym: usize) -> Result<(usize, usize), Fault> {
    let at = sym_pat + 3 * sym;
    let (x, y, z) = (b.u8(at)?, b.u8(at + 1)?, b.u8(at + 2)?);
    let left = (usize::from(y & 0x0f) << 8) | usize::from(x);
    let right = (usize::from(z) << 4) | usize::from(y >> 4);
    Ok((left, right))
}

/// For every symbol the number of values it expands to, less one; an error for a pair that
/// names a missing symbol or for pairs that loop.
fn symbol_lengths(b: Bytes, sym_pat: usize, num_syms: usize) -> Result<Vec<u32>, Fault> {
    const UNSEEN: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut len = vec![0u32; num_syms];
    let mut state = vec![UNSEEN; num_syms];
    let mut stack: Vec<usize> = Vec::new();
    for root in 0..num_syms {
        if state[root] == DONE {
            continue;
        }
        stack.push(root);
        while let Some(&s) = stack.last() {
            let (left, right) = symbol_pair(b, sym_pat, s)?;
            if right == 0xfff {
                len[s] = 0;
                state[s] = DONE;
                stack.pop();
                continue;
            }
            if left >= num_syms || right >= num_syms {
                return Err(format!("symbol {s} names a missing symbol"));
            }
            state[s] = OPEN;
            let mut pending = false;
            for child in [left, right] {
                match state[child] {
                    DONE => {}
                    OPEN => return Err("symbol pairs loop".to_string()),
                    _ => {
                        stack.push(child);
                        pending = true;
                        break;
                    }
                }
            }
            if !pending {
                len[s] = len[left].saturating_add(len[right]).saturating_add(1);
                state[s] = DONE;
                stack.pop();
            }
        }
    }
    Ok(len)
}

/// How one side's positions of one table part are indexed.
#[derive(Clone, Debug, Default)]
pub struct Encoding {
    /// Table piece codes in index order: kind 1 (pawn) to 6 (king), bit 3 set for the second
    /// side.
    pub pieces: [u8; MAX_PIECES],
    /// Group lengths of equal pieces (at the first piece of each group).
    pub norm: [u8; MAX_PIECES],
    /// Multiplier of each group's index.
    pub factor: [u64; MAX_PIECES],
}

/// What the file name says about a table.
#[derive(Clone, Debug)]
pub struct Material {
    /// Pieces (kings included).
    pub num: usize,
    /// Per side (first and second in the name), counts by sanqi kind (pawn 0 .. king 5).
    pub counts: [[u8; 6]; 2],
    /// Whether there are pawns.
    pub has_pawns: bool,
    /// For tables with pawns: leading pawns (the side with fewer, but some) and the others.
    pub pawns: [usize; 2],
    /// For tables without pawns: three unique pieces make the pivot (else the two kings).
    pub three_pivot: bool,
}

impl Material {
    /// Reads a normalised table name such as `KRPvKR`; `None` for anything else.
    pub fn from_name(name: &str) -> Option<Material> {
        let (a, b) = name.split_once('v')?;
        if a.is_empty() || b.is_empty() || !a.starts_with('K') || !b.starts_with('K') {
            return None;
        }
        let mut counts = [[0u8; 6]; 2];
        for (side, part) in [a, b].iter().enumerate() {
            for c in part.chars() {
                let kind = match c {
                    'P' => 0,
                    'N' => 1,
                    'B' => 2,
                    'R' => 3,
                    'Q' => 4,
                    'K' => 5,
                    _ => return None,
                };
                counts[side][kind] += 1;
            }
        }
        let num = a.len() + b.len();
        if counts[0][5] != 1 || counts[1][5] != 1 || !(3..=MAX_PIECES).contains(&num) {
            return None;
        }
        // Normalised: pieces in order K Q R B N P, the stronger side first.
        let order =
            |s: &str| -> Vec<usize> { s.chars().filter_map(|c| "KQRBNP".find(c)).collect() };
        let sorted = |v: &Vec<usize>| v.windows(2).all(|w| w[0] <= w[1]);
        let (oa, ob) = (order(a), order(b));
        if !sorted(&oa) || !sorted(&ob) || (oa.len(), &ob) < (ob.len(), &oa) {
            return None;
        }
        let has_pawns = counts[0][0] + counts[1][0] > 0;
        // As python-chess and Stockfish do: the second side's pawns lead unless it has none
        // or more than the first.
        let (p_first, p_second) = (usize::from(counts[0][0]), usize::from(counts[1][0]));
        let mut pawns = [p_second, p_first];
        if pawns[1] > 0 && (pawns[0] == 0 || pawns[1] < pawns[0]) {
            pawns.swap(0, 1);
        }
        let unique = (0..6)
            .map(|k| usize::from(counts[0][k] == 1) + usize::from(counts[1][k] == 1))
            .sum::<usize>();
        Some(Material {
            num,
            counts,
            has_pawns,
            pawns,
            three_pivot: unique >= 3,
        })
    }

    /// The counts of a list of table piece codes, per side: `None` if a code is invalid.
    fn counts_of(codes: &[u8]) -> Option<[[u8; 6]; 2]> {
        let mut c = [[0u8; 6]; 2];
        for &p in codes {
            let kind = usize::from(p & 7);
            if !(1..=6).contains(&kind) || p > 15 {
                return None;
            }
            c[usize::from(p >> 3)][kind - 1] += 1;
        }
        Some(c)
    }
}

/// One part of a table: one file group for tables with pawns, the whole table otherwise.
#[derive(Clone, Debug, Default)]
pub struct Part {
    /// Per side to move (index 1 only in split WDL tables).
    pub enc: [Encoding; 2],
    /// The decoders per side to move (`None` where the table stores no such side).
    pub pairs: [Option<Pairs>; 2],
    /// DTZ: the offsets of the four value maps (see [`Table::map`]).
    pub map_idx: [usize; 4],
}

/// A parsed table file (WDL or DTZ).
#[derive(Clone, Debug)]
pub struct Layout {
    /// One part, or four (file groups a-d) for tables with pawns.
    pub parts: Vec<Part>,
    /// Counts by side of the table's first side (from the header for tables without pawns).
    pub key_counts: [[u8; 6]; 2],
    /// DTZ: where the value maps start.
    pub map: usize,
}

/// The first four bytes of a WDL file.
pub const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
/// The first four bytes of a DTZ file.
pub const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// Group lengths for a table without pawns.
fn norm_pieces(m: &Material, pieces: &[u8; MAX_PIECES]) -> [u8; MAX_PIECES] {
    let mut norm = [0u8; MAX_PIECES];
    let first = if m.three_pivot { 3 } else { 2 };
    norm[0] = first as u8;
    group_rest(&mut norm, pieces, first, m.num);
    norm
}

/// Group lengths for a table with pawns.
fn norm_pawns(m: &Material, pieces: &[u8; MAX_PIECES]) -> [u8; MAX_PIECES] {
    let mut norm = [0u8; MAX_PIECES];
    norm[0] = m.pawns[0] as u8;
    if m.pawns[1] > 0 {
        norm[m.pawns[0]] = m.pawns[1] as u8;
    }
    group_rest(&mut norm, pieces, m.pawns[0] + m.pawns[1], m.num);
    norm
}

/// Marks the runs of equal codes from `from` on.
fn group_rest(norm: &mut [u8; MAX_PIECES], pieces: &[u8; MAX_PIECES], from: usize, num: usize) {
    let mut i = from;
    while i < num {
        let mut j = i;
        while j < num && pieces[j] == pieces[i] {
            norm[i] += 1;
            j += 1;
        }
        i += usize::from(norm[i]).max(1);
    }
}

/// Multipliers for a table without pawns; gives the number of positions.
fn factors_pieces(
    m: &Material,
    norm: &[u8; MAX_PIECES],
    order: usize,
    factor: &mut [u64; MAX_PIECES],
) -> Result<u64, Fault> {
    let pivot = if m.three_pivot {
        encoding::PIVOT_FACTOR_THREE
    } else {
        encoding::PIVOT_FACTOR_KINGS
    };
    let mut free = 64 - usize::from(norm[0]);
    let mut f: u64 = 1;
    let mut i = usize::from(norm[0]);
    let mut k = 0;
    while i < m.num || k == order {
        if k == order {
            factor[0] = f;
            f = f.checked_mul(pivot).ok_or("table size overflow")?;
        } else {
            factor[i] = f;
            let n = usize::from(norm[i]).max(1);
            let ways = encoding::placements(n, free).ok_or("bad piece groups")?;
            f = f.checked_mul(ways).ok_or("table size overflow")?;
            free = free.checked_sub(n).ok_or("bad piece groups")?;
            i += n;
        }
        k += 1;
    }
    Ok(f)
}

/// Multipliers for a table with pawns in file group `file`; gives the number of positions.
fn factors_pawns(
    m: &Material,
    norm: &[u8; MAX_PIECES],
    order: usize,
    order2: usize,
    file: usize,
    factor: &mut [u64; MAX_PIECES],
) -> Result<u64, Fault> {
    let lead = usize::from(norm[0]);
    let mut i = lead;
    if order2 < 0x0f {
        i += usize::from(norm[i]);
    }
    let mut free = 64usize.checked_sub(i).ok_or("bad pawn groups")?;
    let mut f: u64 = 1;
    let mut k = 0;
    while i < m.num || k == order || k == order2 {
        if k == order {
            factor[0] = f;
            let lead_factor = encoding::PAWN_FACTOR
                .get(lead.wrapping_sub(1))
                .ok_or("bad pawn count")?[file];
            f = f.checked_mul(lead_factor).ok_or("table size overflow")?;
        } else if k == order2 {
            factor[lead] = f;
            let ways = encoding::placements(usize::from(norm[lead]), 48 - lead)
                .ok_or("bad pawn groups")?;
            f = f.checked_mul(ways).ok_or("table size overflow")?;
        } else {
            factor[i] = f;
            let n = usize::from(norm[i]).max(1);
            let ways = encoding::placements(n, free).ok_or("bad piece groups")?;
            f = f.checked_mul(ways).ok_or("table size overflow")?;
            free = free.checked_sub(n).ok_or("bad piece groups")?;
            i += n;
        }
        k += 1;
        if k > 16 {
            return Err("bad order".to_string());
        }
    }
    Ok(f)
}

/// Reads `m.num` piece codes at `at` (low nibbles for side 0, high for side 1) and checks
/// that they are the table's material, equal pieces next to each other.
fn read_pieces(b: Bytes, at: usize, m: &Material, side: usize) -> Result<[u8; MAX_PIECES], Fault> {
    let mut pieces = [0u8; MAX_PIECES];
    for (i, p) in pieces.iter_mut().enumerate().take(m.num) {
        let byte = b.u8(at + i)?;
        *p = if side == 0 { byte & 0x0f } else { byte >> 4 };
    }
    let counts = Material::counts_of(&pieces[..m.num]).ok_or("bad piece code")?;
    let mirrored = [counts[1], counts[0]];
    if counts != m.counts && mirrored != m.counts {
        return Err("header pieces differ from the file name".to_string());
    }
    for i in 1..m.num {
        if pieces[i] != pieces[i - 1] && pieces[..i - 1].contains(&pieces[i]) {
            return Err("equal pieces apart in the header".to_string());
        }
    }
    Ok(pieces)
}

/// Reads and checks the header of a table file (`dtz` for `.rtbz`) with material `m`.
pub fn read_layout(b: Bytes, m: &Material, dtz: bool) -> Result<Layout, Fault> {
    let magic = if dtz { DTZ_MAGIC } else { WDL_MAGIC };
    if b.slice(0, 4)? != magic {
        return Err("bad magic number".to_string());
    }
    let head = b.u8(4)?;
    let split = !dtz && head & 1 != 0;
    let files = if head & 2 != 0 { 4 } else { 1 };
    let sides = if dtz { 1 } else { 2 };
    let stored_sides = if split { 2 } else { 1 };
    let mut ptr = 5usize;

    let num_parts = if m.has_pawns { 4 } else { 1 };
    let mut parts: Vec<Part> = vec![Part::default(); num_parts];
    let mut sizes: Vec<[u64; 2]> = vec![[0; 2]; num_parts];
    for (f, part) in parts.iter_mut().enumerate() {
        let pieces_at = if m.has_pawns {
            ptr + 1 + usize::from(m.pawns[1] > 0)
        } else {
            ptr + 1
        };
        for (side, size) in sizes[f].iter_mut().enumerate().take(sides) {
            let shift = if side == 0 { 0 } else { 4 };
            let order = usize::from((b.u8(ptr)? >> shift) & 0x0f);
            let pieces = read_pieces(b, pieces_at, m, side)?;
            let enc = &mut part.enc[side];
            enc.pieces = pieces;
            if m.has_pawns {
                let lead = pieces[0];
                if lead & 7 != 1 || pieces[..m.pawns[0]].iter().any(|&p| p != lead) {
                    return Err("leading pawns not first in the header".to_string());
                }
                let order2 = if m.pawns[1] > 0 {
                    usize::from((b.u8(ptr + 1)? >> shift) & 0x0f)
                } else {
                    0x0f
                };
                enc.norm = norm_pawns(m, &pieces);
                *size = factors_pawns(m, &enc.norm, order, order2, f, &mut enc.factor)?;
            } else {
                enc.norm = norm_pieces(m, &pieces);
                *size = factors_pieces(m, &enc.norm, order, &mut enc.factor)?;
            }
        }
        ptr = pieces_at + m.num;
    }
    ptr += ptr & 1;

    let used = if m.has_pawns { files } else { 1 };
    for f in 0..used {
        for (side, &size) in sizes[f].iter().enumerate().take(stored_sides) {
            let (pairs, next) = Pairs::read(b, ptr, size, !dtz)?;
            parts[f].pairs[side] = Some(pairs);
            ptr = next;
        }
    }

    let map = ptr;
    if dtz {
        for part in parts.iter_mut().take(used) {
            let flags = part.pairs[0].as_ref().map_or(0, |p| p.flags);
            if flags & 2 == 0 {
                continue;
            }
            if flags & 16 == 0 {
                for i in 0..4 {
                    part.map_idx[i] = ptr + 1 - map;
                    ptr = add(ptr, 1 + usize::from(b.u8(ptr)?))?;
                }
            } else {
                if m.has_pawns {
                    ptr += ptr & 1;
                }
                for i in 0..4 {
                    part.map_idx[i] = (ptr + 2 - map) / 2;
                    ptr = add(ptr, 2 + 2 * usize::from(b.u16_le(ptr)?))?;
                }
            }
        }
        ptr += ptr & 1;
    }

    // Index tables, then size tables, then the data areas, each in part and side order.
    for which in 0..3 {
        for part in parts.iter_mut().take(used) {
            for pairs in part.pairs.iter_mut().flatten() {
                if which == 2 {
                    ptr = align64(ptr)?;
                }
                match which {
                    0 => pairs.index_table = ptr,
                    1 => pairs.size_table = ptr,
                    _ => pairs.data = ptr,
                }
                ptr = add(ptr, pairs.sizes[which])?;
            }
        }
    }
    if ptr > b.0.len() {
        return Err(format!(
            "file too short: the header describes {ptr} bytes, the file has {}",
            b.0.len()
        ));
    }

    let key_counts = if m.has_pawns {
        m.counts
    } else {
        Material::counts_of(&parts[0].enc[0].pieces[..m.num]).ok_or("bad piece code")?
    };
    Ok(Layout {
        parts,
        key_counts,
        map,
    })
}
