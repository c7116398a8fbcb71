//! The 121-cell star: cell indices, names, neighbours, jump tables and the six triangles.
//!
//! Cells are numbered 0..121 rank by rank from rank 1 (the south tip, `m1`) to rank 17 (the
//! north tip, `e17`), west to east inside a rank, so a set of cells fits one `u128`.
//! All tables are built at compile time.

use std::fmt;
use std::str::FromStr;

use crate::game::GameError;

/// Number of cells of the star.
pub const NUM_CELLS: usize = 121;

/// A set of cells, bit `i` for cell index `i`.
pub type CellSet = u128;

/// Every cell of the star.
pub const ALL_CELLS: CellSet = (1u128 << NUM_CELLS) - 1;

/// The 61 cells of the central hexagon (in no triangle).
pub const HEXAGON: CellSet = {
    let mut h = ALL_CELLS;
    let mut t = 0;
    while t < 6 {
        h &= !TABLES_CONST.triangle[t];
        t += 1;
    }
    h
};

/// A bit index outside the star (never set in a board set), padding the jump tables.
pub(crate) const PAD_BIT: u8 = 127;

/// Marks "no cell" in the `u8` tables.
pub(crate) const NO_CELL: u8 = u8::MAX;

/// Number of cells on each rank, rank 1 first.
pub const RANK_LENGTHS: [usize; 17] = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];

/// The six neighbour offsets `(file, rank)`: E, W, NE, NW, SW, SE.
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (-1, 1), (0, -1), (1, -1)];

/// One cell of the star, written like a chess square (`e13`, `i9`, `m1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell with index `index` (0..121), if any.
    pub fn from_index(index: usize) -> Option<Cell> {
        (index < NUM_CELLS).then_some(Cell(index as u8))
    }

    /// The cell at file `file` (0 = `a` .. 16 = `q`) and rank `rank` (1..=17), if it is on the star.
    pub fn from_file_rank(file: u8, rank: u8) -> Option<Cell> {
        if file > 16 || !(1..=17).contains(&rank) {
            return None;
        }
        let i = TABLES.index[(rank - 1) as usize][file as usize];
        (i != NO_CELL).then_some(Cell(i))
    }

    /// The cell index (0..121), rank 1 first, west to east inside a rank.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (`a`) to 16 (`q`).
    pub fn file(self) -> u8 {
        (TABLES.file[self.index()] + 8) as u8
    }

    /// The rank, 1 to 17.
    pub fn rank(self) -> u8 {
        (TABLES.rank[self.index()] + 9) as u8
    }

    /// Cube coordinates `(x, y, z)` with `x + y + z = 0`; the centre `i9` is `(0, 0, 0)`.
    pub fn cube(self) -> (i32, i32, i32) {
        let f = TABLES.file[self.index()] as i32;
        let r = TABLES.rank[self.index()] as i32;
        (f, r, -f - r)
    }

    /// The single-bit set of this cell.
    #[inline]
    pub fn bit(self) -> CellSet {
        1u128 << self.0
    }

    /// The adjacent cells (up to six).
    pub fn neighbours(self) -> impl Iterator<Item = Cell> {
        TABLES.neighbour[self.index()]
            .into_iter()
            .filter(|&n| n != NO_CELL)
            .map(Cell)
    }

    /// The triangle this cell belongs to, if it is not in the central hexagon.
    pub fn triangle(self) -> Option<Triangle> {
        let t = TABLES.triangle_of[self.index()];
        (t != NO_CELL).then_some(Triangle(t))
    }

    /// All cells, in index order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..NUM_CELLS as u8).map(Cell)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

impl FromStr for Cell {
    type Err = GameError;

    fn from_str(s: &str) -> Result<Cell, GameError> {
        let mut chars = s.chars();
        let file = match chars.next() {
            Some(c @ 'a'..='q') => c as u8 - b'a',
            Some(c) => {
                return Err(GameError::new(format!(
                    "bad cell `{s}`: file `{c}` is not a..q"
                )))
            }
            None => return Err(GameError::new("empty cell name")),
        };
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(GameError::new(format!(
                "bad cell `{s}`: rank must be a number 1..17"
            )));
        }
        let rank: u8 = digits
            .parse()
            .map_err(|_| GameError::new(format!("bad cell `{s}`: rank must be a number 1..17")))?;
        if !(1..=17).contains(&rank) || digits.starts_with('0') {
            return Err(GameError::new(format!(
                "bad cell `{s}`: rank must be a number 1..17"
            )));
        }
        Cell::from_file_rank(file, rank)
            .ok_or_else(|| GameError::new(format!("bad cell `{s}`: not a cell of the star")))
    }
}

/// Iterates the cells of a set, lowest index first.
pub fn cells_of(mut set: CellSet) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let i = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(Cell(i))
    })
}

