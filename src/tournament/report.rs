//! What a match reports: the totals per engine and head to head, the progress line printed after
//! each game, the final table, the move-list line of a game, and the date of the records.

use super::config::MatchConfig;
use super::record::{GameRecord, Termination};
use super::stats::{self, Sprt, SprtDecision, Wdl};

/// Totals of one engine.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineTally {
    /// Engine name.
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Points (a game hands out one point, see [`GameRecord::new`]).
    pub points: f64,
    /// Wins, draws (and stalls), losses.
    pub wdl: Wdl,
    /// Games lost by an illegal move.
    pub illegal: u64,
    /// Games lost by giving no move in a position with legal moves.
    pub no_move: u64,
    /// Games lost on time.
    pub time_losses: u64,
    /// Games lost by a crash (or a failed start).
    pub crashes: u64,
    /// Games lost by a hang.
    pub hangs: u64,
}

/// The outcome of a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchReport {
    /// Every finished game, in the order of the schedule.
    pub records: Vec<GameRecord>,
    /// Totals per engine (index as in the configuration).
    pub engines: Vec<EngineTally>,
    /// Two-player games: results of engine `i` against engine `j` (`i < j`), from `i`'s view.
    pub pairs: Vec<(usize, usize, Wdl)>,
    /// The SPRT's log-likelihood ratio and decision, if one was asked for.
    pub sprt: Option<(f64, SprtDecision)>,
    /// Whether the match stopped before the schedule ended (SPRT decided).
    pub stopped_early: bool,
}

impl MatchReport {
    /// An empty report for the engines of `config`.
    pub fn new(config: &MatchConfig) -> Self {
        MatchReport {
            engines: empty_tally(config),
            ..MatchReport::default()
        }
    }

    /// Adds one finished game to the totals.
    pub fn add(&mut self, rec: &GameRecord) {
        add_to_tally(&mut self.engines, &mut self.pairs, rec);
    }

    /// Brings the SPRT of engines 0 and 1 up to date after a game and says whether the match
    /// must stop now. Once decided, the decision stands: games that were in progress when the
    /// match stopped still count in the totals but do not reopen the test (a finished match
    /// once said `stopped: SPRT decided` above a final line saying `undecided`).
    pub fn update_sprt(&mut self, sprt: &Sprt, done: usize, total: usize) -> bool {
        if matches!(self.sprt, Some((_, d)) if d != SprtDecision::Continue) {
            return false;
        }
        let wdl = self.pair(0, 1);
        let decision = sprt.decision(&wdl);
        self.sprt = Some((sprt.llr(&wdl), decision));
        if decision != SprtDecision::Continue {
            self.stopped_early = done < total;
            return true;
        }
        false
    }

    /// The head-to-head counts of engines `a` and `b` from `a`'s view.
    pub fn pair(&self, a: usize, b: usize) -> Wdl {
        self.pairs
            .iter()
            .find_map(|&(i, j, w)| {
                if (i, j) == (a, b) {
                    Some(w)
                } else if (i, j) == (b, a) {
                    Some(w.flipped())
                } else {
                    None
                }
            })
            .unwrap_or_default()
    }
}

