//! The endgame tables chess searches with: the [`Tablebases`] that `SyzygyPath` opened, shared
//! by every search thread, and Stockfish's use of them: WDL probes inside the search and the
//! ranking of the root moves by DTZ with the fifty-move rule.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

use parking_lot::RwLock;

use super::syzygy::{Tablebases, Wdl};
use super::types::*;
use super::{Chess, ChessMoveList};
use crate::game::{MoveBuffer, Outcome, Rules, TableScore};

/// The tables in use (`None`: `SyzygyPath` empty or without tables).
static TABLES: RwLock<Option<Arc<Tablebases>>> = parking_lot::const_rwlock(None);
/// Largest piece count probed: the tables' largest, at most `SyzygyProbeLimit` (0: none).
static CARDINALITY: AtomicUsize = AtomicUsize::new(0);
/// `SyzygyProbeLimit`.
static PROBE_LIMIT: AtomicUsize = AtomicUsize::new(7);
/// `SyzygyProbeDepth`.
static PROBE_DEPTH: AtomicI32 = AtomicI32::new(1);
/// `Syzygy50MoveRule`.
static RULE50: AtomicBool = AtomicBool::new(true);

/// Stockfish's scale of root ranks: certain wins rank `MAX_DTZ`, wins the fifty-move rule spoils
/// rank below `MAX_DTZ / 2`.
const MAX_DTZ: i32 = 1 << 18;

/// Opens the tables of `SyzygyPath` (folders separated by `:`; empty: none) and puts them in
/// use; returns a summary line and one message per folder or file that could not be used.
pub fn set_path(path: &str) -> (String, Vec<String>) {
    let (tables, problems) = Tablebases::open(path.trim());
    let summary = if tables.max_pieces() == 0 {
        if path.trim().is_empty() {
            "Syzygy tables off".to_string()
        } else {
            format!("no Syzygy tables found in {}", path.trim())
        }
    } else {
        format!(
            "found {} WDL and {} DTZ Syzygy tables, up to {} pieces",
            tables.wdl_count(),
            tables.dtz_count(),
            tables.max_pieces()
        )
    };
    let max = tables.max_pieces();
    *TABLES.write() = (max > 0).then(|| Arc::new(tables));
    update_cardinality(max);
    (summary, problems)
}

fn update_cardinality(max: usize) {
    CARDINALITY.store(max.min(PROBE_LIMIT.load(Relaxed)), Relaxed);
}

/// Sets `SyzygyProbeDepth`, `Syzygy50MoveRule` and `SyzygyProbeLimit`.
pub fn configure(probe_depth: i32, rule50: bool, probe_limit: usize) {
    PROBE_DEPTH.store(probe_depth, Relaxed);
    RULE50.store(rule50, Relaxed);
    PROBE_LIMIT.store(probe_limit, Relaxed);
    let max = TABLES.read().as_ref().map_or(0, |t| t.max_pieces());
    update_cardinality(max);
}

/// The tables in use, if any.
pub fn tables() -> Option<Arc<Tablebases>> {
    TABLES.read().clone()
}

/// Whether tables are in use (for `tbhits` on `info` lines).
pub fn loaded() -> bool {
    CARDINALITY.load(Relaxed) > 0
}

/// Whether `pos` has few enough pieces and no castling rights, so that the tables may know it.
fn probeable(pos: &Chess) -> bool {
    let pieces = pos.occupied().count_ones() as usize;
    pos.castling == 0 && pieces <= CARDINALITY.load(Relaxed)
}

/// The search's probe at a node of `depth` (Stockfish's conditions): a capture or pawn move
/// led here, and the position has fewer pieces than the tables' largest, or as many and the
/// node is at least `SyzygyProbeDepth` deep. ±2 win or loss, ±1 a win or loss the fifty-move
/// rule spoils (with `Syzygy50MoveRule`; without, they count as wins and losses), 0 draw.
pub fn search_probe(pos: &mut Chess, depth: i32) -> Option<i32> {
    let cardinality = CARDINALITY.load(Relaxed);
    let pieces = pos.occupied().count_ones() as usize;
    if pos.halfmove != 0
        || pos.castling != 0
        || pieces > cardinality
        || (pieces == cardinality && depth < PROBE_DEPTH.load(Relaxed))
    {
        return None;
    }
    let tables = tables()?;
    let wdl = tables.probe_wdl(pos).ok()?;
    Some(wdl_value(wdl, RULE50.load(Relaxed)))
}

/// A WDL result as the search counts it (see [`search_probe`]).
fn wdl_value(wdl: Wdl, rule50: bool) -> i32 {
    match wdl {
        Wdl::Win => 2,
        Wdl::Loss => -2,
        Wdl::CursedWin if rule50 => 1,
        Wdl::CursedWin => 2,
        Wdl::BlessedLoss if rule50 => -1,
        Wdl::BlessedLoss => -2,
        Wdl::Draw => 0,
    }
}

/// The DTZ of the position after a zeroing move (capture or pawn move) with result `wdl`.
fn dtz_before_zeroing(wdl: Wdl) -> i32 {
    match wdl {
        Wdl::Win => 1,
        Wdl::CursedWin => 101,
        Wdl::Draw => 0,
        Wdl::BlessedLoss => -101,
        Wdl::Loss => -1,
    }
}

