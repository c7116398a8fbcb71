//! Adjudication by `sanqi match` against scripted fake engines on the toy games of
//! `support::matches`: resign and draw by score, multi-player seats and shared points, stalls (passes,
//! ply cap, no progress), and the SPRT stop.

mod support;

use sanqi::game::Plain;
use sanqi::tournament::config::{EngineSpec, ResignAdjudication};
use sanqi::tournament::record::Termination;
use sanqi::tournament::{run_game, run_game_with_progress};
use support::matches::*;

/// Fake engines named A, B, C, ... with one extra argument each.
fn fakes(args: &[&str]) -> Vec<EngineSpec> {
    ["A", "B", "C", "D", "E", "F"]
        .iter()
        .zip(args)
        .map(|(name, arg)| fake(name, &[arg]))
        .collect()
}

#[test]
fn resign_adjudication_by_score() {
    // B reports -700 on each move; with movecount 2 and score 600 it resigns after its 2nd move.
    let mut c = config(
        vec![fake("A", &[CANDS]), fake("B", &[CANDS, "--score=-700"])],
        movetime(),
    );
    c.referee.resign = Some(ResignAdjudication {
        move_count: 2,
        score: 600,
    });
    let rec = &one_ttt_game(c);
    assert_eq!(rec.termination, Termination::Adjudication);
    assert_eq!(rec.winner, Some(0));
    assert_eq!(rec.moves, ["a1", "b1", "c1", "a2"]);
}

#[test]
fn multi_player_seats_rotate_and_points_are_shared() {
    // Race to 10 with 3 players who always add 1: the 10th move is made by seat (10 - 1) % 3 = 0, so
    // seat 0 always wins. Three games per opening rotate the seats: every engine wins once.
    let engines = fakes(&["--always=1", "--always=1", "--always=1"]);
    let c = config(engines, movetime());
    let report = run_game::<Plain<Race>>(&c, &players(3)).unwrap();
    assert_eq!(report.records.len(), 3);
    let seatings: Vec<Vec<usize>> = report.records.iter().map(|r| r.seats.clone()).collect();
    assert_eq!(seatings, [vec![0, 1, 2], vec![1, 2, 0], vec![2, 0, 1]]);
    for rec in &report.records {
        assert_eq!(rec.winner, Some(0));
        assert_eq!(rec.points, [1.0, 0.0, 0.0]);
        assert_eq!(rec.moves.len(), 10);
    }
    for t in &report.engines {
        assert_eq!((t.points, t.games, t.wdl.wins), (1.0, 3, 1));
    }
}

#[test]
fn multi_player_stalls_and_forfeits() {
    // Everybody passes: after a full round of 3 passes the game is a stall, 1/3 point each.
    let engines = fakes(&["--always=0000", "--always=0000", "--always=0000"]);
    let c = config(engines, movetime());
    let rec = &one_game::<Plain<Race>>(c, &players(3));
    assert_eq!(rec.termination, Termination::Adjudication);
    assert_eq!(rec.moves, ["0000", "0000", "0000"]);
    assert!(rec.reason.contains("stall"), "{}", rec.reason);
    assert_eq!(rec.points, [1.0 / 3.0; 3]);

    // A ply cap of 4 with players adding 1 each: a stall after 4 plies.
    let engines = fakes(&["--always=1", "--always=1", "--always=1"]);
    let mut c = config(engines, movetime());
    c.referee.max_plies = Some(4);
    let rec = &one_game::<Plain<Race>>(c, &players(3));
    assert_eq!(rec.moves.len(), 4);
    assert!(rec.reason.contains("ply cap 4"), "{}", rec.reason);

    // Seat 1 plays an illegal token: it gets 0, the two others 1/2 each; no winner.
    let engines = fakes(&["--always=1", "--always=7", "--always=1"]);
    let c = config(engines, movetime());
    let rec = &one_game::<Plain<Race>>(c, &players(3));
    assert_eq!(rec.termination, Termination::IllegalMove);
    assert_eq!(rec.winner, None);
    assert_eq!(rec.points, [0.5, 0.0, 0.5]);
}

