//! Lazy SMP and iterative deepening.
//!
//! One search runs `threads` workers on the searcher's long-lived [`Pool`] threads, sharing the
//! transposition table (no thread is started for a `go` once the pool is sized). The main worker
//! (index 0) iterates depth 1, 2, ... with aspiration windows, reports each iteration and
//! decides when to stop; helpers iterate on their own, starting one ply deeper on odd indices,
//! and only fill the table. When the main worker is done it raises the shared abort flag and
//! the helpers return; the search returns only after every helper has ended. Pool threads have a
//! large stack so deep searches of games with long move lists cannot overflow; the caller's
//! thread relays the main worker's events.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::game::{GameMove, MoveBuffer, Searchable, TableScore};

use super::limits::{SearchControl, SearchLimits, SearchOptions};
use super::multiplayer::Teams;
use super::ordering::ThreadState;
use super::pool::Pool;
use super::skill::{Random, Skill, SKILL_LINES};
use super::time::{TimeManager, Trend, SCALE_FROM_DEPTH};
use super::tt::{Bound, TranspositionTable};
use super::worker::{millis_since, RootMove, Shared, Worker};
use super::TB_WIN;
use super::{
    IterationInfo, SearchEvent, SearchResult, SearchScore, INFINITY, MATE, MATE_BOUND, MAX_DEPTH,
};

/// How often a waiting `infinite`/`ponder` search looks at the flags.
const WAIT_POLL: Duration = Duration::from_millis(1);

/// Runs one search (see [`super::Searcher::search`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn run<G: Searchable>(
    tt: &Arc<TranspositionTable>,
    pool: &mut Pool,
    states: &mut Vec<ThreadState>,
    position: &G,
    limits: &SearchLimits,
    options: &SearchOptions,
    root_filter: Option<&[G::Move]>,
    control: &SearchControl,
    report: &mut dyn FnMut(SearchEvent<G::Move>),
) -> SearchResult<G::Move> {
    let start = limits.received.unwrap_or_else(Instant::now);
    tt.new_search();
    let mut list = G::MoveList::default();
    position.generate_moves(&mut list);
    let legal: Vec<G::Move> = list.moves().to_vec();
    let shared = Shared {
        tt: Arc::clone(tt),
        control: control.clone(),
        abort: AtomicBool::new(false),
        nodes: (0..options.threads.max(1))
            .map(|_| AtomicU64::new(0))
            .collect(),
        time: TimeManager::new(limits, start),
        infinite: limits.infinite,
        node_limit: limits.nodes,
        tb_hits: AtomicU64::new(0),
        tb_probes: G::tables_loaded(),
        tb_loaded: G::tables_loaded(),
        table_scores: Vec::new(),
    };

    if legal.is_empty() {
        let teams = Teams::new(position.side_to_move(), position.num_players());
        let score = teams.outcome_score(position.no_moves_outcome(), position.side_to_move(), 0);
        wait_for_stop(&shared);
        return no_move_result(score);
    }
    let mut root_moves: Vec<G::Move> = match root_filter {
        Some(allowed) => legal
            .iter()
            .copied()
            .filter(|m| allowed.contains(m))
            .collect(),
        None => legal.clone(),
    };
    let mut shared = shared;
    if shared.tb_loaded {
        rank_by_tables(position, &mut root_moves, &mut shared);
    }
    if root_moves.is_empty() {
        // Every legal move excluded (UCCI `banmoves`, `searchmoves`): no move to play, and no
        // score either (the position is not lost).
        wait_for_stop(&shared);
        return no_move_result(0);
    }

    let threads = options.threads.max(1);
    let multipv = options.multipv.clamp(1, root_moves.len());
    // A weakened search keeps scores for a few root moves to choose from.
    let lines = match options.skill {
        Some(_) => multipv.max(SKILL_LINES).min(root_moves.len()),
        None => multipv,
    };
    if states.len() < threads {
        states.resize_with(threads, ThreadState::default);
    }
    // Played if the search is stopped before any root move is searched: the policy move when
    // the game has one among the root moves.
    let policy = position.policy_move().filter(|m| root_moves.contains(m));
    let fallback = policy.unwrap_or(root_moves[0]);
    let (tx, rx) = mpsc::channel::<SearchEvent<G::Move>>();
    let (result_tx, result_rx) = mpsc::channel::<SearchResult<G::Move>>();
    // Every task sends its thread state back when it ends (a panicked task sends nothing).
    let (state_tx, state_rx) = mpsc::channel::<(usize, ThreadState)>();
    let shared = Arc::new(shared);

    // The threads exist already when `Threads` was set; tools that never set it start them here.
    if pool.len() < threads {
        pool.resize(threads);
    }
    // Helpers the system refused to start are simply missing.
    let threads = threads.min(pool.len());
    if threads == 0 {
        return fallback_result(fallback);
    }

    let policy_players = options.policy_players;
    start_helpers(
        pool,
        states,
        threads,
        &shared,
        position,
        &root_moves,
        policy_players,
        &state_tx,
    );
    let plan = MainPlan {
        limits: limits.clone(),
        multipv,
        lines,
        skill: options.skill,
        salt: position.hash(),
        policy,
        policy_players,
    };
    let channels = MainChannels {
        events: tx,
        result: result_tx,
        state: state_tx.clone(),
    };
    let state = std::mem::take(&mut states[0]);
    let started = start_main(pool, state, &shared, position, root_moves, plan, channels);
    // Ends when the main worker drops its sender (or at once when it never started).
    for event in rx {
        report(event);
    }
    let result = match result_rx.recv() {
        Ok(result) if started => result,
        // The main task panicked or could not start: the helpers stop and a legal move is
        // played.
        _ => fallback_result(fallback),
    };
    shared.abort.store(true, Relaxed);
    drop(state_tx);
    // Waits for every helper: no search thread works after this returns.
    for (i, state) in state_rx {
        if let Some(slot) = states.get_mut(i) {
            *slot = state;
        }
    }
    SearchResult {
        nodes: shared.nodes.iter().map(|n| n.load(Relaxed)).sum(),
        tbhits: shared.tb_loaded.then(|| shared.tb_hits.load(Relaxed)),
        ..result
    }
}

