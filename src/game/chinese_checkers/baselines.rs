//! Baseline players with rules other than the greedy one ([`super::greedy`]), so that the search
//! is measured against more than one kind of opponent (`CC Player` `rear`, `jump`, `shallow`).
//!
//! All three measure progress like the greedy rule, by the plain (hex) distance `d(c)` from a
//! cell to the tip of the mover's target triangle, and call a move's *gain* `d(from) - d(to)`;
//! they differ in what they prefer:
//!
//! - **rear** (rear piece first): of the moves that gain, one of the rearmost piece (the largest
//!   `d(from)`), then the largest gain. It brings its stragglers along before its leaders.
//! - **jump** (longest jump first): of the moves that gain, the one covering the longest straight
//!   distance `plain_distance(from, to)`, then the largest gain. It races its fastest ladders.
//! - **shallow** (a two-move search): the move after which its best next move leaves the
//!   smallest sum of `d` over its pieces, the other players frozen (a winning move first, then
//!   the larger gain now). It sets up its own ladders.
//!
//! When no move gains, rear and jump play the greedy move (largest gain, then rearmost). Ties go
//! to a seeded hash of the position and the move (`CC Greedy Seed`), as in the greedy player.

use super::cells::{CellSet, TABLES};
use super::distance::plain_distance;
use super::greedy::{greedy_choice, is_greedy, mix, Player};
use super::{ChineseCheckers, Move, MAX_PIECES_PER_PLAYER};
use crate::game::Rules as _;
use crate::game::{GameMove, MoveBuffer, MAX_POLICY_TIES};
use arrayvec::ArrayVec;

type List = <ChineseCheckers as crate::game::Rules>::MoveList;

/// The legal moves of the side to move.
fn moves(pos: &ChineseCheckers) -> List {
    let mut list = List::default();
    pos.generate_moves(&mut list);
    list
}

/// `(d(from), d(to), plain_distance(from, to))` of a move for the side to move; `None` for the
/// pass.
fn measures(pos: &ChineseCheckers, m: Move) -> Option<(i32, i32, i32)> {
    if m.is_pass() {
        return None;
    }
    let (from, to) = (m.from_cell()?, m.to_cell()?);
    let tip = pos.target(pos.side_to_move()).tip();
    Some((
        plain_distance(from, tip) as i32,
        plain_distance(to, tip) as i32,
        plain_distance(from, to) as i32,
    ))
}

/// The move of the largest `key` among the moves that gain, ties by the seeded hash; the greedy
/// move when none gains.
fn best_gaining(
    pos: &ChineseCheckers,
    seed: u64,
    key: impl Fn(i32, i32, i32) -> (i32, i32),
) -> Option<Move> {
    let salt = mix(seed ^ mix(pos.hash()));
    let mut best: Option<((i32, i32, u64), Move)> = None;
    for &m in moves(pos).moves() {
        let Some((d_from, d_to, length)) = measures(pos, m) else {
            continue;
        };
        if d_from <= d_to {
            continue;
        }
        let (a, b) = key(d_from, d_to, length);
        let k = (a, b, mix(salt ^ u64::from(m.to_bits())));
        if best.is_none_or(|(b, _)| k > b) {
            best = Some((k, m));
        }
    }
    best.map(|(_, m)| m).or_else(|| greedy_choice(pos, seed))
}

/// The key of `rule` (rear or jump) for a gaining move, larger preferred.
fn gaining_key(rule: Player, d_from: i32, d_to: i32, length: i32) -> (i32, i32) {
    match rule {
        Player::Jump => (length, d_from - d_to),
        _ => (d_from, d_from - d_to),
    }
}

