//! Move ordering: the table move first, then noisy moves by the game's MVV-LVA hint
//! ([`crate::game::SearchHints::noisy_order`]), then the two killers of the ply, the counter move of
//! the previous move, and the other quiet moves by history plus continuation history (indexed
//! by the previous move and the move, hashed).
//!
//! Histories are indexed by `player * 65536 + move.to_bits()`, so they are game-agnostic and
//! live in [`ThreadState`], one per search thread, kept between searches.

use crate::game::{GameMove, SearchHints};

use super::MAX_PLY;

/// Score of the transposition-table move.
pub(crate) const TT_MOVE: i32 = 4_000_000;
/// Base score of noisy moves (plus `noisy_order`).
pub(crate) const NOISY: i32 = 2_000_000;
/// First killer.
pub(crate) const KILLER_1: i32 = 1_000_002;
/// Second killer.
pub(crate) const KILLER_2: i32 = 1_000_001;
/// Counter move.
pub(crate) const COUNTER: i32 = 1_000_000;
/// Base score of noisy moves that lose material by static exchange (after every quiet move).
const BAD_NOISY: i32 = -2_000_000;
/// History values stay within +-HISTORY_MAX.
const HISTORY_MAX: i32 = 16_384;
/// No move in a killer or counter-move slot, or no previous move.
pub(crate) const NO_MOVE: u32 = u32::MAX;
/// The previous move was a null move.
pub(crate) const NULL_MOVE: u32 = u32::MAX - 1;

/// Per-thread ordering state kept between searches (cleared by `ucinewgame`).
#[derive(Clone, Debug, Default)]
pub struct ThreadState {
    history: Vec<i16>,
    counter: Vec<u32>,
    /// Continuation history (previous move, move), hashed into [`CONTINUATION_SIZE`] cells.
    continuation: Vec<i16>,
    /// Follow-up history (the move two plies before, move), hashed like `continuation`.
    followup: Vec<i16>,
    /// Capture history, indexed like `history`.
    capture: Vec<i16>,
    /// Static-evaluation corrections by (player, structure key), in 1/[`CORRECTION_GRAIN`].
    correction: Vec<i32>,
    /// With `Use Piece Correction`: corrections by (side of the key, player, piece key), like
    /// `correction`.
    piece_correction: Vec<i32>,
    killers: Vec<[u32; 2]>,
}

/// Cells of the correction history per player.
const CORRECTION_SIZE: usize = 1 << 14;
/// Fixed-point scale of the correction history.
const CORRECTION_GRAIN: i32 = 256;
/// Corrections stay within +-CORRECTION_MAX / CORRECTION_GRAIN evaluation units.
const CORRECTION_MAX: i32 = 64 * CORRECTION_GRAIN;

/// The keys a node's static evaluation is corrected under: the game's structure key and, with
/// `Use Piece Correction`, each side's piece key.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CorrectionKeys {
    /// [`SearchHints::structure_key`].
    pub structure: u64,
    /// [`SearchHints::piece_keys`], where used.
    pub pieces: Option<[u64; 2]>,
}

/// Which ordering refinements a search uses (from its game's search settings).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct OrderFlags {
    /// Noisy moves that lose material by static exchange go after the quiet moves.
    pub bad_noisy_last: bool,
    /// Capture history breaks ties among noisy moves.
    pub capture_history: bool,
}

