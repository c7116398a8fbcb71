//! The probe rules on top of the tables: captures are resolved by a small search (the tables
//! assume the side to move has no winning capture left out), en passant is looked at
//! separately (the tables hold no en-passant squares), and DTZ values that a table leaves
//! out (it stores one side to move only) come from one ply of search.
//!
//! Values follow python-chess's `probe_wdl` and `probe_dtz` exactly.

use super::{position_key, ProbeError, Tablebases};
use crate::game::chess::types::{Move, EN_PASSANT, KING, NO_PIECE, NO_SQUARE, PAWN};
use crate::game::chess::{Chess, ChessMoveList};
use crate::game::{Rules, SearchHints};

/// Which moves a step of the search looks at.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Filter {
    /// Captures of a piece on its square (no en passant).
    Captures,
    /// En-passant captures.
    EnPassant,
    /// Pawn moves to an empty square, en passant excluded.
    PawnQuiet,
    /// Moves of other pieces to an empty square.
    PieceQuiet,
    /// Every legal move.
    All,
}

/// Whether `m` fits `filter` in `pos`.
#[inline]
fn fits(pos: &Chess, m: Move, filter: Filter) -> bool {
    let ep = m.kind() == EN_PASSANT;
    let target_empty = pos.piece_on(m.to()) == NO_PIECE;
    let pawn = usize::from(pos.piece_on(m.from()) & 7) == PAWN;
    match filter {
        Filter::Captures => !ep && !target_empty,
        Filter::EnPassant => ep,
        Filter::PawnQuiet => pawn && !ep && target_empty,
        Filter::PieceQuiet => !pawn && target_empty,
        Filter::All => true,
    }
}

/// The legal moves of `pos` that fit `filter`.
fn moves(pos: &Chess, filter: Filter) -> ChessMoveList {
    let mut list = ChessMoveList::new();
    if filter == Filter::Captures {
        pos.generate_noisy(&mut list);
    } else {
        pos.generate_moves(&mut list);
    }
    list.retain(|m| fits(pos, *m, filter));
    list
}

/// Plays `m`, runs `f`, and takes `m` back whatever `f` answered.
#[inline]
fn with_move<T>(pos: &mut Chess, m: Move, f: impl FnOnce(&mut Chess) -> T) -> T {
    pos.make_move(m);
    let r = f(pos);
    pos.undo_move(m);
    r
}

/// The sign of `wdl` times the DTZ of a zeroing move now (1 for a win, 101 for a cursed win).
fn dtz_before_zeroing(wdl: i32) -> i32 {
    wdl.signum() * if wdl.abs() == 2 { 1 } else { 101 }
}

/// How `probe_ab` found its value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Found {
    /// From the table.
    Table,
    /// From a capture (the best move zeroes the counter).
    Capture,
}

impl Tablebases {
    /// The table's WDL of `pos`, ignoring captures and en passant.
    fn table_wdl(&self, pos: &Chess) -> Result<i32, ProbeError> {
        if pos.occupied() == pos.by_kind[KING] {
            return Ok(0);
        }
        let key = position_key(pos);
        let table = self
            .wdl
            .find(key)
            .ok_or_else(|| ProbeError::MissingTable(format!("{}.rtbw", super::key_name(key))))?;
        table.wdl(pos, key)
    }

    /// The table's DTZ of `pos` for WDL `wdl`, `None` when the table stores the other side.
    fn table_dtz(&self, pos: &Chess, wdl: i32) -> Result<Option<i32>, ProbeError> {
        let key = position_key(pos);
        let table = self
            .dtz
            .find(key)
            .ok_or_else(|| ProbeError::MissingTable(format!("{}.rtbz", super::key_name(key))))?;
        table.dtz(pos, key, wdl)
    }

    /// WDL with captures resolved (alpha-beta over captures, then the table).
    fn probe_ab(
        &self,
        pos: &mut Chess,
        mut alpha: i32,
        beta: i32,
    ) -> Result<(i32, Found), ProbeError> {
        for m in moves(pos, Filter::Captures) {
            let v = -with_move(pos, m, |p| self.probe_ab(p, -beta, -alpha))?.0;
            if v > alpha {
                if v >= beta {
                    return Ok((v, Found::Capture));
                }
                alpha = v;
            }
        }
        let v = self.table_wdl(pos)?;
        if alpha >= v {
            // A capture is at least as good as what the table says.
            let found = if alpha > 0 {
                Found::Capture
            } else {
                Found::Table
            };
            Ok((alpha, found))
        } else {
            Ok((v, Found::Table))
        }
    }