/// Whether `m` is a move `rule` (greedy, rear or jump) may play here with some tie seed: a
/// legal move of the rule's best key (for rear and jump the greedy rule's when no move gains).
/// Always false for the search and the shallow search.
pub fn is_rule_move(pos: &ChineseCheckers, rule: Player, m: Move) -> bool {
    match rule {
        Player::Greedy => return is_greedy(pos, m),
        Player::Rear | Player::Jump => {}
        Player::Search | Player::Shallow => return false,
    }
    let list = moves(pos);
    if !list.moves().contains(&m) {
        return false;
    }
    let key = |x: Move| {
        measures(pos, x)
            .filter(|&(f, t, _)| f > t)
            .map(|(f, t, l)| gaining_key(rule, f, t, l))
    };
    match list.moves().iter().filter_map(|&x| key(x)).max() {
        Some(best) => key(m) == Some(best),
        None => is_greedy(pos, m),
    }
}

/// Every move `rule` (greedy, rear or jump) may play here with some tie seed, in move-generation
/// order, into `out` (cleared first; the first [`MAX_POLICY_TIES`] where there are more): the
/// legal moves of the rule's best key, the moves [`is_rule_move`] accepts. Returns the move the
/// rule plays with tie seed `seed` (`rule.choice(pos, seed)`). One move generation: the keys
/// come from each piece's set of destinations and a table of distances to the mover's target
/// tip, not move by move. Nothing (and `None`) for the search and the shallow search.
pub fn rule_ties(
    pos: &ChineseCheckers,
    rule: Player,
    seed: u64,
    out: &mut ArrayVec<Move, MAX_POLICY_TIES>,
) -> Option<Move> {
    out.clear();
    if matches!(rule, Player::Search | Player::Shallow) {
        return None;
    }
    // One pass over the pieces and the cells each reaches (the move generator's sets), measured
    // with the distance table of the mover's target tip; then the ties are read from the same
    // sets, in move-generation order (pieces, then destinations, by cell index).
    let target = pos.target(pos.side_to_move()).index();
    let dist = &TABLES.tip_distance[target];
    let jump = matches!(rule, Player::Jump);
    let mut pieces: ArrayVec<(usize, CellSet), MAX_PIECES_PER_PLAYER> = ArrayVec::new();
    // The greedy key (gain, d(from)) over every move, and the rule's own over the gaining ones.
    let mut greedy: Option<(i32, i32)> = None;
    let mut own: Option<(i32, i32)> = None;
    pos.for_each_piece(|from, dests| {
        if dests == 0 || pieces.try_push((from, dests)).is_err() {
            return;
        }
        let d_from = i32::from(dist[from]);
        let mut nearest = i32::MAX;
        let mut rest = dests;
        while rest != 0 {
            let to = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let d_to = i32::from(dist[to]);
            nearest = nearest.min(d_to);
            if jump && d_to < d_from {
                own = own.max(Some((cell_distance(from, to), d_from - d_to)));
            }
        }
        greedy = greedy.max(Some((d_from - nearest, d_from)));
        if matches!(rule, Player::Rear) && nearest < d_from {
            own = own.max(Some((d_from, d_from - nearest)));
        }
    });
    let (best, by_own) = match (own, greedy) {
        (Some(b), _) => (b, true),
        (None, Some(b)) => (b, false),
        (None, None) => {
            // Only the pass, or nothing in a won position.
            let only = pos.winner().is_none().then_some(Move::PASS);
            out.extend(only);
            return only;
        }
    };
    // The tie-break of the rule players: the largest seeded hash of the position and the move.
    let salt = mix(seed ^ mix(pos.hash()));
    let mut chosen: Option<(u64, Move)> = None;
    for &(from, dests) in &pieces {
        let d_from = i32::from(dist[from]);
        // The distance the best moves of this piece land at, if it has any.
        let d_to = match (by_own, rule) {
            (false, _) if d_from == best.1 => d_from - best.0,
            (true, Player::Rear) if d_from == best.0 => d_from - best.1,
            (true, Player::Jump) => d_from - best.1,
            _ => continue,
        };
        let ring = usize::try_from(d_to)
            .ok()
            .and_then(|d| TABLES.tip_ring[target].get(d));
        let mut tos = dests & ring.copied().unwrap_or(0);
        while tos != 0 {
            let to = tos.trailing_zeros() as usize;
            tos &= tos - 1;
            if by_own && jump && cell_distance(from, to) != best.0 {
                continue;
            }
            let m = Move {
                from: from as u8,
                to: to as u8,
            };
            let _ = out.try_push(m);
            let h = mix(salt ^ u64::from(m.to_bits()));
            if chosen.is_none_or(|(c, _)| h > c) {
                chosen = Some((h, m));
            }
        }
    }
    chosen.map(|(_, m)| m)
}

