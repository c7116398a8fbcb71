//! Limits and control: nodes, depth, determinism, stop, infinite, ponder, time, root move
//! filter, no legal move, mate limit, reports.

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use sanqi::game::prelude::*;
use sanqi::game::Plain;
use sanqi::search::{
    Bound, SearchControl, SearchEvent, SearchLimits, SearchOptions, SearchScore, Searcher,
};
use support::toys::{Connect4, Nim, ToyMove};
use support::{iterations, legal, search as go, search_default};

/// Runs `act` on `control` in another thread after `ms` milliseconds; the thread gives what
/// `act` gives.
fn after<T: Send + 'static>(
    control: &Arc<SearchControl>,
    ms: u64,
    act: impl FnOnce(&SearchControl) -> T + Send + 'static,
) -> std::thread::JoinHandle<T> {
    let control = Arc::clone(control);
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(ms));
        act(&control)
    })
}

/// One thread, `multipv` lines.
fn multipv(lines: usize) -> SearchOptions {
    SearchOptions {
        threads: 1,
        multipv: lines,
        skill: None,
        policy_players: None,
    }
}

#[test]
fn nodes_limit_is_exact_with_one_thread() {
    let mut searcher = Searcher::new(8);
    for limit in [1u64, 2, 100, 1234, 30_000] {
        searcher.clear();
        let limits = SearchLimits {
            nodes: Some(limit),
            ..Default::default()
        };
        let pos = Plain(Connect4::new());
        let (r, events) = search_default(&mut searcher, &pos, &limits);
        assert_eq!(r.nodes, limit, "limit {limit}");
        assert!(legal(&pos).contains(&r.best.expect("a move even at 1 node")));
        for it in iterations(&events) {
            assert!(it.nodes <= limit);
        }
    }
}

#[test]
fn depth_limit_is_honoured() {
    let mut searcher = Searcher::new(8);
    for depth in [1u32, 3, 6] {
        let limits = SearchLimits {
            depth: Some(depth),
            ..Default::default()
        };
        let (r, events) = search_default(&mut searcher, &Plain(Connect4::new()), &limits);
        assert_eq!(r.depth, depth);
        let depths: Vec<u32> = iterations(&events)
            .iter()
            .filter(|i| i.bound == Bound::Exact)
            .map(|i| i.depth)
            .collect();
        assert_eq!(depths, (1..=depth).collect::<Vec<_>>());
        for it in iterations(&events) {
            assert!(it.seldepth >= it.depth);
            assert_eq!(it.pv.first(), it.pv.first());
            assert!(!it.pv.is_empty());
        }
    }
}

#[test]
fn nodes_search_is_deterministic_after_clear() {
    let pos = Plain::<Connect4>::from_fen("3324", &Default::default()).expect("moves");
    let limits = SearchLimits {
        nodes: Some(60_000),
        ..Default::default()
    };
    let mut searcher = Searcher::new(8);
    let mut runs = Vec::new();
    for _ in 0..2 {
        searcher.clear();
        let (r, events) = search_default(&mut searcher, &pos, &limits);
        let lines: Vec<_> = iterations(&events)
            .into_iter()
            .map(|i| {
                (
                    i.depth, i.seldepth, i.score, i.bound, i.nodes, i.hashfull, i.pv,
                )
            })
            .collect();
        runs.push((r, lines));
    }
    assert_eq!(runs[0], runs[1]);
    assert!(runs[0].1.len() >= 3, "a few iterations expected");
}

#[test]
fn stop_flag_ends_an_infinite_search_promptly() {
    let control = Arc::new(SearchControl::new());
    let mut searcher = Searcher::new(8);
    let limits = SearchLimits {
        infinite: true,
        ..Default::default()
    };
    for threads in [1usize, 2] {
        control.reset(false);
        let stopper = after(&control, 150, |c| {
            let at = Instant::now();
            c.stop();
            at
        });
        let options = SearchOptions {
            threads,
            multipv: 1,
            skill: None,
            policy_players: None,
        };
        let pos = Plain(Connect4::new());
        let (r, _) = go(&mut searcher, &pos, &limits, &options, &control);
        let returned = Instant::now();
        let stopped_at = stopper.join().expect("stopper");
        assert!(returned >= stopped_at);
        assert!(
            returned - stopped_at < Duration::from_millis(1000),
            "{threads} threads: took {:?} after stop",
            returned - stopped_at
        );
        assert!(legal(&pos).contains(&r.best.expect("move")));
    }
}