impl ThreadState {
    /// Makes room for `players` players and clears the killers (called at each search start).
    pub(crate) fn prepare(&mut self, players: usize) {
        let players = players.max(2);
        if self.history.len() < players << 16 {
            self.history.resize(players << 16, 0);
            self.capture.resize(players << 16, 0);
            self.correction.resize(players * CORRECTION_SIZE, 0);
            self.piece_correction
                .resize(2 * players * CORRECTION_SIZE, 0);
        }
        if self.counter.len() != 1 << 16 {
            self.counter = vec![NO_MOVE; 1 << 16];
        }
        if self.continuation.len() != CONTINUATION_SIZE {
            self.continuation = vec![0; CONTINUATION_SIZE];
        }
        if self.followup.len() != CONTINUATION_SIZE {
            self.followup = vec![0; CONTINUATION_SIZE];
        }
        self.killers.clear();
        self.killers.resize(MAX_PLY + 2, [NO_MOVE; 2]);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.history.iter_mut().for_each(|h| *h = 0);
        self.capture.iter_mut().for_each(|h| *h = 0);
        self.correction.iter_mut().for_each(|h| *h = 0);
        self.piece_correction.iter_mut().for_each(|h| *h = 0);
        self.counter.iter_mut().for_each(|c| *c = NO_MOVE);
        self.continuation.iter_mut().for_each(|c| *c = 0);
        self.followup.iter_mut().for_each(|c| *c = 0);
        self.killers.iter_mut().for_each(|k| *k = [NO_MOVE; 2]);
    }

    #[inline]
    pub(crate) fn history(&self, player: usize, bits: u16) -> i32 {
        i32::from(self.history[(player << 16) | usize::from(bits)])
    }

    #[inline]
    pub(crate) fn killers(&self, ply: usize) -> [u32; 2] {
        self.killers[ply]
    }

    #[inline]
    pub(crate) fn counter(&self, previous: u32) -> u32 {
        if previous > 0xFFFF {
            NO_MOVE
        } else {
            self.counter[previous as usize & 0xFFFF]
        }
    }

    /// Starts loading the continuation-history line of `bits` after `previous` (see
    /// [`score_moves`]).
    #[inline]
    fn prefetch_continuation(&self, previous: u32, bits: u16) {
        if previous <= 0xFFFF {
            if let Some(cell) = self.continuation.get(continuation_index(previous, bits)) {
                super::prefetch::prefetch(cell);
            }
        }
    }

    /// Continuation-history value of `bits` after the move `previous` (0 without one).
    #[inline]
    pub(crate) fn continuation(&self, previous: u32, bits: u16) -> i32 {
        if previous > 0xFFFF {
            0
        } else {
            i32::from(self.continuation[continuation_index(previous, bits)])
        }
    }

    /// Follow-up history value of `bits` two plies after the move `before` (with `Use Followup
    /// History`: in two-player games the mover's own previous move; 0 without one).
    #[inline]
    pub(crate) fn followup(&self, before: u32, bits: u16) -> i32 {
        if before > 0xFFFF {
            0
        } else {
            i32::from(self.followup[continuation_index(before, bits)])
        }
    }

    fn add_followup(&mut self, before: u32, bits: u16, bonus: i32) {
        if before <= 0xFFFF {
            gravity(&mut self.followup[continuation_index(before, bits)], bonus);
        }
    }

    fn add_history(&mut self, player: usize, bits: u16, bonus: i32) {
        gravity(&mut self.history[(player << 16) | usize::from(bits)], bonus);
    }

    fn add_continuation(&mut self, previous: u32, bits: u16, bonus: i32) {
        if previous <= 0xFFFF {
            gravity(
                &mut self.continuation[continuation_index(previous, bits)],
                bonus,
            );
        }
    }

    #[inline]
    pub(crate) fn capture_history(&self, player: usize, bits: u16) -> i32 {
        i32::from(self.capture[(player << 16) | usize::from(bits)])
    }

    /// A noisy move `best` (if any) caused a beta cutoff after the noisy moves `tried` failed
    /// (`bonus` from [`history_bonus`]).
    pub(crate) fn update_noisy(
        &mut self,
        player: usize,
        best: Option<u16>,
        tried: &[u16],
        bonus: i32,
    ) {
        if let Some(b) = best {
            gravity(&mut self.capture[(player << 16) | usize::from(b)], bonus);
        }
        for &m in tried {
            if Some(m) != best {
                gravity(&mut self.capture[(player << 16) | usize::from(m)], -bonus);
            }
        }
    }