/// [`plain_distance`] between the cells of index `a` and `b`.
#[inline]
fn cell_distance(a: usize, b: usize) -> i32 {
    let (dx, dy) = (
        i32::from(TABLES.file[a]) - i32::from(TABLES.file[b]),
        i32::from(TABLES.rank[a]) - i32::from(TABLES.rank[b]),
    );
    dx.abs().max(dy.abs()).max((dx + dy).abs())
}

/// Rear piece first: the rearmost piece that can gain, its largest gain.
pub fn rear_choice(pos: &ChineseCheckers, seed: u64) -> Option<Move> {
    best_gaining(pos, seed, |f, t, l| gaining_key(Player::Rear, f, t, l))
}

/// Longest jump first: the gaining move of the longest straight distance, then the largest gain.
pub fn jump_choice(pos: &ChineseCheckers, seed: u64) -> Option<Move> {
    best_gaining(pos, seed, |f, t, l| gaining_key(Player::Jump, f, t, l))
}

/// The sum of `d` over the pieces of seat `side`.
pub fn total_distance(pos: &ChineseCheckers, side: usize) -> i32 {
    let tip = pos.target(side).tip();
    super::cells::cells_of(pos.pieces(side))
        .map(|c| plain_distance(c, tip) as i32)
        .sum()
}

/// The shallow search's value of the position after its own move: `i32::MAX` when it has won,
/// else minus the smallest sum of distances its next move can reach, the other players frozen.
fn after_own_move(pos: &mut ChineseCheckers, me: usize) -> i32 {
    if pos.winner() == Some(me) {
        return i32::MAX;
    }
    let others = pos.num_players() - 1;
    for _ in 0..others {
        pos.make_null_move();
    }
    let now = total_distance(pos, me);
    let mut best_gain = 0;
    for &m in moves(pos).moves() {
        if let Some((d_from, d_to, _)) = measures(pos, m) {
            pos.make_move(m);
            let won = pos.winner() == Some(me);
            pos.undo_move(m);
            let gain = if won { i32::MAX / 2 } else { d_from - d_to };
            best_gain = best_gain.max(gain);
        }
    }
    for _ in 0..others {
        pos.undo_null_move();
    }
    best_gain.saturating_sub(now)
}

/// The two-move search: the move whose best follow-up leaves the smallest sum of distances.
pub fn shallow_choice(pos: &ChineseCheckers, seed: u64) -> Option<Move> {
    let me = pos.side_to_move();
    let salt = mix(seed ^ mix(pos.hash()));
    let mut work = pos.clone();
    let mut best: Option<((i32, i32, u64), Move)> = None;
    let list = moves(pos);
    for &m in list.moves() {
        let Some((d_from, d_to, _)) = measures(pos, m) else {
            continue;
        };
        work.make_move(m);
        let value = after_own_move(&mut work, me);
        work.undo_move(m);
        let k = (value, d_from - d_to, mix(salt ^ u64::from(m.to_bits())));
        if best.is_none_or(|(b, _)| k > b) {
            best = Some((k, m));
        }
    }
    best.map(|(_, m)| m)
        .or_else(|| list.moves().first().copied())
}