#[test]
fn infinite_search_waits_for_stop_even_when_solved() {
    let control = Arc::new(SearchControl::new());
    let stopper = after(&control, 200, SearchControl::stop);
    let start = Instant::now();
    let limits = SearchLimits {
        infinite: true,
        depth: Some(3),
        ..Default::default()
    };
    let (r, _) = go(
        &mut Searcher::new(1),
        &Plain(Nim::new(5, 3, 2)),
        &limits,
        &SearchOptions::default(),
        &control,
    );
    stopper.join().expect("stopper");
    assert!(start.elapsed() >= Duration::from_millis(200));
    assert_eq!(r.best, Some(ToyMove(1)));
    assert_eq!(r.score, SearchScore::Mate(2));
}

#[test]
fn ponder_ignores_time_until_ponderhit() {
    let control = Arc::new(SearchControl::new());
    control.reset(true);
    let hitter = after(&control, 300, |c| {
        c.ponderhit();
        Instant::now()
    });
    let start = Instant::now();
    let limits = SearchLimits {
        movetime_ms: Some(50),
        ..Default::default()
    };
    let pos = Plain(Connect4::new());
    let (r, _) = go(
        &mut Searcher::new(8),
        &pos,
        &limits,
        &SearchOptions::default(),
        &control,
    );
    let hit = hitter.join().expect("hitter");
    let end = Instant::now();
    assert!(
        end >= hit,
        "returned {:?} before ponderhit",
        start.elapsed()
    );
    // The clock counts from the start of go: 50 ms are long gone, so stop at once.
    assert!(end - hit < Duration::from_millis(1000), "{:?}", end - hit);
    assert!(legal(&pos).contains(&r.best.expect("move")));

    // A solved position while pondering also waits for ponderhit.
    control.reset(true);
    let hitter = after(&control, 150, SearchControl::ponderhit);
    let start = Instant::now();
    let (r, _) = go(
        &mut Searcher::new(1),
        &Plain(Nim::new(6, 3, 2)),
        &SearchLimits::default(),
        &SearchOptions::default(),
        &control,
    );
    hitter.join().expect("hitter");
    assert!(start.elapsed() >= Duration::from_millis(150));
    assert_eq!(r.best, Some(ToyMove(2)));
}

#[test]
fn movetime_is_honoured() {
    let mut searcher = Searcher::new(8);
    for movetime in [30u64, 200] {
        let limits = SearchLimits {
            movetime_ms: Some(movetime),
            move_overhead_ms: 10,
            ..Default::default()
        };
        let start = Instant::now();
        let (r, _) = search_default(&mut searcher, &Plain(Connect4::new()), &limits);
        let took = start.elapsed();
        // Generous bound so a loaded machine never fails the test; a search that ignored
        // movetime would run to the maximum depth (the real latency is in the latency bench).
        assert!(took <= Duration::from_millis(movetime + 500), "{took:?}");
        assert!(r.best.is_some());
    }
}