/// The result of a search without a move to play (no legal move, or none allowed): `score`
/// for the side to move, nothing searched.
fn no_move_result<M>(score: i32) -> SearchResult<M> {
    SearchResult {
        best: None,
        ponder: None,
        score: SearchScore::from_internal(score),
        value: score,
        depth: 0,
        seldepth: 0,
        nodes: 0,
        pv: Vec::new(),
        tbhits: None,
    }
}

/// The result played when the main worker could not search: the move `fallback`.
fn fallback_result<M: Copy>(fallback: M) -> SearchResult<M> {
    SearchResult {
        best: Some(fallback),
        ponder: None,
        score: SearchScore::Cp(0),
        value: 0,
        depth: 0,
        seldepth: 0,
        nodes: 0,
        pv: vec![fallback],
        tbhits: None,
    }
}

/// What the main worker searches for beyond the root moves (see [`main_loop`]).
struct MainPlan<M> {
    limits: SearchLimits,
    multipv: usize,
    lines: usize,
    skill: Option<Skill>,
    salt: u64,
    policy: Option<M>,
    policy_players: Option<crate::search::multiplayer::PolicyPlayers>,
}

/// Where the main worker sends its events, its result and (when it ends) its thread state.
struct MainChannels<M> {
    events: mpsc::Sender<SearchEvent<M>>,
    result: mpsc::Sender<SearchResult<M>>,
    state: mpsc::Sender<(usize, ThreadState)>,
}

/// Endgame tables at the root: keeps the root moves of the best rank (those that keep the
/// best result the fifty-move rule allows, as Stockfish does), with their scores to show, and
/// whether to probe below the root.
fn rank_by_tables<G: Searchable>(position: &G, root_moves: &mut Vec<G::Move>, shared: &mut Shared) {
    let mut pos = position.clone();
    let Some((ranks, probe_below)) = pos.rank_root_moves(root_moves) else {
        return;
    };
    if ranks.len() != root_moves.len() {
        return;
    }
    shared.tb_hits.fetch_add(ranks.len() as u64, Relaxed);
    shared.tb_probes = probe_below;
    let best = ranks.iter().map(|&(r, _)| r).max().unwrap_or(0);
    let mut kept = Vec::with_capacity(root_moves.len());
    for (&m, &(rank, score)) in root_moves.iter().zip(&ranks) {
        if rank == best {
            kept.push(m);
            let shown = match score {
                TableScore::Win => TB_WIN,
                TableScore::Loss => -TB_WIN,
                TableScore::Value(v) => v,
            };
            shared.table_scores.push((m.to_bits(), shown));
        }
    }
    *root_moves = kept;
}