/// One of the six triangles (home of a player), `A` (south) clockwise to `F` (south-east).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Triangle(u8);

impl Triangle {
    /// All six, `A` to `F`.
    pub const ALL: [Triangle; 6] = [
        Triangle(0),
        Triangle(1),
        Triangle(2),
        Triangle(3),
        Triangle(4),
        Triangle(5),
    ];

    /// The triangle named by `A`..`F`.
    pub fn from_letter(c: char) -> Option<Triangle> {
        matches!(c, 'A'..='F').then(|| Triangle(c as u8 - b'A'))
    }

    /// The triangle with index 0 (`A`) .. 5 (`F`).
    pub fn from_index(i: usize) -> Option<Triangle> {
        (i < 6).then_some(Triangle(i as u8))
    }

    /// 0 (`A`) .. 5 (`F`).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The letter `A`..`F`.
    pub fn letter(self) -> char {
        (b'A' + self.0) as char
    }

    /// The opposite triangle (the target of this triangle's player).
    pub fn opposite(self) -> Triangle {
        Triangle((self.0 + 3) % 6)
    }

    /// Its ten cells.
    #[inline]
    pub fn cells(self) -> CellSet {
        TABLES.triangle[self.index()]
    }

    /// The cell at its point (`m1` for `A`, `e5` for `B`, ...).
    pub fn tip(self) -> Cell {
        Cell(TABLES.tip[self.index()])
    }

    /// How far `cell` has advanced from this triangle towards the opposite one, in rows
    /// (hex lines parallel to the triangle's base): larger is closer to the target.
    /// The tip of this triangle has -8, the tip of the opposite one +8.
    #[inline]
    pub fn progress(self, cell: Cell) -> i32 {
        TABLES.progress[self.index()][cell.index()] as i32
    }
}

impl fmt::Display for Triangle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Precomputed tables of the star.
pub(crate) struct Tables {
    /// `file - 8` of each cell (-8..=8).
    pub file: [i8; NUM_CELLS],
    /// `rank - 9` of each cell (-8..=8).
    pub rank: [i8; NUM_CELLS],
    /// Cell index by `[rank - 1][file]`, or `NO_CELL`.
    pub index: [[u8; 17]; 17],
    /// Neighbour in each of the six directions, or `NO_CELL`.
    pub neighbour: [[u8; 6]; NUM_CELLS],
    /// The adjacent cells as a set.
    pub steps: [CellSet; NUM_CELLS],
    /// Jumps from each cell: `(over, landing)` pairs; the first `jump_count` are valid, the
    /// rest are `(PAD_BIT, PAD_BIT)`, a bit that is never set in a board set, so a generator
    /// may loop over all six without a test.
    pub jumps: [[(u8, u8); 6]; NUM_CELLS],
    /// `beyond[x][o]`: the landing cell of a jump from `x` over its neighbour `o`, or
    /// `PAD_BIT` when `o` is not a neighbour or the landing is off the star.
    pub beyond: [[u8; NUM_CELLS]; NUM_CELLS],
    /// `bit[i]`: the set of cell `i` alone; `bit[PAD_BIT]` is empty.
    pub bit: [CellSet; 128],
    /// Number of valid entries of `jumps`.
    pub jump_count: [u8; NUM_CELLS],
    /// The cells of each triangle.
    pub triangle: [CellSet; 6],
    /// The triangle of each cell, or `NO_CELL` for the central hexagon.
    pub triangle_of: [u8; NUM_CELLS],
    /// The tip of each triangle.
    pub tip: [u8; 6],
    /// Progress of each cell for the player of each home triangle.
    pub progress: [[i8; NUM_CELLS]; 6],
    /// `tip_distance[t][c]`: the plain distance from cell `c` to the tip of triangle `t`.
    pub tip_distance: [[u8; NUM_CELLS]; 6],
    /// `tip_ring[t][d]`: the cells at plain distance `d` from the tip of triangle `t`.
    pub tip_ring: [[CellSet; MAX_DISTANCE + 1]; 6],
    /// `forward_steps[t][c]`: the neighbours of `c` with more progress than `c` for the player
    /// at home in triangle `t` (where a jump over them lands farther forward still).
    pub forward_steps: [[CellSet; NUM_CELLS]; 6],
}

/// The largest plain distance between two cells of the star (tip to opposite tip).
pub(crate) const MAX_DISTANCE: usize = 16;

const fn in_star(f: i32, r: i32) -> bool {
    if f < -8 || f > 8 || r < -8 || r > 8 {
        return false;
    }
    let (x, y, z) = (f, r, -f - r);
    let max = if x > y { x } else { y };
    let max = if max > z { max } else { z };
    let min = if x < y { x } else { y };
    let min = if min < z { min } else { z };
    max <= 4 || min >= -4
}