    /// The learnt error of the static evaluation for `player` under `keys`: the structure's
    /// correction, plus both sides' piece corrections where `keys` has them.
    #[inline]
    pub(crate) fn correction(&self, player: usize, keys: &CorrectionKeys) -> i32 {
        let mut c = self.correction[correction_index(player, keys.structure)];
        if let Some(pieces) = keys.pieces {
            let players = self.correction.len() / CORRECTION_SIZE;
            for (side, &k) in pieces.iter().enumerate() {
                c += self.piece_correction[correction_index(side * players + player, k)];
            }
        }
        c / CORRECTION_GRAIN
    }

    /// Moves the corrections for (`player`, `keys`), more for deeper searches: without piece
    /// keys, the structure's toward `error` (search result minus the static evaluation); with
    /// them, each of the three by `residual` (search result minus the corrected evaluation), so
    /// that their sum learns the error.
    pub(crate) fn update_correction(
        &mut self,
        player: usize,
        keys: &CorrectionKeys,
        error: i32,
        residual: i32,
        depth: i32,
    ) {
        let weight = (depth + 1).min(16);
        let limit = CORRECTION_MAX / CORRECTION_GRAIN;
        let slot = &mut self.correction[correction_index(player, keys.structure)];
        let Some(pieces) = keys.pieces else {
            let target = error.clamp(-limit, limit) * CORRECTION_GRAIN;
            *slot = ((*slot * (256 - weight) + target * weight) / 256)
                .clamp(-CORRECTION_MAX, CORRECTION_MAX);
            return;
        };
        let step = residual.clamp(-limit, limit) * CORRECTION_GRAIN * weight / 256;
        *slot = (*slot + step).clamp(-CORRECTION_MAX, CORRECTION_MAX);
        let players = self.correction.len() / CORRECTION_SIZE;
        for (side, &k) in pieces.iter().enumerate() {
            let slot = &mut self.piece_correction[correction_index(side * players + player, k)];
            *slot = (*slot + step).clamp(-CORRECTION_MAX, CORRECTION_MAX);
        }
    }

    /// A quiet move `best` caused a beta cutoff after the quiet moves `tried` failed;
    /// `previous` is the move before, `before` the one before that ([`NO_MOVE`] when the
    /// follow-up history is off); `bonus` from [`history_bonus`].
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn update_quiet(
        &mut self,
        player: usize,
        ply: usize,
        previous: u32,
        before: u32,
        best: u16,
        tried: &[u16],
        bonus: i32,
    ) {
        self.add_history(player, best, bonus);
        self.add_continuation(previous, best, bonus);
        self.add_followup(before, best, bonus);
        for &m in tried {
            if m != best {
                self.add_history(player, m, -bonus);
                self.add_continuation(previous, m, -bonus);
                self.add_followup(before, m, -bonus);
            }
        }
        let killers = &mut self.killers[ply];
        if killers[0] != u32::from(best) {
            killers[1] = killers[0];
            killers[0] = u32::from(best);
        }
        if previous <= 0xFFFF {
            self.counter[previous as usize & 0xFFFF] = u32::from(best);
        }
    }
}

/// The history bonus of a cutoff at `depth` (and the malus of the moves tried before it): with
/// `History Bonus Slope` 0 the square of the depth, at most 1200; else `slope * depth`, at most
/// an eighth of the history's range.
#[inline]
pub(crate) fn history_bonus(depth: i32, slope: i32) -> i32 {
    if slope == 0 {
        (depth * depth).min(1200)
    } else {
        (slope * depth).min(HISTORY_MAX / 8)
    }
}

/// Cells of the continuation history (2 MiB of `i16` per thread).
const CONTINUATION_SIZE: usize = 1 << 20;

#[inline]
fn correction_index(player: usize, key: u64) -> usize {
    player * CORRECTION_SIZE + (key >> 50) as usize % CORRECTION_SIZE
}

/// Hashes (previous move, move) into the continuation table.
#[inline]
fn continuation_index(previous: u32, bits: u16) -> usize {
    let key = (previous << 16) | u32::from(bits);
    (key.wrapping_mul(0x9E37_79B1) >> 12) as usize
}