/// Hands the helper workers 1..`threads` to their pool threads, each with its thread state
/// from `states` (sent back on `state_tx` when it ends).
#[allow(clippy::too_many_arguments)]
fn start_helpers<G: Searchable>(
    pool: &Pool,
    states: &mut [ThreadState],
    threads: usize,
    shared: &Arc<Shared>,
    position: &G,
    root_moves: &[G::Move],
    policy_players: Option<crate::search::multiplayer::PolicyPlayers>,
    state_tx: &mpsc::Sender<(usize, ThreadState)>,
) {
    for (i, slot) in states.iter_mut().enumerate().take(threads).skip(1) {
        let mut pos = position.clone();
        pos.prepare_search();
        let moves = root_moves.to_vec();
        let mut state = std::mem::take(slot);
        let shared = Arc::clone(shared);
        let state_tx = state_tx.clone();
        pool.run(
            i,
            Box::new(move || {
                {
                    let mut worker =
                        Worker::new(i, &shared, &mut state, &pos, moves, policy_players);
                    helper_loop(&mut worker, &mut pos);
                    worker.publish();
                }
                drop(shared);
                let _ = state_tx.send((i, state));
            }),
        );
    }
}

/// Hands the main worker to pool thread 0: it searches by `plan`, raises the abort flag when
/// done and sends its result and its thread state. False when the thread could not take it.
fn start_main<G: Searchable>(
    pool: &Pool,
    mut state: ThreadState,
    shared: &Arc<Shared>,
    position: &G,
    root_moves: Vec<G::Move>,
    plan: MainPlan<G::Move>,
    channels: MainChannels<G::Move>,
) -> bool {
    let mut pos = position.clone();
    pos.prepare_search();
    let main_shared = Arc::clone(shared);
    pool.run(
        0,
        Box::new(move || {
            let MainChannels {
                events,
                result: result_tx,
                state: state_tx,
            } = channels;
            let result = {
                let shared = &main_shared;
                let mut worker =
                    Worker::new(0, shared, &mut state, &pos, root_moves, plan.policy_players);
                worker.events = Some(events);
                let result = main_loop(
                    &mut worker,
                    &mut pos,
                    &plan.limits,
                    plan.multipv,
                    plan.lines,
                    plan.skill,
                    plan.salt,
                    plan.policy,
                );
                shared.abort.store(true, Relaxed);
                worker.publish();
                result
            };
            drop(main_shared);
            let _ = result_tx.send(result);
            let _ = state_tx.send((0, state));
        }),
    )
}

/// Waits while `go infinite` or `go ponder` may not return yet.
fn wait_for_stop(shared: &Shared) {
    while !shared.must_stop() && (shared.infinite || shared.control.is_pondering()) {
        std::thread::sleep(WAIT_POLL);
    }
}

/// Searches one iteration (all MultiPV lines) with aspiration windows. Returns false when
/// the search was stopped inside it.
fn iterate<G: Searchable>(
    worker: &mut Worker<'_, G>,
    pos: &mut G,
    depth: u32,
    multipv: usize,
) -> bool {
    worker.root_depth = depth as i32;
    worker.seldepth = 0;
    for rm in &mut worker.root_moves {
        rm.previous_score = rm.score;
        rm.score = -INFINITY;
        rm.improved = false;
    }
    for line in 0..multipv {
        let previous = worker.root_moves[line].previous_score;
        let mut delta = worker.s.aspiration_window;
        let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE_BOUND {
            (
                (previous - delta).max(-INFINITY),
                (previous + delta).min(INFINITY),
            )
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = worker.root_search(pos, depth as i32, alpha, beta, line);
            if worker.stopped {
                return false;
            }
            let bound = if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
                Bound::Upper
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
                Bound::Lower
            } else {
                break;
            };
            if worker.shared.time.elapsed() >= Duration::from_secs(3) {
                report_line(worker, depth, line, bound);
            }
            delta += delta / 2;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
        worker.root_moves[..=line].sort_by_key(|r| std::cmp::Reverse(r.score));
    }
    true
}

