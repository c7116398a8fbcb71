//! Opening books in the Polyglot format: 16-byte entries (big-endian key, move, weight and learn
//! fields) sorted by key. The key and the move encoding are the game's
//! ([`Records::book_key`], [`Records::book_move`]; chess: [`super::chess::polyglot`]).
//!
//! A book is any file a user names: it is read whole (at most [`MAX_BOOK_BYTES`]) when it is
//! opened, checked for its size, and looked up by binary search; entries whose move is not legal
//! in the position are skipped, so a wrong or hostile book gives no move, never an illegal one.

use super::Records;

/// Largest book file read (1 GiB: the largest public books are a few hundred MB).
pub const MAX_BOOK_BYTES: u64 = 1 << 30;

/// One book entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's key ([`Records::book_key`]).
    pub key: u64,
    /// The move as the book stores it ([`Records::book_move`]).
    pub raw_move: u16,
    /// How often to play it relative to the position's other entries (0: never).
    pub weight: u16,
    /// The learn field (not used).
    pub learn: u32,
}

/// A Polyglot book in memory.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// Reads the book at `path` (a regular file of at most [`MAX_BOOK_BYTES`] whose size is a
    /// multiple of 16).
    ///
    /// # Errors
    /// One message naming the file: missing, unreadable, not a regular file, too large, or of a
    /// size that is no whole number of entries.
    pub fn open(path: &std::path::Path) -> Result<Book, String> {
        let bytes = crate::files::read_bounded(path, MAX_BOOK_BYTES, "book")?;
        Book::from_bytes(&bytes).map_err(|e| format!("book '{}': {e}", path.display()))
    }

    /// A book from the bytes of a book file.
    ///
    /// # Errors
    /// When the size is not a multiple of 16 bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, String> {
        if bytes.len() % 16 != 0 {
            return Err(format!(
                "{} bytes is not a whole number of 16-byte entries",
                bytes.len()
            ));
        }
        let entries = bytes
            .chunks_exact(16)
            .map(|c| {
                let mut key = [0; 8];
                key.copy_from_slice(&c[..8]);
                let mut learn = [0; 4];
                learn.copy_from_slice(&c[12..]);
                Entry {
                    key: u64::from_be_bytes(key),
                    raw_move: u16::from_be_bytes([c[8], c[9]]),
                    weight: u16::from_be_bytes([c[10], c[11]]),
                    learn: u32::from_be_bytes(learn),
                }
            })
            .collect();
        Ok(Book { entries })
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The entry at `index` in file order (panics past [`Book::len`]; for tools and tests).
    pub fn entry(&self, index: usize) -> Entry {
        self.entries[index]
    }

    /// Whether the book has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether the entries are sorted by key, as the format requires (lookups in an unsorted
    /// book miss entries).
    pub fn is_sorted(&self) -> bool {
        self.entries.windows(2).all(|w| w[0].key <= w[1].key)
    }

    /// The entries stored under `key`, in file order.
    pub fn entries(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let len = self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..start + len]
    }

    /// The legal moves the book gives for `pos` with weight at least 1, in file order (none
    /// for a game without book keys).
    pub fn moves<G: Records>(&self, pos: &G) -> Vec<(G::Move, u16)> {
        let Some(key) = pos.book_key() else {
            return Vec::new();
        };
        self.entries(key)
            .iter()
            .filter(|e| e.weight > 0)
            .filter_map(|e| pos.book_move(e.raw_move).map(|m| (m, e.weight)))
            .collect()
    }

    /// A move for `pos` drawn with probability proportional to its weight; `r` is a uniform
    /// random number (any `u64`). `None` when the book has no legal move here.
    pub fn pick<G: Records>(&self, pos: &G, r: u64) -> Option<G::Move> {
        let moves = self.moves(pos);
        let total: u64 = moves.iter().map(|&(_, w)| u64::from(w)).sum();
        if total == 0 {
            return None;
        }
        let mut x = r % total;
        for (m, w) in moves {
            let w = u64::from(w);
            if x < w {
                return Some(m);
            }
            x -= w;
        }
        None
    }
}