/// Which triangle a cube coordinate lies in: `A` y < -4, `B` z > 4, `C` x < -4, `D` y > 4,
/// `E` z < -4, `F` x > 4.
const fn triangle_at(x: i32, y: i32, z: i32) -> u8 {
    if y < -4 {
        0
    } else if z > 4 {
        1
    } else if x < -4 {
        2
    } else if y > 4 {
        3
    } else if z < -4 {
        4
    } else if x > 4 {
        5
    } else {
        NO_CELL
    }
}

/// The progress coordinate of the player at home in triangle `t`.
const fn progress_at(t: usize, x: i32, y: i32, z: i32) -> i32 {
    match t {
        0 => y,
        1 => -z,
        2 => x,
        3 => -y,
        4 => z,
        _ => -x,
    }
}

const fn build() -> Tables {
    let mut t = Tables {
        file: [0; NUM_CELLS],
        rank: [0; NUM_CELLS],
        index: [[NO_CELL; 17]; 17],
        neighbour: [[NO_CELL; 6]; NUM_CELLS],
        steps: [0; NUM_CELLS],
        jumps: [[(PAD_BIT, PAD_BIT); 6]; NUM_CELLS],
        jump_count: [0; NUM_CELLS],
        beyond: [[PAD_BIT; NUM_CELLS]; NUM_CELLS],
        bit: [0; 128],
        triangle: [0; 6],
        triangle_of: [NO_CELL; NUM_CELLS],
        tip: [NO_CELL; 6],
        progress: [[0; NUM_CELLS]; 6],
        tip_distance: [[0; NUM_CELLS]; 6],
        tip_ring: [[0; MAX_DISTANCE + 1]; 6],
        forward_steps: [[0; NUM_CELLS]; 6],
    };
    let mut n = 0;
    let mut r = -8;
    while r <= 8 {
        let mut f = -8;
        while f <= 8 {
            if in_star(f, r) {
                t.file[n] = f as i8;
                t.rank[n] = r as i8;
                t.index[(r + 8) as usize][(f + 8) as usize] = n as u8;
                n += 1;
            }
            f += 1;
        }
        r += 1;
    }
    let mut c = 0;
    while c < NUM_CELLS {
        t.bit[c] = 1u128 << c;
        c += 1;
    }
    let mut c = 0;
    while c < NUM_CELLS {
        let f = t.file[c] as i32;
        let r = t.rank[c] as i32;
        let (x, y, z) = (f, r, -f - r);
        let mut d = 0;
        while d < 6 {
            let (df, dr) = DIRECTIONS[d];
            if in_star(f + df, r + dr) {
                let nb = t.index[(r + dr + 8) as usize][(f + df + 8) as usize];
                t.neighbour[c][d] = nb;
                t.steps[c] |= 1u128 << nb;
                if in_star(f + 2 * df, r + 2 * dr) {
                    let land = t.index[(r + 2 * dr + 8) as usize][(f + 2 * df + 8) as usize];
                    let k = t.jump_count[c] as usize;
                    t.jumps[c][k] = (nb, land);
                    t.beyond[c][nb as usize] = land;
                    t.jump_count[c] += 1;
                }
            }
            d += 1;
        }
        let tri = triangle_at(x, y, z);
        t.triangle_of[c] = tri;
        if tri != NO_CELL {
            t.triangle[tri as usize] |= 1u128 << c;
            if x.abs() == 8 || y.abs() == 8 || z.abs() == 8 {
                t.tip[tri as usize] = c as u8;
            }
        }
        let mut p = 0;
        while p < 6 {
            t.progress[p][c] = progress_at(p, x, y, z) as i8;
            p += 1;
        }
        c += 1;
    }
    let mut tri = 0;
    while tri < 6 {
        let tip = t.tip[tri] as usize;
        let (tx, ty) = (t.file[tip] as i32, t.rank[tip] as i32);
        let mut c = 0;
        while c < NUM_CELLS {
            let (dx, dy) = (t.file[c] as i32 - tx, t.rank[c] as i32 - ty);
            let dz = -dx - dy;
            let (ax, ay, az) = (dx.abs(), dy.abs(), dz.abs());
            let d = if ax > ay { ax } else { ay };
            let d = if d > az { d } else { az };
            t.tip_distance[tri][c] = d as u8;
            t.tip_ring[tri][d as usize] |= 1u128 << c;
            let mut k = 0;
            while k < 6 {
                let nb = t.neighbour[c][k];
                if nb != NO_CELL && t.progress[tri][nb as usize] > t.progress[tri][c] {
                    t.forward_steps[tri][c] |= 1u128 << nb;
                }
                k += 1;
            }
            c += 1;
        }
        tri += 1;
    }
    t
}

const TABLES_CONST: Tables = build();
pub(crate) static TABLES: Tables = TABLES_CONST;