    /// The best WDL over the legal en-passant captures, `None` if there are none.
    fn best_ep(&self, pos: &mut Chess) -> Result<Option<i32>, ProbeError> {
        if pos.ep == NO_SQUARE {
            return Ok(None);
        }
        let mut best = None;
        for m in moves(pos, Filter::EnPassant) {
            let v = -with_move(pos, m, |p| self.probe_ab(p, -2, 2))?.0;
            best = Some(best.map_or(v, |b: i32| b.max(v)));
        }
        Ok(best)
    }

    /// Whether every legal move is an en-passant capture.
    fn only_ep_moves(pos: &Chess) -> bool {
        moves(pos, Filter::All)
            .iter()
            .all(|m| m.kind() == EN_PASSANT)
    }

    /// WDL with captures and en passant resolved.
    pub(super) fn wdl_with_ep(&self, pos: &mut Chess) -> Result<i32, ProbeError> {
        let (mut v, _) = self.probe_ab(pos, -2, 2)?;
        if let Some(v1) = self.best_ep(pos)? {
            if v1 >= v || (v == 0 && Self::only_ep_moves(pos)) {
                v = v1;
            }
        }
        Ok(v)
    }

    /// DTZ with captures resolved, en passant left out.
    fn dtz_no_ep(&self, pos: &mut Chess) -> Result<i32, ProbeError> {
        let (wdl, found) = self.probe_ab(pos, -2, 2)?;
        if wdl == 0 {
            return Ok(0);
        }
        if found == Found::Capture {
            return Ok(dtz_before_zeroing(wdl));
        }
        if wdl > 0 {
            // A pawn move that keeps the result zeroes the counter at once.
            for m in moves(pos, Filter::PawnQuiet) {
                let v = -with_move(pos, m, |p| self.wdl_with_ep(p))?;
                if v == wdl {
                    return Ok(if v == 2 { 1 } else { 101 });
                }
            }
        }
        if let Some(dtz) = self.table_dtz(pos, wdl)? {
            return Ok(dtz_before_zeroing(wdl) + if wdl > 0 { dtz } else { -dtz });
        }
        // The table stores the other side to move: one ply of search.
        if wdl > 0 {
            let mut best = 0xffff;
            for m in moves(pos, Filter::PieceQuiet) {
                let (v, mate) = with_move(pos, m, |p| {
                    let v = -self.dtz_with_ep(p)?;
                    let mate = v == 1 && p.in_check() && moves(p, Filter::All).is_empty();
                    Ok::<_, ProbeError>((v, mate))
                })?;
                if mate {
                    best = 1;
                } else if v > 0 && v + 1 < best {
                    best = v + 1;
                }
            }
            Ok(best)
        } else {
            let mut best = -1;
            for m in moves(pos, Filter::All) {
                let zeroing = m.kind() == EN_PASSANT
                    || pos.piece_on(m.to()) != NO_PIECE
                    || usize::from(pos.piece_on(m.from()) & 7) == PAWN;
                let v = with_move(pos, m, |p| {
                    if zeroing {
                        if wdl == -2 {
                            Ok(-1)
                        } else {
                            let (v, _) = self.probe_ab(p, 1, 2)?;
                            Ok(if v == 2 { 0 } else { -101 })
                        }
                    } else {
                        Ok::<_, ProbeError>(-self.dtz_with_ep(p)? - 1)
                    }
                })?;
                best = best.min(v);
            }
            Ok(best)
        }
    }

    /// DTZ with captures and en passant resolved.
    pub(super) fn dtz_with_ep(&self, pos: &mut Chess) -> Result<i32, ProbeError> {
        let mut v = self.dtz_no_ep(pos)?;
        let Some(v1) = self.best_ep(pos)? else {
            return Ok(v);
        };
        // The DTZ of an en-passant capture (zeroing) with result v1.
        let v1 = match v1 {
            -2 => -1,
            -1 => -101,
            0 => 0,
            1 => 101,
            _ => 1,
        };
        if v < -100 {
            if v1 >= 0 {
                v = v1;
            }
        } else if v < 0 {
            if !(-100..0).contains(&v1) {
                v = v1;
            }
        } else if v > 100 {
            if v1 > 0 {
                v = v1;
            }
        } else if v > 0 {
            if v1 == 1 {
                v = v1;
            }
        } else if v1 >= 0 || Self::only_ep_moves(pos) {
            v = v1;
        }
        Ok(v)
    }
}