/// Sends one `Iteration` event for MultiPV line `line` (0-based).
fn report_line<G: Searchable>(worker: &mut Worker<'_, G>, depth: u32, line: usize, bound: Bound) {
    let score = worker.root_moves[line].score;
    send_line(worker, depth, line, score, bound);
}

/// After iteration `depth` was cut off (`stop`, the hard limit, `nodes`), lines 2 to
/// `multipv` as far as it got, as Stockfish reports them: a line searched again in that
/// iteration with its new score at `depth`, the others with the score of the last completed
/// iteration at `depth - 1`. A GUI keeps the last line of each number, and the best move may
/// have changed in the cut-off iteration (line 1 comes with the closing `info` line), so
/// without these it would show the new best move in line 1 and again in the line it had
/// before.
fn report_cut_off_lines<G: Searchable>(worker: &mut Worker<'_, G>, depth: u32, multipv: usize) {
    for line in 1..multipv.min(worker.root_moves.len()) {
        let rm = &worker.root_moves[line];
        if rm.score != -INFINITY {
            report_line(worker, depth, line, Bound::Exact);
        } else if depth > 1 {
            let previous = rm.previous_score;
            send_line(worker, depth - 1, line, previous, Bound::Exact);
        }
    }
}

/// Sends one `Iteration` event for MultiPV line `line` (0-based) with `score`.
fn send_line<G: Searchable>(
    worker: &mut Worker<'_, G>,
    depth: u32,
    line: usize,
    score: i32,
    bound: Bound,
) {
    worker.publish();
    let Some(events) = &worker.events else {
        return;
    };
    let rm = &worker.root_moves[line];
    if score == -INFINITY {
        return;
    }
    let time_ms = millis_since(worker.shared.time.start());
    let nodes = worker.total_nodes();
    let info = IterationInfo {
        depth,
        seldepth: (rm.seldepth as u32).max(depth),
        multipv: line + 1,
        score: SearchScore::from_internal(worker.shared.shown_score(rm.mv.to_bits(), score)),
        bound,
        nodes,
        nps: nodes * 1000 / time_ms.max(1),
        hashfull: worker.shared.tt.hashfull(),
        tbhits: worker
            .shared
            .tb_loaded
            .then(|| worker.shared.tb_hits.load(Relaxed)),
        time_ms,
        pv: rm.pv.clone(),
    };
    // A closed channel only means nobody listens any more.
    let _ = events.send(SearchEvent::Iteration(info));
}