/// Today's date as `YYYY.MM.DD` (UTC), from the system clock.
pub fn pgn_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Days to civil date (Howard Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

fn engine_name(config: &MatchConfig, i: usize) -> &str {
    config.engines.get(i).map_or("?", |e| e.name.as_str())
}

/// Empty totals for the engines of `config`.
fn empty_tally(config: &MatchConfig) -> Vec<EngineTally> {
    config
        .engines
        .iter()
        .map(|e| EngineTally {
            name: e.name.clone(),
            ..EngineTally::default()
        })
        .collect()
}

/// Adds one finished game to the per-engine totals and the head-to-head table.
fn add_to_tally(
    engines: &mut [EngineTally],
    pairs: &mut Vec<(usize, usize, Wdl)>,
    rec: &GameRecord,
) {
    for (seat, &e) in rec.seats.iter().enumerate() {
        let Some(t) = engines.get_mut(e) else {
            continue;
        };
        t.games += 1;
        t.points += rec.points.get(seat).copied().unwrap_or(0.0);
        match rec.winner {
            Some(w) if w == seat => t.wdl.wins += 1,
            Some(_) => t.wdl.losses += 1,
            None if rec.offender == Some(seat) => t.wdl.losses += 1,
            None => t.wdl.draws += 1,
        }
        if rec.offender == Some(seat) {
            match rec.termination {
                Termination::IllegalMove => t.illegal += 1,
                Termination::NoMove => t.no_move += 1,
                Termination::TimeForfeit => t.time_losses += 1,
                Termination::Crash => t.crashes += 1,
                Termination::Hang => t.hangs += 1,
                _ => {}
            }
        }
    }
    let [a, b] = rec.seats[..] else {
        return;
    };
    if a == b {
        return;
    }
    let first_score = rec.points.first().copied().unwrap_or(0.5);
    let (i, j, score_i) = if a < b {
        (a, b, first_score)
    } else {
        (b, a, 1.0 - first_score)
    };
    if !pairs.iter().any(|p| (p.0, p.1) == (i, j)) {
        pairs.push((i, j, Wdl::default()));
    }
    let Some((_, _, wdl)) = pairs.iter_mut().find(|p| (p.0, p.1) == (i, j)) else {
        return;
    };
    if score_i > 0.75 {
        wdl.wins += 1;
    } else if score_i < 0.25 {
        wdl.losses += 1;
    } else {
        wdl.draws += 1;
    }
}

/// The line printed after each game: the score of two engines with its Elo (and SPRT), or the
/// points of every engine.
pub fn progress_line(
    config: &MatchConfig,
    report: &MatchReport,
    done: usize,
    total: usize,
) -> String {
    if config.engines.len() == 2 && !report.pairs.is_empty() {
        let w = report.pair(0, 1);
        let mut s = format!(
            "Score of {} vs {}: {} - {} - {} [{:.3}] {done}/{total}",
            engine_name(config, 0),
            engine_name(config, 1),
            w.wins,
            w.losses,
            w.draws,
            w.score().unwrap_or(0.5),
        );
        if let Some(e) = stats::elo_estimate(&w) {
            s.push_str(&format!("  Elo {:+.1} +/- {:.1}", e.elo, e.error));
        }
        if let (Some(sprt), Some((llr, _))) = (config.sprt, report.sprt) {
            s.push_str(&format!(
                "  LLR {llr:.2} ({:.2}, {:.2})",
                sprt.lower_bound(),
                sprt.upper_bound()
            ));
        }
        s
    } else {
        let parts: Vec<String> = report
            .engines
            .iter()
            .map(|t| format!("{} {:.2}/{}", t.name, t.points, t.games))
            .collect();
        format!("Points: {}  {done}/{total}", parts.join(", "))
    }
}

/// One line of the move-list output (see [`MatchConfig::movelist`]).
pub fn movelist_line(number: usize, rec: &GameRecord, names: &[String]) -> String {
    let seat_names: Vec<&str> = rec
        .seats
        .iter()
        .map(|&e| names.get(e).map_or("?", String::as_str))
        .collect();
    let points: Vec<String> = rec.points.iter().map(|p| format!("{p:.3}")).collect();
    let moves: Vec<&str> = rec
        .opening
        .moves
        .iter()
        .chain(rec.moves.iter())
        .map(String::as_str)
        .collect();
    format!(
        "{number}\t{}\t{}\t{}\t{}\t{}\t{}\n",
        seat_names.join(","),
        rec.result_text(),
        points.join(","),
        rec.opening.fen,
        moves.join(" "),
        rec.reason.replace(['\t', '\n'], " ")
    )
}

/// The final table: per-engine totals and failures, head-to-head Elo, SPRT state.
pub fn summary(config: &MatchConfig, report: &MatchReport) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "\n{} games of {} finished{}\n",
        report.records.len(),
        config.game.name(),
        if report.stopped_early {
            " (stopped: SPRT decided)"
        } else {
            ""
        }
    ));
    s.push_str(
        "Rank Name                     Games  Points    W    D    L  Illegal NoMove Time Crash Hang\n",
    );
    let mut order: Vec<&EngineTally> = report.engines.iter().collect();
    order.sort_by(|a, b| b.points.total_cmp(&a.points));
    for (rank, t) in order.iter().enumerate() {
        s.push_str(&format!(
            "{:>4} {:<24} {:>5} {:>7.2} {:>4} {:>4} {:>4}  {:>7} {:>6} {:>4} {:>5} {:>4}\n",
            rank + 1,
            t.name,
            t.games,
            t.points,
            t.wdl.wins,
            t.wdl.draws,
            t.wdl.losses,
            t.illegal,
            t.no_move,
            t.time_losses,
            t.crashes,
            t.hangs
        ));
    }
    for &(i, j, wdl) in &report.pairs {
        s.push_str(&format!(
            "{} vs {}: +{} ={} -{}",
            engine_name(config, i),
            engine_name(config, j),
            wdl.wins,
            wdl.draws,
            wdl.losses
        ));
        if let Some(e) = stats::elo_estimate(&wdl) {
            s.push_str(&format!(
                "  score {:.1}%  Elo {:+.1} +/- {:.1} (95%)  LOS {:.1}%  draws {:.1}%",
                e.score * 100.0,
                e.elo,
                e.error,
                e.los * 100.0,
                e.draw_ratio * 100.0
            ));
        }
        s.push('\n');
    }
    if let (Some(sprt), Some((llr, decision))) = (config.sprt, report.sprt) {
        s.push_str(&format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} bounds [{:.3}, {:.3}] {}\n",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            llr,
            sprt.lower_bound(),
            sprt.upper_bound(),
            match decision {
                SprtDecision::Continue => "undecided",
                SprtDecision::AcceptH0 => "H0 accepted",
                SprtDecision::AcceptH1 => "H1 accepted",
            }
        ));
    }
    s
}