/// Ranks the root moves `moves` of `pos` by the tables, as Stockfish does: each move's DTZ
/// counted from the root, then wins that the fifty-move rule (with the root's halfmove clock)
/// allows rank highest and equal, spoilt wins and draws below, losses lowest. `None` when the
/// position is not in the tables or a probe fails. With DTZ tables missing, moves are ranked by
/// WDL alone. The second value says whether the search should still probe (only when ranked
/// by WDL).
pub fn rank_root(pos: &mut Chess, moves: &[Move]) -> Option<(Vec<(i32, TableScore)>, bool)> {
    if !probeable(pos) || moves.is_empty() {
        return None;
    }
    let tables = tables()?;
    let rule50 = RULE50.load(Relaxed);
    let saved = pos.nnue.take();
    let ranked = rank_by_dtz(&tables, pos, moves, rule50)
        .map(|r| (r, false))
        .or_else(|| rank_by_wdl(&tables, pos, moves, rule50).map(|r| (r, true)));
    pos.nnue = saved;
    ranked
}

fn rank_by_dtz(
    tables: &Tablebases,
    pos: &mut Chess,
    moves: &[Move],
    rule50: bool,
) -> Option<Vec<(i32, TableScore)>> {
    let cnt50 = pos.halfmove as i32;
    let repeated = pos.has_repeated();
    let bound = if rule50 { MAX_DTZ / 2 - 100 } else { 1 };
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        pos.do_move(m);
        let dtz = if pos.halfmove == 0 {
            tables.probe_wdl(pos).ok().map(|w| -dtz_before_zeroing(w))
        } else if pos.rule_outcome() == Some(Outcome::Draw) {
            Some(0)
        } else {
            tables.probe_dtz(pos).ok().map(|d| {
                let d = -d;
                d + d.signum()
            })
        };
        let mate = pos.checkers != 0 && {
            let mut list = ChessMoveList::default();
            pos.generate_moves(&mut list);
            list.moves().is_empty()
        };
        pos.undo(m);
        let mut dtz = dtz?;
        if mate && dtz == 2 {
            dtz = 1;
        }
        let rank = if dtz > 0 {
            if dtz + cnt50 <= 99 && !repeated {
                MAX_DTZ
            } else {
                MAX_DTZ / 2 - (dtz + cnt50)
            }
        } else if dtz < 0 {
            if -dtz * 2 + cnt50 < 100 {
                -MAX_DTZ
            } else {
                -MAX_DTZ / 2 + (-dtz + cnt50)
            }
        } else {
            0
        };
        out.push((rank, root_score(rank, bound)));
    }
    Some(out)
}

/// The score shown for a root move of rank `rank`: a table win or loss beyond `bound`, else a
/// small value that grows as a spoilt win gets closer to a real one (at least 3 cp).
fn root_score(rank: i32, bound: i32) -> TableScore {
    if rank >= bound {
        TableScore::Win
    } else if rank > 0 {
        TableScore::Value((rank - (MAX_DTZ / 2 - 200)).max(3) * 100 / 200)
    } else if rank == 0 {
        TableScore::Value(0)
    } else if rank > -bound {
        TableScore::Value((rank + (MAX_DTZ / 2 - 200)).min(-3) * 100 / 200)
    } else {
        TableScore::Loss
    }
}

fn rank_by_wdl(
    tables: &Tablebases,
    pos: &mut Chess,
    moves: &[Move],
    rule50: bool,
) -> Option<Vec<(i32, TableScore)>> {
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        pos.do_move(m);
        let wdl = tables.probe_wdl(pos);
        pos.undo(m);
        let v = -wdl_value(wdl.ok()?, rule50);
        let score = match v {
            2 => TableScore::Win,
            -2 => TableScore::Loss,
            v => TableScore::Value(v),
        };
        out.push((v, score));
    }
    Some(out)
}

/// The referee's verdict (see [`crate::game::Records::table_outcome`]).
pub fn adjudicate(pos: &Chess, max_pieces: usize, ignore_move_rule: bool) -> Option<Outcome> {
    let tables = tables()?;
    let pieces = pos.occupied().count_ones() as usize;
    if pos.castling != 0 || pieces > tables.max_pieces() || (max_pieces > 0 && pieces > max_pieces)
    {
        return None;
    }
    let mut pos = pos.clone();
    pos.nnue = None;
    let us = pos.side();
    Some(match tables.probe_wdl(&mut pos).ok()? {
        Wdl::Win => Outcome::Win(us),
        Wdl::Loss => Outcome::Win(us ^ 1),
        Wdl::CursedWin if ignore_move_rule => Outcome::Win(us),
        Wdl::BlessedLoss if ignore_move_rule => Outcome::Win(us ^ 1),
        _ => Outcome::Draw,
    })
}

/// What `d` and `eval` show: the tables' WDL and DTZ of `pos`, or why they do not know it.
pub fn describe(pos: &Chess) -> Option<String> {
    let tables = tables()?;
    let mut pos = pos.clone();
    pos.nnue = None;
    let pieces = pos.occupied().count_ones() as usize;
    if pos.castling != 0 || pieces > tables.max_pieces() {
        return Some(format!(
            "Tablebase: not probed ({pieces} pieces{})",
            if pos.castling != 0 {
                ", castling rights"
            } else {
                ""
            }
        ));
    }
    let wdl = tables.probe_wdl(&mut pos);
    let dtz = tables.probe_dtz(&mut pos);
    Some(match (wdl, dtz) {
        (Ok(w), Ok(d)) => format!("Tablebase: WDL {} ({w:?}), DTZ {d}", w as i32),
        (Ok(w), Err(e)) => format!("Tablebase: WDL {} ({w:?}), DTZ unknown: {e}", w as i32),
        (Err(e), _) => format!("Tablebase: unknown: {e}"),
    })
}