/// Iterative deepening of the main worker; decides when to stop and builds the result.
/// `multipv` lines are reported, `lines` are searched (more with a `skill`, which then picks
/// the move among them; `salt` seeds its choice). `policy`: the move played when the search is
/// stopped before any root move is searched (the first root move in order if `None`).
#[allow(clippy::too_many_arguments)]
fn main_loop<G: Searchable>(
    worker: &mut Worker<'_, G>,
    pos: &mut G,
    limits: &SearchLimits,
    multipv: usize,
    lines: usize,
    skill: Option<Skill>,
    salt: u64,
    policy: Option<G::Move>,
) -> SearchResult<G::Move> {
    worker.order_root_moves(pos);
    let mut max_depth = limits.depth.map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH));
    if let Some(skill) = skill {
        max_depth = max_depth.min(skill.max_depth());
    }
    let shared = worker.shared;
    // (best move, score, pv) of the last completed iteration.
    let mut completed: Option<(G::Move, i32, Vec<G::Move>)> = None;
    let mut interrupted = false;
    // The iteration that was cut off, if one was.
    let mut cut_off = 0;
    // Time management: the best score of every completed iteration, and for how many
    // iterations in a row the best move has stayed the same.
    let mut scores: Vec<i32> = Vec::new();
    let mut stable_iterations = 0u32;
    for depth in 1..=max_depth {
        let iteration_start = Instant::now();
        if !iterate(worker, pos, depth, lines) {
            interrupted = true;
            cut_off = depth;
            if worker.completed_depth >= 1 {
                report_cut_off_lines(worker, depth, multipv);
            }
            break;
        }
        worker.completed_depth = depth;
        let best = &worker.root_moves[0];
        stable_iterations = match &completed {
            Some((previous, ..)) if *previous == best.mv => stable_iterations + 1,
            _ => 0,
        };
        completed = Some((best.mv, best.score, best.pv.clone()));
        let score = best.score;
        scores.push(score);
        for line in 0..multipv {
            report_line(worker, depth, line, Bound::Exact);
        }
        if let Some(n) = limits.mate {
            if score >= MATE_BOUND && (MATE - score + 1) / 2 <= n as i32 {
                break;
            }
        }
        // A mate found well inside the horizon will not change any more.
        if lines == 1 && score.abs() >= MATE_BOUND && depth as i32 >= 2 * (MATE - score.abs()) + 2 {
            break;
        }
        if shared.must_stop() {
            interrupted = true;
            break;
        }
        if shared.time_applies() {
            let scale = if lines == 1 && depth >= SCALE_FROM_DEPTH {
                shared
                    .time
                    .soft_scale(&trend(&worker.root_moves, &scores, stable_iterations))
            } else {
                1.0
            };
            if shared
                .time
                .stop_iterating(iteration_start.elapsed(), scale, skill.is_none())
            {
                break;
            }
        }
    }
    if !interrupted {
        wait_for_stop(shared);
    }
    worker.publish();

    let first = &worker.root_moves[0];
    // The depth the move played was searched to.
    let mut depth = worker.completed_depth;
    let (best, score, pv) = if interrupted && first.improved && first.score > -INFINITY {
        depth = depth.max(cut_off);
        (first.mv, first.score, first.pv.clone())
    } else if let Some(c) = completed {
        c
    } else {
        // Stopped before any root move was searched: the policy move, or the first in order.
        let mv = policy.unwrap_or(first.mv);
        (mv, 0, vec![mv])
    };
    let (best, score, pv) = match skill {
        // The lines of the last completed iteration are sorted best first.
        Some(skill) if worker.completed_depth >= 1 && !interrupted => {
            let scores: Vec<i32> = worker.root_moves[..lines].iter().map(|r| r.score).collect();
            let mut random = Random::new(salt);
            let i = skill.pick(&scores, || random.next_u64());
            let rm = &worker.root_moves[i];
            (rm.mv, rm.score, rm.pv.clone())
        }
        _ => (best, score, pv),
    };
    let ponder = match pv.get(1) {
        Some(&m) => Some(m),
        None => worker.ponder_from_tt(pos, best),
    };
    let seldepth = worker
        .root_moves
        .iter()
        .find(|r| r.mv == best)
        .map_or(0, |r| r.seldepth as u32)
        .max(depth);
    let mut pv = pv;
    if pv.first() != Some(&best) {
        pv = vec![best];
    }
    let score = worker.shared.shown_score(best.to_bits(), score);
    SearchResult {
        best: Some(best),
        ponder,
        score: SearchScore::from_internal(score),
        value: score,
        depth,
        seldepth,
        nodes: worker.total_nodes(),
        pv,
        tbhits: None,
    }
}

/// The time-management [`Trend`] after an iteration: `root_moves` sorted best first with their
/// node counts, `scores` the best score of every completed iteration (the last is this one's).
fn trend<M>(root_moves: &[RootMove<M>], scores: &[i32], stable_iterations: u32) -> Trend {
    let n = scores.len();
    let reference = match n {
        0 | 1 => None,
        2 => scores.first(),
        _ => scores.get(n - 3),
    };
    let score_drop = match (reference, scores.last()) {
        (Some(&before), Some(&now)) => {
            before.clamp(-MATE_BOUND, MATE_BOUND) - now.clamp(-MATE_BOUND, MATE_BOUND)
        }
        _ => 0,
    };
    Trend {
        stable_iterations,
        score_drop,
        best_move_nodes: root_moves.first().map_or(0, |r| r.nodes),
        root_nodes: root_moves.iter().map(|r| r.nodes).sum(),
    }
}

/// Iterative deepening of a helper worker: no reports, staggered start depth.
fn helper_loop<G: Searchable>(worker: &mut Worker<'_, G>, pos: &mut G) {
    worker.order_root_moves(pos);
    let mut depth = 1 + (worker.id as u32 % 2);
    while depth <= MAX_DEPTH && !worker.shared.must_stop() {
        if !iterate(worker, pos, depth, 1) {
            break;
        }
        worker.completed_depth = depth;
        depth += 1;
    }
}