#[cfg(test)]
mod tests {
    use super::super::greedy::tests::{name_distance, split, start};
    use super::*;
    use crate::game::Notation;

    /// `(d(from), d(to), straight length)` of a move, from its text and the tip's name alone.
    fn text_measures(pos: &ChineseCheckers, m: Move) -> (i32, i32, i32) {
        let tip = pos.target(pos.side_to_move()).tip().to_string();
        let text = m.to_string();
        let (a, b) = split(&text);
        (
            name_distance(a, &tip),
            name_distance(b, &tip),
            name_distance(a, b),
        )
    }

    /// The largest key over the gaining moves (`None` when no move gains).
    fn best_key(
        pos: &ChineseCheckers,
        key: impl Fn((i32, i32, i32)) -> (i32, i32),
    ) -> Option<(i32, i32)> {
        moves(pos)
            .moves()
            .iter()
            .filter(|m| !m.is_pass())
            .map(|&m| text_measures(pos, m))
            .filter(|&(f, t, _)| f > t)
            .map(key)
            .max()
    }

    /// Plays games of every size, each seat a different rule, and checks every choice of the
    /// three rules against a brute force over the move texts.
    #[test]
    fn choices_match_a_brute_force_over_the_move_texts() {
        let rear = |(f, t, _): (i32, i32, i32)| (f, f - t);
        let jump = |(f, t, l): (i32, i32, i32)| (l, f - t);
        let mut fallbacks = 0;
        for players in [2u8, 3, 4, 6] {
            let mut p = start(players);
            for ply in 0..300u64 {
                if p.winner().is_some() {
                    break;
                }
                let seed = u64::from(players) * 1000 + ply;
                for (choice, key) in [
                    (rear_choice(&p, seed), &rear as &dyn Fn(_) -> _),
                    (jump_choice(&p, seed), &jump),
                ] {
                    let m = choice.expect("a move");
                    match best_key(&p, key) {
                        Some(best) => assert_eq!(key(text_measures(&p, m)), best, "{m}"),
                        None => {
                            fallbacks += 1;
                            assert!(super::super::greedy::is_greedy(&p, m), "{m}");
                        }
                    }
                }
                // The shallow search: gain now plus the best gain of the next own move (none
                // when nothing gains), the others frozen; a win is worth more than any gain.
                let me = p.side_to_move();
                let value = |m: Move| {
                    let (f, t, _) = text_measures(&p, m);
                    let mut q = p.clone();
                    q.make_move(m);
                    if q.winner() == Some(me) {
                        return (i64::MAX, f - t);
                    }
                    for _ in 1..players {
                        q.make_null_move();
                    }
                    let mut next = 0i64;
                    for &n in moves(&q).moves().iter().filter(|n| !n.is_pass()) {
                        let mut r = q.clone();
                        r.make_move(n);
                        let (f2, t2, _) = text_measures(&q, n);
                        let g = if r.winner() == Some(me) {
                            i64::MAX / 4
                        } else {
                            i64::from(f2 - t2)
                        };
                        next = next.max(g);
                    }
                    (next.saturating_add(i64::from(f - t)), f - t)
                };
                let m = shallow_choice(&p, seed).expect("a move");
                if !m.is_pass() {
                    let best = moves(&p)
                        .moves()
                        .iter()
                        .filter(|m| !m.is_pass())
                        .map(|&x| value(x))
                        .max();
                    assert_eq!(Some(value(m)), best, "{m}");
                }
                let mover = [Player::Rear, Player::Jump, Player::Shallow][(ply % 3) as usize];
                p.make_move(mover.choice(&p, seed).expect("a move"));
            }
        }
        assert!(fallbacks > 0, "no position without a gaining move was seen");
    }