/// Moves a history value towards +-HISTORY_MAX by `bonus`, slower near the ends.
#[inline]
fn gravity(slot: &mut i16, bonus: i32) {
    let old = i32::from(*slot);
    let new = old + bonus - old * bonus.abs() / HISTORY_MAX;
    *slot = new.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

/// Writes an ordering score for every move of `moves` into `scores` (appended); `previous` is
/// the move before, `before` the one before that ([`NO_MOVE`] when the follow-up history is off).
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) fn score_moves<G: SearchHints>(
    pos: &G,
    moves: &[G::Move],
    scores: &mut Vec<i32>,
    state: &ThreadState,
    tt_move: Option<u16>,
    ply: usize,
    previous: u32,
    before: u32,
    flags: OrderFlags,
) {
    let player = pos.side_to_move();
    let killers = state.killers(ply);
    let counter = state.counter(previous);
    // The continuation history's cells are hashed all over its 2 MiB: ask for every move's
    // line first, so that the loads overlap instead of waiting one by one in the loop below.
    if previous <= 0xFFFF {
        for &m in moves {
            state.prefetch_continuation(previous, m.to_bits());
        }
    }
    for &m in moves {
        let bits = m.to_bits();
        let score = if Some(bits) == tt_move {
            TT_MOVE
        } else if pos.is_noisy(m) {
            let hint = pos.noisy_order(m).clamp(-99_999, 99_999)
                + if flags.capture_history {
                    state.capture_history(player, bits) / 64
                } else {
                    0
                };
            if flags.bad_noisy_last && !pos.see_ge(m, 0) {
                BAD_NOISY + hint
            } else {
                NOISY + hint
            }
        } else if u32::from(bits) == killers[0] {
            KILLER_1
        } else if u32::from(bits) == killers[1] {
            KILLER_2
        } else if u32::from(bits) == counter {
            COUNTER
        } else {
            state.history(player, bits)
                + state.continuation(previous, bits)
                + state.followup(before, bits)
        };
        scores.push(score);
    }
}

/// Moves the best-scored move of `moves[i..]` to index `i` (selection sort step);
/// `scores` holds the scores of `moves` in the same order.
#[inline]
pub(crate) fn pick<M: Copy>(moves: &mut [M], scores: &mut [i32], i: usize) {
    // The first of the highest scores: the highest found without a branch per move (the
    // compiler vectorises `max`), then its first place.
    let Some(rest) = scores.get(i..moves.len()) else {
        return;
    };
    let Some(high) = rest.iter().copied().max() else {
        return;
    };
    let best = i + rest.iter().position(|&s| s == high).unwrap_or(0);
    if best != i {
        moves.swap(i, best);
        scores.swap(i, best);
    }
}

#[cfg(test)]
#[allow(clippy::expect_used, clippy::unwrap_used)]
mod tests {
    //! Orderings of hand-checked positions: which captures lose material is worked out by hand
    //! for each position (and stated next to it), not read from the exchange test.
    use super::*;
    use crate::game::chess::Chess;
    use crate::game::prelude::*;
    use crate::game::xiangqi::Xiangqi;
    use crate::game::MoveBuffer;

    const BOTH_OFF: OrderFlags = OrderFlags {
        bad_noisy_last: false,
        capture_history: false,
    };