#[test]
fn sprt_stops_the_match_when_decided() {
    // B plays an illegal move at once in every game, so A wins every game. With fishtest's
    // regularisation (empty categories count 1e-3 games) two wins give s = 2/2.002 and
    // var = (2*(1-s)^2 + 0.002*(0.5-s)^2 + ...) small, so the LLR passes ln(19) = 2.944 within a
    // few games, but the test may not stop before 16 games; the match stops long before its 200
    // scheduled games. Games already being played
    // when the test is decided still finish and count (A thinks 50 ms a move so that a busy
    // machine cannot squeeze many games in before the result is read).
    let mut c = config(
        vec![
            fake("A", &[CANDS, "--sleep-ms=50"]),
            fake("B", &["--always=zz"]),
        ],
        movetime(),
    );
    c.rounds = 100;
    c.concurrency = 2;
    c.sprt = Some(sanqi::tournament::stats::Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    });
    let report = run_game::<Plain<TicTacToe>>(&c, &TttConfig::default()).unwrap();
    assert!(report.stopped_early);
    assert!(report.records.len() >= 16, "{} games", report.records.len());
    assert!(
        report.records.len() < 30,
        "{} games {:?} {:?} {:?}",
        report.records.len(),
        report.pair(0, 1),
        report.sprt,
        report
            .records
            .iter()
            .map(|r| r.reason.clone())
            .collect::<Vec<_>>()
    );
    let (llr, decision) = report.sprt.unwrap();
    assert!(llr >= (0.95f64 / 0.05).ln());
    assert_eq!(decision, sanqi::tournament::stats::SprtDecision::AcceptH1);
}

#[test]
fn draw_adjudication_by_score() {
    // Both report score 0; from move 1 on, 2 consecutive moves each within ±10 draw the game:
    // the run counts plies a1 (full moves 0: not yet counted), b1 (1), c1 (1), a2 (2), b2 (2):
    // plies 2-5 are four in a row, so the game is drawn after b2.
    let mut c = config(
        vec![
            fake("A", &[CANDS, "--score=0"]),
            fake("B", &[CANDS, "--score=0"]),
        ],
        movetime(),
    );
    c.referee.draw = Some(sanqi::tournament::config::DrawAdjudication {
        move_number: 1,
        move_count: 2,
        score: 10,
    });
    let rec = &one_ttt_game(c);
    assert_eq!(rec.termination, Termination::Adjudication);
    assert_eq!(rec.winner, None);
    assert_eq!(rec.moves, ["a1", "b1", "c1", "a2", "b2"]);
    assert!(rec.reason.contains("draw by score"), "{}", rec.reason);
}

#[test]
fn two_player_passes_are_a_draw() {
    // Race for 2 players where both pass: a full round of passes ends the game as a draw.
    let c = config(
        vec![fake("A", &["--always=0000"]), fake("B", &["--always=0000"])],
        movetime(),
    );
    let rec = &one_game::<Plain<Race>>(c, &players(2));
    assert_eq!(rec.moves, ["0000", "0000"]);
    assert_eq!(rec.result_text(), "1/2-1/2");
    assert!(
        rec.reason.starts_with("draw: a full round of passes"),
        "{}",
        rec.reason
    );
}

#[test]
fn stall_when_no_side_makes_progress() {
    // Race for 2 with progress = 10 - total for both seats. A adds 1, B takes it back: the totals
    // run 1 0 1 0 ..., the best distance 9 is reached at ply 1 and never beaten, so with
    // stall_plies 6 the game stalls 6 plies later, after 7 moves. Positions never repeat (the
    // hash holds the ply), so neither the repetition nor the new-position rule applies.
    let mut c = config(
        vec![fake("A", &["--always=1"]), fake("B", &["--always=-1"])],
        movetime(),
    );
    c.games_per_opening = Some(1);
    c.referee.stall_plies = Some(6);
    let report = run_game_with_progress::<Plain<Race>>(&c, &players(2), |r| {
        Some(vec![10 - r.total.min(10); 2])
    })
    .unwrap();
    let rec = &report.records[0];
    assert_eq!(rec.moves.len(), 7, "{rec:?}");
    assert!(
        rec.reason.contains("no side made progress in 6 plies"),
        "{}",
        rec.reason
    );
    assert_eq!(rec.result_text(), "1/2-1/2");

    // Without a progress measure the same game is not a stall (every position is new) until the
    // ply cap.
    c.referee.max_plies = Some(12);
    let rec = &run_game::<Plain<Race>>(&c, &players(2)).unwrap().records[0];
    assert_eq!(rec.moves.len(), 12);
    assert!(rec.reason.contains("ply cap 12"), "{}", rec.reason);
}
