//! Elo, error bars, LOS and SPRT of `sanqi match` against numbers worked out by hand.

use sanqi::tournament::stats::{
    elo_estimate, elo_to_score, erf, los, score_to_elo, Sprt, SprtDecision, Wdl,
};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn elo_and_error_bars_by_hand() {
    // W=60 D=30 L=10, N=100.
    // s = (60 + 30/2) / 100 = 0.75
    // Elo = -400 log10(1/0.75 - 1) = -400 log10(1/3) = 400 * 0.4771213 = 190.8485
    // var = (60 (0.25)^2 + 30 (-0.25)^2 + 10 (0.75)^2) / 100 = (3.75 + 1.875 + 5.625) / 100 = 0.1125
    // se = sqrt(0.1125 / 100) = 0.0335410; 1.959964 se = 0.0657392
    // interval 0.6842608 .. 0.8157392
    // Elo(0.6842608) = -400 log10(0.4614311) = -400 (-0.3358932) = 134.3573
    // Elo(0.8157392) = -400 log10(0.2258820) = -400 (-0.6461184) = 258.4473
    // error bar = (258.4473 - 134.3573) / 2 = 62.0450
    // LOS = (1 + erf((60 - 10) / sqrt(2 * 70))) / 2 = (1 + erf(4.2258)) / 2 = 0.99999999886
    let wdl = Wdl::new(60, 30, 10);
    let e = elo_estimate(&wdl).unwrap();
    assert!(close(e.score, 0.75, 1e-12));
    assert!(close(e.elo, 190.8485, 1e-3), "{}", e.elo);
    assert!(close(wdl.variance().unwrap(), 0.1125, 1e-12));
    assert!(close(e.error, 62.0450, 1e-3), "{}", e.error);
    assert!(close(e.los, 0.999_999_998_86, 1e-7), "{}", e.los);
    assert!(close(e.draw_ratio, 0.3, 1e-12));

    // W=120 D=260 L=110, N=490: s = 250/490 = 0.5102041; Elo = -400 log10(0.96) = 7.0915.
    let e = elo_estimate(&Wdl::new(120, 260, 110)).unwrap();
    assert!(close(e.elo, 7.0915, 1e-3), "{}", e.elo);

    // The flipped view has the opposite Elo and the same error bar.
    let f = elo_estimate(&Wdl::new(10, 30, 60)).unwrap();
    assert!(close(f.elo, -190.8485, 1e-3));
    assert!(close(f.error, 62.0450, 1e-3));

    // All wins: infinite Elo; no games: no estimate.
    assert_eq!(score_to_elo(1.0), f64::INFINITY);
    let all = elo_estimate(&Wdl::new(2, 0, 0)).unwrap();
    assert_eq!((all.elo, all.error), (f64::INFINITY, f64::INFINITY));
    assert_eq!(
        format!("{:+.1}", elo_estimate(&Wdl::new(0, 2, 0)).unwrap().elo),
        "+0.0"
    );
    assert!(elo_estimate(&Wdl::default()).is_none());
    assert_eq!(los(&Wdl::new(0, 5, 0)), 0.5);
}

#[test]
fn logistic_conversions_and_erf() {
    // 1 / (1 + 10^(-10/400)) = 1 / (1 + 0.9440609) = 0.5143872
    assert!(close(elo_to_score(10.0), 0.514_387_184, 1e-9));
    assert!(close(score_to_elo(elo_to_score(123.4)), 123.4, 1e-9));
    assert_eq!(elo_to_score(0.0), 0.5);
    // erf(0.5) = 0.5204999, erf(1) = 0.8427008, erf(-1) = -0.8427008 (tables).
    assert!(close(erf(0.5), 0.520_499_9, 2e-7));
    assert!(close(erf(1.0), 0.842_700_8, 2e-7));
    assert!(close(erf(-1.0), -0.842_700_8, 2e-7));
}