    /// `pick` brings the first of the highest scores forward at each step, the order of the
    /// plain selection sort it replaced (written out here as the reference), ties and all.
    #[test]
    fn pick_orders_as_the_plain_selection_sort() {
        fn reference(moves: &mut [u16], scores: &mut [i32], i: usize) {
            let mut best = i;
            for j in i + 1..moves.len() {
                if scores[j] > scores[best] {
                    best = j;
                }
            }
            moves.swap(i, best);
            scores.swap(i, best);
        }
        let mut seed = 7u64;
        for n in [1usize, 2, 5, 40, 218] {
            for spread in [3u64, 1000, u64::from(u32::MAX)] {
                let scores: Vec<i32> = (0..n)
                    .map(|_| {
                        ((crate::splitmix::next(&mut seed) % spread) as i64 as i32)
                            .wrapping_sub(500)
                    })
                    .chain([i32::MIN, i32::MAX, TT_MOVE, BAD_NOISY])
                    .collect();
                let moves: Vec<u16> = (0..scores.len() as u16).collect();
                let (mut m1, mut s1) = (moves.clone(), scores.clone());
                let (mut m2, mut s2) = (moves, scores);
                for i in 0..m1.len() {
                    pick(&mut m1, &mut s1, i);
                    reference(&mut m2, &mut s2, i);
                }
                assert_eq!(m1, m2, "n {n} spread {spread}");
            }
        }
        // Out of range: nothing moves.
        let (mut m, mut s) = (vec![1u16, 2], vec![5, 9]);
        pick(&mut m, &mut s, 2);
        assert_eq!(m, [1, 2]);
    }

    fn position<G: Game>(fen: &str) -> G {
        G::from_fen(fen, &G::Config::default()).expect("fen")
    }

    fn bits<G: Game>(pos: &G, token: &str) -> u16 {
        pos.parse_move(token, &G::Config::default())
            .expect("legal move")
            .to_bits()
    }

    /// The legal moves of `pos` in the order a search tries them (best score first, ties in
    /// generation order, as the root sorts them), with no table move and no previous move.
    fn ordered<G: Game>(pos: &G, state: &ThreadState, flags: OrderFlags) -> Vec<String> {
        let config = G::Config::default();
        let mut list = G::MoveList::default();
        pos.generate_moves(&mut list);
        let mut scores = Vec::new();
        score_moves(
            pos,
            list.moves(),
            &mut scores,
            state,
            None,
            1,
            NO_MOVE,
            NO_MOVE,
            flags,
        );
        let mut keyed: Vec<(i32, usize)> = scores.into_iter().zip(0..).collect();
        keyed.sort_by_key(|&(s, i)| (-s, i));
        keyed
            .into_iter()
            .map(|(_, i)| pos.format_move(list.moves()[i], &config))
            .collect()
    }

    fn fresh() -> ThreadState {
        let mut state = ThreadState::default();
        state.prepare(2);
        state
    }

    /// `winning` comes first; `losing` comes right after the other captures with the switch off
    /// and after every quiet move with it on.
    fn check_losing_capture_last<G: Game>(fen: &str, winning: &str, losing: &str) {
        let pos = position::<G>(fen);
        let state = fresh();
        let on = OrderFlags {
            bad_noisy_last: true,
            ..BOTH_OFF
        };
        let quiet = |m: &String| m != winning && m != losing;
        let off_order = ordered(&pos, &state, BOTH_OFF);
        assert_eq!(off_order[0], winning, "{fen}: off: {off_order:?}");
        assert_eq!(off_order[1], losing, "{fen}: off: {off_order:?}");
        assert!(off_order[2..].iter().all(quiet), "{fen}: {off_order:?}");
        let on_order = ordered(&pos, &state, on);
        assert_eq!(on_order[0], winning, "{fen}: on: {on_order:?}");
        assert_eq!(
            on_order.last().map(String::as_str),
            Some(losing),
            "{fen}: on: {on_order:?}"
        );
        assert!(
            on_order.len() > 3 && on_order[1..on_order.len() - 1].iter().all(quiet),
            "{fen}: {on_order:?}"
        );
    }

    #[test]
    fn chess_losing_captures_go_after_the_quiet_moves() {
        // Qxh6 wins a knight nothing defends; Qxd5 cxd5 loses the queen for a pawn.
        check_losing_capture_last::<Chess>("4k3/8/2p4n/3p4/8/8/3Q4/4K3 w - - 0 1", "d2h6", "d2d5");
    }

    #[test]
    fn xiangqi_losing_captures_go_after_the_quiet_moves() {
        // Rxa3 wins a horse nothing defends; Rxe6 Rxe6 loses the chariot for a pawn.
        check_losing_capture_last::<Xiangqi>(
            "4k4/4r4/9/4p4/9/9/n3R4/9/9/3K5 w - - 0 1",
            "e3a3",
            "e3e6",
        );
    }