#[test]
fn movetime_alone_is_used_to_its_end() {
    // Under movetime without a clock the search starts iterations until the hard limit
    // (movetime - overhead = 190 ms) cuts one off, as Stockfish does, instead of holding back an
    // iteration it expects not to finish (which left about a quarter of the time unused). A
    // loaded machine only makes the search end later, never earlier. With one line and with
    // MultiPV 3 (whose every completed iteration is reported line by line).
    let limits = SearchLimits {
        movetime_ms: Some(200),
        move_overhead_ms: 10,
        ..Default::default()
    };
    let pos = Plain(Connect4::new());
    for lines in [1, 3] {
        let mut searcher = Searcher::new(8);
        let start = Instant::now();
        let (r, events) = go(
            &mut searcher,
            &pos,
            &limits,
            &multipv(lines),
            &SearchControl::new(),
        );
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(190), "{lines}: {took:?}");
        // The upper bound only catches a search that ignores the limit (it would run to the
        // maximum depth, far longer); it stays loose for a loaded machine (CI on two cores).
        assert!(took <= Duration::from_millis(2000), "{lines}: {took:?}");
        let best = r.best.expect("move");
        assert!(legal(&pos).contains(&best));
        // The last completed iteration reported all its lines (the deepest line 1: after the
        // cut-off only lines 2 and on are reported again, line 1 coming with the result).
        let its = iterations(&events);
        let deepest = its
            .iter()
            .filter(|i| i.multipv == 1 && i.bound == Bound::Exact)
            .map(|i| i.depth)
            .max()
            .expect("an iteration");
        let last: Vec<usize> = its
            .iter()
            .filter(|i| i.depth == deepest && i.bound == Bound::Exact)
            .map(|i| i.multipv)
            .take(lines)
            .collect();
        assert_eq!(last, (1..=lines).collect::<Vec<_>>(), "{lines}");
    }
}

#[test]
fn a_game_at_one_second_plus_ten_ms_never_runs_out_of_time() {
    let mut searcher = Searcher::new(8);
    let mut pos = Plain(Connect4::new());
    let mut clocks = [1000i64, 1000];
    let increment = 10;
    for _ in 0..40 {
        if pos.outcome().is_some() {
            break;
        }
        let side = pos.side_to_move();
        let limits = SearchLimits {
            time_left_ms: Some(clocks[side]),
            increment_ms: increment,
            move_overhead_ms: 10,
            ..Default::default()
        };
        let start = Instant::now();
        let (r, _) = search_default(&mut searcher, &pos, &limits);
        clocks[side] -= start.elapsed().as_millis() as i64;
        assert!(clocks[side] > 0, "flagged: {clocks:?}");
        clocks[side] += increment;
        pos.make_move(r.best.expect("move"));
    }
    // And with almost nothing left.
    let limits = SearchLimits {
        time_left_ms: Some(15),
        increment_ms: 0,
        move_overhead_ms: 10,
        ..Default::default()
    };
    let start = Instant::now();
    let (r, _) = search_default(&mut searcher, &Plain(Connect4::new()), &limits);
    assert!(
        start.elapsed() < Duration::from_millis(500),
        "{:?}",
        start.elapsed()
    );
    assert!(r.best.is_some());
}

#[test]
fn stop_before_start_still_gives_a_legal_move() {
    let control = SearchControl::new();
    control.stop();
    let pos = Plain(Connect4::new());
    let (r, _) = go(
        &mut Searcher::new(1),
        &pos,
        &SearchLimits::default(),
        &SearchOptions::default(),
        &control,
    );
    assert!(legal(&pos).contains(&r.best.expect("move")));
}

#[test]
fn root_move_filter_is_respected() {
    let pos = Plain(Connect4::new());
    let allowed = [ToyMove(0), ToyMove(6)];
    let limits = SearchLimits {
        depth: Some(6),
        ..Default::default()
    };
    let mut events = Vec::new();
    let r = Searcher::new(8).search(
        &pos,
        &limits,
        &multipv(3),
        Some(&allowed),
        &SearchControl::new(),
        &mut |e| events.push(e),
    );
    assert!(allowed.contains(&r.best.expect("move")));
    let its = iterations(&events);
    assert!(its.iter().all(|i| allowed.contains(&i.pv[0])));
    // MultiPV is capped by the number of allowed moves.
    assert!(its.iter().all(|i| i.multipv <= 2));
    // A filter that leaves no legal move (UCCI banmoves excluding them all) gives no move to
    // play: never a move outside the filter, and no score (the position is not lost).
    assert!(!legal(&pos).contains(&ToyMove(9)));
    let mut events = Vec::new();
    let r = Searcher::new(1).search(
        &pos,
        &limits,
        &SearchOptions::default(),
        Some(&[ToyMove(9)]),
        &SearchControl::new(),
        &mut |e| events.push(e),
    );
    assert_eq!(r.best, None);
    assert_eq!(r.ponder, None);
    assert_eq!(r.score, SearchScore::Cp(0));
    assert!(events.is_empty());
}