#[test]
fn sprt_by_hand() {
    // elo0 = 0, elo1 = 10, alpha = beta = 0.05.
    // Bounds: ln(0.05 / 0.95) = -2.944439, ln(0.95 / 0.05) = +2.944439.
    let sprt = Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    };
    assert!(close(sprt.lower_bound(), -2.944_439, 1e-6));
    assert!(close(sprt.upper_bound(), 2.944_439, 1e-6));

    // W=60 D=30 L=10: s = 0.75, var = 0.1125 (see above); s0 = 0.5, s1 = 0.5143872.
    // LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var)
    //     = 100 * 0.0143872 * (1.5 - 0.5 - 0.5143872) / 0.225 = 0.6986601 / 0.225 = 3.105156
    // > 2.944439: H1 accepted.
    let wdl = Wdl::new(60, 30, 10);
    assert!(close(sprt.llr(&wdl), 3.105_156, 1e-5), "{}", sprt.llr(&wdl));
    assert_eq!(sprt.decision(&wdl), SprtDecision::AcceptH1);

    // elo0 = 0, elo1 = 5; W=120 D=260 L=110, N=490.
    // s = 0.5102041; s1 = 1 / (1 + 10^(-5/400)) = 0.5071951
    // var = (120 (1 - s)^2 + 260 (0.5 - s)^2 + 110 s^2) / 490
    //     = (28.788005 + 0.027072 + 28.633903) / 490 = 0.1172428
    // LLR = 490 * 0.0071951 * (1.0204082 - 0.5 - 0.5071951) / (2 * 0.1172428) = 0.198664: undecided.
    let sprt5 = Sprt { elo1: 5.0, ..sprt };
    let wdl = Wdl::new(120, 260, 110);
    assert!(
        close(sprt5.llr(&wdl), 0.198_664, 1e-5),
        "{}",
        sprt5.llr(&wdl)
    );
    assert_eq!(sprt5.decision(&wdl), SprtDecision::Continue);

    // The mirror result falls below zero; a clearly bad result accepts H0.
    assert!(sprt5.llr(&wdl.flipped()) < 0.0);
    assert_eq!(sprt.decision(&Wdl::new(10, 30, 60)), SprtDecision::AcceptH0);
    assert_eq!(sprt.llr(&Wdl::default()), 0.0);

    // Only wins: fishtest regularises empty categories to 1e-3 games. N = 3.002,
    // s = (3 + 0.0005) / 3.002 = 0.9995003, var = (3 (1-s)^2 + 0.001 (0.5-s)^2 + 0.001 s^2) / 3.002
    // = (7.49e-7 + 2.4950e-4 + 9.9900e-4) / 3.002 = 4.1614e-4;
    // LLR = 3.002 * 0.0143872 * (1.9990007 - 1.0143872) / (2 * 4.1614e-4) = 51.10: H1.
    let llr = sprt.llr(&Wdl::new(3, 0, 0));
    assert!(close(llr, 51.1, 0.2), "{llr}");
    // ... but no decision before 16 games. With elo1 = 100 (s1 = 0.6400650) one draw gives
    // var = 2 * 1e-3 * 0.25 / 1.002 = 4.990e-4 and
    // LLR = 1.002 * 0.1400650 * (1 - 0.5 - 0.6400650) / (2 * 4.990e-4) = -19.70,
    // far below the bound, and must not stop the test.
    let wide = Sprt {
        elo1: 100.0,
        ..sprt
    };
    assert!(close(wide.llr(&Wdl::new(0, 1, 0)), -19.70, 0.01));
    assert_eq!(wide.decision(&Wdl::new(0, 1, 0)), SprtDecision::Continue);
    assert_eq!(sprt.decision(&Wdl::new(15, 0, 0)), SprtDecision::Continue);
    assert_eq!(sprt.decision(&Wdl::new(16, 0, 0)), SprtDecision::AcceptH1);
}

#[test]
fn a_decided_sprt_stays_decided_while_games_in_progress_finish() {
    use sanqi::tournament::report::MatchReport;
    let sprt = Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    };
    // W=60 D=30 L=10 accepts H1 (LLR 3.105, see sprt_by_hand): the match must stop.
    let mut report = MatchReport {
        pairs: vec![(0, 1, Wdl::new(60, 30, 10))],
        ..MatchReport::default()
    };
    assert!(report.update_sprt(&sprt, 100, 400));
    assert!(report.stopped_early);
    // A game that was in progress ends in a loss: the totals now give LLR < 2.944, but the
    // decision made at the stop stands (and the match is not told to stop twice).
    report.pairs = vec![(0, 1, Wdl::new(60, 30, 12))];
    assert!(sprt.llr(&report.pair(0, 1)) < sprt.upper_bound());
    assert!(!report.update_sprt(&sprt, 102, 400));
    assert_eq!(report.sprt.map(|(_, d)| d), Some(SprtDecision::AcceptH1));
    // Undecided counts keep the test open.
    let mut open = MatchReport {
        pairs: vec![(0, 1, Wdl::new(12, 10, 11))],
        ..MatchReport::default()
    };
    assert!(!open.update_sprt(&sprt, 33, 400));
    assert_eq!(open.sprt.map(|(_, d)| d), Some(SprtDecision::Continue));
    assert!(!open.stopped_early);
}