    /// Two captures of the same piece by the same piece, both free: equal hints. Capture history
    /// puts the one that last caused a cutoff first, only with the switch on.
    fn check_capture_history<G: Game>(fen: &str, first: &str, second: &str) {
        let pos = position::<G>(fen);
        let on = OrderFlags {
            capture_history: true,
            ..BOTH_OFF
        };
        let (a, b) = (bits(&pos, first), bits(&pos, second));
        let player = pos.side_to_move();
        let captures = |order: Vec<String>| -> Vec<String> {
            order
                .into_iter()
                .filter(|m| m == first || m == second)
                .collect()
        };
        let generated = captures(ordered(&pos, &fresh(), BOTH_OFF));
        assert_eq!(generated.len(), 2, "{fen}: {generated:?}");
        for (best, other) in [(first, second), (second, first)] {
            let mut state = fresh();
            let best_bits = if best == first { a } else { b };
            state.update_noisy(player, Some(best_bits), &[a, b], history_bonus(10, 0));
            assert_eq!(
                captures(ordered(&pos, &state, on)),
                [best, other],
                "{fen}: {best} caused the cutoff"
            );
            assert_eq!(
                captures(ordered(&pos, &state, BOTH_OFF)),
                generated,
                "{fen}: the switch off ignores capture history"
            );
            let order = ordered(&pos, &state, on);
            assert_eq!(order[..2], [best, other], "{fen}: captures before quiets");
        }
    }

    /// One update at depth 15 (weight 16 of 256) by a residual of 64: without piece keys the
    /// structure's slot moves 16/256 of the way to the error (4 of 64); with them each of the
    /// three slots moves by 64 x 16/256 = 4, so the sum is 12, 8 for a position sharing the
    /// pawns and black's pieces, 4 for one sharing the pawns alone.
    #[test]
    fn piece_corrections_add_up_and_learn_what_the_sum_misses() {
        let plain = CorrectionKeys {
            structure: 1 << 60,
            pieces: None,
        };
        let mut state = fresh();
        state.update_correction(0, &plain, 64, 64, 15);
        assert_eq!(state.correction(0, &plain), 4);
        assert_eq!(state.correction(1, &plain), 0, "per player");

        let keys = CorrectionKeys {
            structure: 1 << 60,
            pieces: Some([2 << 58, 3 << 58]),
        };
        let mut state = fresh();
        state.update_correction(0, &keys, 1000, 64, 15);
        assert_eq!(state.correction(0, &keys), 12);
        let other_white = CorrectionKeys {
            pieces: Some([5 << 58, 3 << 58]),
            ..keys
        };
        assert_eq!(state.correction(0, &other_white), 8);
        assert_eq!(state.correction(0, &plain), 4);
        assert_eq!(state.correction(1, &keys), 0, "per player");

        // Fed the residual of a constant error, the sum converges to the error.
        let mut state = fresh();
        for _ in 0..200 {
            let residual = 40 - state.correction(0, &keys);
            state.update_correction(0, &keys, 40, residual, 15);
        }
        let c = state.correction(0, &keys);
        assert!((38..=40).contains(&c), "{c}");
        // Each slot stays within its bound (64): the sum can reach three times that.
        let mut state = fresh();
        for _ in 0..400 {
            state.update_correction(0, &keys, 1000, 1000, 15);
        }
        assert_eq!(state.correction(0, &keys), 192);
    }

    #[test]
    fn chess_capture_history_orders_equal_captures() {
        check_capture_history::<Chess>("4k3/8/8/8/p2R3p/8/8/4K3 w - - 0 1", "d4a4", "d4h4");
    }

    #[test]
    fn xiangqi_capture_history_orders_equal_captures() {
        check_capture_history::<Xiangqi>("5k3/9/9/9/p3R3p/9/9/9/9/3K5 w - - 0 1", "e5a5", "e5i5");
    }
}