#[test]
fn no_legal_move_gives_none() {
    let (r, events) = search_default(
        &mut Searcher::new(1),
        &Plain(Nim::new(0, 3, 2)),
        &SearchLimits::default(),
    );
    assert_eq!(r.best, None);
    assert_eq!(r.ponder, None);
    assert_eq!(r.score, SearchScore::Mate(0));
    assert!(events.is_empty());
}

#[test]
fn mate_limit_stops_at_the_first_short_enough_mate() {
    // Pile 21, take 1..3: the side to move wins in 11 plies (6 moves).
    let limits = SearchLimits {
        mate: Some(6),
        ..Default::default()
    };
    let (r, events) = search_default(&mut Searcher::new(1), &Plain(Nim::new(21, 3, 2)), &limits);
    assert_eq!(r.score, SearchScore::Mate(6));
    let its = iterations(&events);
    let last = its.last().expect("iterations");
    assert_eq!(last.score, SearchScore::Mate(6));
    assert!(its[..its.len() - 1]
        .iter()
        .all(|i| !matches!(i.score, SearchScore::Mate(n) if n > 0 && n <= 6)));
}

#[test]
fn reports_are_consistent() {
    let limits = SearchLimits {
        depth: Some(7),
        ..Default::default()
    };
    let pos = Plain(Connect4::new());
    // A small table (1 MiB), so that `hashfull` shows the search's entries.
    let (r, events) = go(
        &mut Searcher::new(1),
        &pos,
        &limits,
        &multipv(3),
        &SearchControl::new(),
    );
    let its = iterations(&events);
    for depth in 1..=7 {
        let lines: Vec<_> = its
            .iter()
            .filter(|i| i.depth == depth && i.bound == Bound::Exact)
            .collect();
        assert_eq!(lines.len(), 3, "depth {depth}");
        assert_eq!(
            lines.iter().map(|l| l.multipv).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
        let firsts: Vec<_> = lines.iter().map(|l| l.pv[0]).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        // Every pv is a legal line.
        for l in &lines {
            let mut p = pos.clone();
            for &m in &l.pv {
                assert!(legal(&p).contains(&m), "illegal pv {:?}", l.pv);
                p.make_move(m);
            }
        }
    }
    let last = its.iter().rfind(|i| i.multipv == 1).expect("line 1");
    assert_eq!(r.best, Some(last.pv[0]));
    assert_eq!(r.score, last.score);
    assert!(last.hashfull > 0);
    if last.pv.len() > 1 {
        assert_eq!(r.ponder, Some(last.pv[1]));
    }
    // Node counts only grow.
    assert!(its.windows(2).all(|w| w[0].nodes <= w[1].nodes));
}

#[test]
fn currmove_is_reported_after_one_second() {
    let limits = SearchLimits {
        infinite: true,
        ..Default::default()
    };
    let control = Arc::new(SearchControl::new());
    let stopper = after(&control, 3000, SearchControl::stop);
    let pos = Plain(Connect4::new());
    let (_, events) = go(
        &mut Searcher::new(8),
        &pos,
        &limits,
        &SearchOptions::default(),
        &control,
    );
    stopper.join().expect("stopper");
    let current: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            SearchEvent::CurrMove { mv, number, .. } => Some((*mv, *number)),
            SearchEvent::Iteration(_) => None,
        })
        .collect();
    assert!(!current.is_empty(), "no currmove in 3 s");
    for (mv, number) in current {
        assert!(legal(&pos).contains(&mv));
        assert!((1..=7).contains(&number));
    }
}
