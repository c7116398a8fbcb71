//! A measuring tool, not part of the build: how often a modelled seat's next move in a
//! six-player `sanqi match --movelist` file is among the moves sanqi's opponents' layer tries
//! for it (the ties of the rule the seat is modelled by; with `Search Multiplayer Policy Doubt`
//! also those of the other rules that fit its moves as well), judged at each of sanqi's moves
//! after the 12-ply opening from the game's moves up to there, as the engine judges them.
//!
//! Build it as a crate of its own, from the checkout's root (docs/chinese-checkers.md, "Rules
//! in doubt"):
//!
//! ```sh
//! cargo new --bin /tmp/model-coverage
//! cp docs/chinese-checkers/model-coverage.rs /tmp/model-coverage/src/main.rs
//! echo "sanqi = { path = \"$PWD\" }" >> /tmp/model-coverage/Cargo.toml
//! cargo run --release --manifest-path /tmp/model-coverage/Cargo.toml -- jump.moves [doubt]
//! ```
//!
//! The environment variable `OPENING` sets `Search Multiplayer Policy Opening` for the judgement
//! (default: the engine's default).
use sanqi::game::chinese_checkers::{ChineseCheckers, ChineseCheckersConfig};
use sanqi::game::{Notation, Rules, SearchHints};
use sanqi::search::multiplayer::{policy_players, POLICY_DOUBT, POLICY_OPENING};
fn main() {
    let f = std::env::args().nth(1).expect("a movelist file");
    // The doubt judged as `Search Multiplayer Policy Doubt` this value (second argument; 2).
    let doubt = std::env::args().nth(2).map_or(2, |d| d.parse().expect("0, 1 or 2"));
    POLICY_DOUBT.set(doubt).expect("0, 1 or 2");
    if let Ok(v) = std::env::var("OPENING") {
        POLICY_OPENING.set(v.parse().expect("a number")).expect("in range");
    }
    let config = ChineseCheckersConfig { players: 6, ..Default::default() };
    // [own rule only, with the other fitting rules][not covered, covered], by judged moves
    let mut covered = [[0u64; 2]; 2];
    let mut unjudged = [[0u64; 2]; 2];
    for line in std::fs::read_to_string(&f).expect("readable").lines() {
        let c: Vec<&str> = line.split('\t').collect();
        let sq = c[1].split(',').position(|n| n == "sanqi").expect("a sanqi seat");
        let start = ChineseCheckers::from_fen(c[4], &config).expect("a fen");
        let moves: Vec<String> = c[5].split_whitespace().map(|s| s.to_string()).collect();
        let mut pos = start.clone();
        let mut made = [0usize; 6];
        for (i, t) in moves.iter().enumerate() {
            let m = pos.parse_move(t, &config).expect("legal");
            if pos.side_to_move() == sq && i >= 12 {
                let pp = policy_players(&start, &moves[..i], &config).expect("judged");
                let mut p2 = pos.clone();
                p2.make_move(m);
                for j in i + 1..(i + 6).min(moves.len()) {
                    let s = p2.side_to_move();
                    let mv = p2.parse_move(&moves[j], &config).expect("legal");
                    if pp.modelled & (1 << s) != 0 {
                        let mut ties = Default::default();
                        p2.policy_ties_of(pp.rule[s] as usize, &mut ties);
                        let own = ties.contains(&mv);
                        let mut any = own;
                        for r in (0..3).filter(|r| pp.also[s] & (1 << r) != 0) {
                            p2.policy_ties_of(r, &mut ties);
                            any |= ties.contains(&mv);
                        }
                        covered[0][usize::from(own)] += 1;
                        covered[1][usize::from(any)] += 1;
                        if made[s] <= POLICY_OPENING.get() as usize + 2 {
                            unjudged[0][usize::from(own)] += 1;
                            unjudged[1][usize::from(any)] += 1;
                        }
                    }
                    p2.make_move(mv);
                }
            }
            made[pos.side_to_move()] += 1;
            pos.make_move(m);
        }
    }
    let pct = |x: [u64; 2]| 100.0 * x[0] as f64 / (x[0] + x[1]) as f64;
    println!("moves not covered: own rule {:?} ({:.1}%), with the fitting rules {:?} ({:.1}%); \
              of seats with at most 2 judged moves: {:?} ({:.1}%) / {:?} ({:.1}%)",
             covered[0], pct(covered[0]), covered[1], pct(covered[1]),
             unjudged[0], pct(unjudged[0]), unjudged[1], pct(unjudged[1]));
}