    /// The ties of each rule are exactly the legal moves of the best key computed from the move
    /// texts (greedy: gain then rearness over every move; rear and jump: their key over the
    /// gaining moves, greedy's when none gains), every tie seed's choice is one of them, and the
    /// move returned with a seed is the rule player's own choice with it.
    #[test]
    fn ties_are_the_moves_of_the_best_key_by_the_move_texts() {
        let greedy = |(f, t, _): (i32, i32, i32)| (f - t, f);
        let rear = |(f, t, _): (i32, i32, i32)| (f, f - t);
        let jump = |(f, t, l): (i32, i32, i32)| (l, f - t);
        let mut several = 0;
        let mut ties = ArrayVec::new();
        for players in [2u8, 3, 4, 6] {
            let mut p = start(players);
            for ply in 0..300u64 {
                if p.winner().is_some() {
                    break;
                }
                let legal: Vec<Move> = moves(&p).moves().to_vec();
                let real: Vec<Move> = legal.iter().copied().filter(|m| !m.is_pass()).collect();
                for (rule, key) in [
                    (Player::Greedy, &greedy as &dyn Fn(_) -> _),
                    (Player::Rear, &rear),
                    (Player::Jump, &jump),
                ] {
                    rule_ties(&p, rule, 0, &mut ties);
                    let gaining = |m: &&Move| {
                        let (f, t, _) = text_measures(&p, **m);
                        rule == Player::Greedy || f > t
                    };
                    let (pool, key): (Vec<Move>, &dyn Fn(_) -> _) =
                        if real.iter().any(|m| gaining(&m)) {
                            (real.iter().filter(gaining).copied().collect(), key)
                        } else {
                            (real.clone(), &greedy)
                        };
                    let want: Vec<Move> =
                        match pool.iter().map(|&m| key(text_measures(&p, m))).max() {
                            Some(best) => pool
                                .iter()
                                .copied()
                                .filter(|&m| key(text_measures(&p, m)) == best)
                                .take(MAX_POLICY_TIES)
                                .collect(),
                            None => legal.clone(),
                        };
                    assert_eq!(ties.as_slice(), want.as_slice(), "{rule:?} {}", p.to_fen());
                    for seed in 0..8 {
                        let m = rule.choice(&p, seed).expect("a move");
                        // (Unless more moves tie than the list keeps.)
                        assert!(ties.contains(&m) || ties.is_full(), "{rule:?} {seed}: {m}");
                        let mut again = ArrayVec::new();
                        assert_eq!(rule_ties(&p, rule, seed, &mut again), Some(m), "{rule:?}");
                        assert_eq!(again, ties);
                    }
                    several += usize::from(ties.len() > 1);
                }
                let mover = [Player::Greedy, Player::Rear, Player::Jump][(ply % 3) as usize];
                p.make_move(mover.choice(&p, ply).expect("a move"));
            }
        }
        assert!(several > 100, "only {several} positions with tied moves");
        assert_eq!(rule_ties(&start(6), Player::Shallow, 0, &mut ties), None);
        assert!(ties.is_empty());
    }

    #[test]
    fn each_rule_often_plays_a_move_greedy_would_not() {
        // Three seats playing greedy moves; at each position every rule's choice is compared
        // with the greedy rule (any tie seed).
        let mut p = start(3);
        let mut differ = [0u32; 3];
        let mut positions = 0;
        for ply in 0..120u64 {
            if p.winner().is_some() {
                break;
            }
            positions += 1;
            for (i, player) in [Player::Rear, Player::Jump, Player::Shallow]
                .iter()
                .enumerate()
            {
                let m = player.choice(&p, ply).expect("a move");
                if !super::super::greedy::is_greedy(&p, m) {
                    differ[i] += 1;
                }
            }
            p.make_move(super::super::greedy::greedy_choice(&p, ply).expect("a move"));
        }
        for (i, n) in differ.iter().enumerate() {
            assert!(
                *n * 5 >= positions,
                "rule {i}: {n} of {positions} moves not greedy"
            );
        }
        assert_eq!(Player::Search.choice(&p, 0), None);
    }
}
