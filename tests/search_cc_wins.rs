//! Chinese-checkers wins found by the search: positions where the side to move can fill its
//! target in one or two of its own moves (2 and 3 players; paranoid and best-reply search).
//! The expected distance comes from a plain brute-force enumeration of the game tree in this
//! file, not from the engine's search; the search must report `Mate(k)` with that `k` and play
//! a move that keeps the forced win.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::sync::Mutex;

mod support;

use sanqi::game::chinese_checkers::cells::cells_of;
use sanqi::game::chinese_checkers::{
    Cell, CellSet, ChineseCheckers, ChineseCheckersConfig, Triangle,
};
use sanqi::game::prelude::*;
use sanqi::game::Outcome;
use sanqi::search::multiplayer::PolicyPlayers;
use sanqi::search::{SearchControl, SearchLimits, SearchOptions, SearchScore, Searcher};
use support::cc_model::rank_text;
use support::legal;

/// The search algorithm option is a shared static: tests that set it hold this.
static ALGORITHM: Mutex<()> = Mutex::new(());

const START_3: &str = "1/2/3/4/CCCC5EEEE/CCC6EEE/CC7EE/C8E/9/10/11/12/13/AAAA/AAA/AA/A ACE A 0";

fn cell(name: &str) -> Cell {
    name.parse().expect("cell name")
}

/// The position string of the given pieces (letter, cells), players and side to move.
fn position(pieces: &[(char, CellSet)], players: &str, to_move: char, ply: u32) -> ChineseCheckers {
    let mut ranks = Vec::new();
    for rank in (1..=17u8).rev() {
        let mut row: Vec<Cell> = Cell::all().filter(|c| c.rank() == rank).collect();
        row.sort_by_key(|c| c.file());
        ranks.push(rank_text(row.into_iter().map(|c| {
            pieces
                .iter()
                .find(|(_, set)| set & c.bit() != 0)
                .map(|&(letter, _)| letter)
        })));
    }
    let fen = format!("{} {players} {to_move} {ply}", ranks.join("/"));
    support::pos(&fen)
}

/// Whether `me`, to move, can fill its target within `k` of its own moves whatever the other
/// players do (together).
fn forced_win(pos: &mut ChineseCheckers, me: usize, k: u32) -> bool {
    if k == 0 {
        return false;
    }
    legal(pos).into_iter().any(|m| {
        pos.make_move(m);
        let ok = match pos.outcome() {
            Some(Outcome::Win(w)) => w == me,
            Some(Outcome::Draw) => false,
            None => k > 1 && every_reply_wins(pos, me, k - 1),
        };
        pos.undo_move(m);
        ok
    })
}

/// Whether every sequence of moves of the others, up to `me`'s turn, leaves `me` a forced win
/// within `k` own moves (or fills `me`'s target on the way).
fn every_reply_wins(pos: &mut ChineseCheckers, me: usize, k: u32) -> bool {
    if pos.side_to_move() == me {
        return forced_win(pos, me, k);
    }
    legal(pos).into_iter().all(|m| {
        pos.make_move(m);
        let ok = match pos.outcome() {
            Some(Outcome::Win(w)) => w == me,
            Some(Outcome::Draw) => false,
            None => every_reply_wins(pos, me, k),
        };
        pos.undo_move(m);
        ok
    })
}

/// The fewest own moves to a forced win (up to `max`).
fn win_distance(pos: &ChineseCheckers, max: u32) -> Option<u32> {
    let me = pos.side_to_move();
    let mut p = pos.clone();
    (1..=max).find(|&k| forced_win(&mut p, me, k))
}

/// Side A's pieces: its target (D) filled but for `hole`, and one piece on `straggler`.
fn a_pieces(hole: &str, straggler: &str) -> CellSet {
    let target = Triangle::from_letter('D').unwrap().cells();
    (target & !cell(hole).bit()) | cell(straggler).bit()
}

/// Searches `pos` to `depth` plies and checks the reported distance and the move.
fn check(pos: &ChineseCheckers, want: u32, depth: u32) {
    check_with(pos, want, depth, None);
}

/// [`check`] with the opponents seen playing their policy move (the hybrid's
/// `SearchOptions::policy_players`).
fn check_with(pos: &ChineseCheckers, want: u32, depth: u32, modelled: Option<u8>) {
    let policy_players = modelled.map(|modelled| PolicyPlayers {
        modelled,
        ..PolicyPlayers::default()
    });
    let fen = pos.to_fen();
    assert_eq!(win_distance(pos, want), Some(want), "brute force on {fen}");
    let mut searcher = Searcher::new(16);
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let options = SearchOptions {
        policy_players,
        ..SearchOptions::default()
    };
    let result = searcher.search(
        pos,
        &limits,
        &options,
        None,
        &SearchControl::new(),
        &mut |_| {},
    );
    assert_eq!(result.score, SearchScore::Mate(want as i32), "{fen}");
    let best = result.best.expect("a move");
    assert!(legal(pos).contains(&best), "{fen}");
    let mut p = pos.clone();
    p.make_move(best);
    let me = pos.side_to_move();
    let keeps_win = match p.outcome() {
        Some(Outcome::Win(w)) => w == me,
        Some(Outcome::Draw) => false,
        None => every_reply_wins(&mut p, me, want - 1),
    };
    assert!(keeps_win, "{fen}: {best} does not keep the win in {want}");
}

/// Two players: A fills its target in one move (straggler next to the hole) and in two.
#[test]
fn two_player_wins_in_one_and_two() {
    // D: seven pieces in its target (A's home) and three in the open; it needs three moves.
    let a_home: Vec<Cell> = cells_of(Triangle::from_letter('A').unwrap().cells()).collect();
    let d = a_home[..7].iter().fold(0, |s, c| s | c.bit())
        | cell("i6").bit()
        | cell("k6").bit()
        | cell("m6").bit();
    for (straggler, want) in [("h13", 1), ("h12", 2)] {
        let pos = position(
            &[('A', a_pieces("h14", straggler)), ('D', d)],
            "AD",
            'A',
            150,
        );
        check(&pos, want, 2 * want);
    }
}

/// Three players (C and E still at home): the same wins, with paranoid and best-reply search
/// (its opponents' layer as the best reply, as passes, as the greedy policy, and as the hybrid:
/// no opponent, C only, E only or both seen playing greedily).
#[test]
fn three_player_wins_in_one_and_two() {
    let _guard = ALGORITHM.lock();
    let start = support::pos::<ChineseCheckers>(START_3);
    let brs =
        sanqi::search::catalog::find_param("Search Multiplayer BRS").expect("the option exists");
    let model = sanqi::search::catalog::find_param("Search Multiplayer Opponents")
        .expect("the option exists");
    // Paranoid, then best-reply search with each opponents' layer: best reply, pass, policy,
    // and the hybrid with each set of modelled opponents (seats: A 0, C 1, E 2).
    let cases = [
        (0, 0, None),
        (1, 0, None),
        (1, 1, None),
        (1, 2, None),
        (1, 3, None),
        (1, 3, Some(0b000)),
        (1, 3, Some(0b010)),
        (1, 3, Some(0b100)),
        (1, 3, Some(0b110)),
    ];
    for (algorithm, opponents, policy_players) in cases {
        brs.set(algorithm).unwrap();
        model.set(opponents).unwrap();
        for (straggler, want) in [("h13", 1), ("h12", 2)] {
            let pos = position(
                &[
                    ('A', a_pieces("h14", straggler)),
                    ('C', start.pieces(1)),
                    ('E', start.pieces(2)),
                ],
                "ACE",
                'A',
                150,
            );
            // Paranoid needs 1 + 3 (k - 1) plies; best-reply search 2k - 1 layers.
            check_with(&pos, want, 1 + 3 * (want - 1), policy_players);
        }
    }
    brs.reset();
    model.reset();
}

/// A Chinese-checkers start position for `players` and its setup.
fn startpos(players: u8) -> (ChineseCheckersConfig, ChineseCheckers) {
    let config = ChineseCheckersConfig {
        players,
        ..ChineseCheckersConfig::default()
    };
    let start = ChineseCheckers::startpos(&config);
    (config, start)
}

/// The legal move of the smallest greedy key (the move a greedy player is least likely to make).
fn least_greedy(pos: &ChineseCheckers) -> sanqi::game::chinese_checkers::Move {
    use sanqi::game::chinese_checkers::greedy::greedy_key;
    legal(pos)
        .into_iter()
        .min_by_key(|&m| greedy_key(pos, m))
        .expect("a move")
}

/// The hybrid's judgement from a game's moves: a player whose last 8 moves were greedy but for
/// at most one is modelled (its first three moves, the opening, are not judged); one that keeps
/// playing other moves is not, until 8 greedy moves in a row (any tie seed) have left at most one
/// of its other moves in the window.
#[test]
fn policy_players_are_those_whose_recent_moves_were_greedy() {
    use sanqi::game::chinese_checkers::greedy::greedy_choice;
    use sanqi::search::multiplayer::{policy_players, POLICY_OPENING, POLICY_PRIOR};
    use sanqi::tune::Param;
    let _guard = ALGORITHM.lock();
    let (config, start) = startpos(4);
    let mut pos = start.clone();
    let mut texts: Vec<String> = Vec::new();
    // Seat 2 plays its least greedy move for `stubborn` rounds, then greedy moves like the rest.
    let mut play = |rounds: usize, stubborn: bool, texts: &mut Vec<String>| {
        for round in 0..rounds {
            for seat in 0..4 {
                assert_eq!(pos.side_to_move(), seat);
                let m = if seat == 2 && stubborn {
                    least_greedy(&pos)
                } else {
                    greedy_choice(&pos, (round * 4 + seat) as u64).expect("a move")
                };
                texts.push(pos.format_move(m, &config));
                pos.make_move(m);
                assert!(pos.outcome().is_none());
            }
        }
    };
    // No moves yet: nobody was seen playing otherwise, so all are modelled (or, with
    // `Search Multiplayer Policy Prior` 0, none).
    assert_eq!(
        policy_players(&start, &texts, &config).map(|p| p.modelled),
        Some(0b1111)
    );
    // `param` at `value` for one judgement, then back to its default.
    let judged_with = |param: &Param, value: i64, texts: &[String]| {
        param.set(value).expect("in range");
        let mask = policy_players(&start, texts, &config).map(|p| p.modelled);
        param.reset();
        mask
    };
    assert_eq!(judged_with(&POLICY_PRIOR, 0, &texts), Some(0));
    // A player's first three moves (the opening) are not judged: still modelled.
    play(3, true, &mut texts);
    assert_eq!(
        policy_players(&start, &texts, &config).map(|p| p.modelled),
        Some(0b1111)
    );
    // Judging the opening too (`Search Multiplayer Policy Opening` 0): three misses.
    assert_eq!(judged_with(&POLICY_OPENING, 0, &texts), Some(0b1011));
    // One judged miss is allowed, two are not.
    play(1, true, &mut texts);
    assert_eq!(
        policy_players(&start, &texts, &config).map(|p| p.modelled),
        Some(0b1111)
    );
    play(1, true, &mut texts);
    assert_eq!(
        policy_players(&start, &texts, &config).map(|p| p.modelled),
        Some(0b1011)
    );
    play(5, true, &mut texts);
    assert_eq!(
        policy_players(&start, &texts, &config).map(|p| p.modelled),
        Some(0b1011)
    );
    // Six greedy moves: two of its last eight were not greedy.
    play(6, false, &mut texts);
    assert_eq!(
        policy_players(&start, &texts, &config).map(|p| p.modelled),
        Some(0b1011)
    );
    // Seven: one miss is allowed.
    play(1, false, &mut texts);
    assert_eq!(
        policy_players(&start, &texts, &config).map(|p| p.modelled),
        Some(0b1111)
    );
    // A move that is not legal: unknown.
    let mut bad = texts.clone();
    bad.push("a1a2".into());
    assert_eq!(policy_players(&start, &bad, &config), None);
    // Two players: not judged.
    let two = ChineseCheckers::startpos(&ChineseCheckersConfig::default());
    assert_eq!(
        policy_players(&two, &[], &ChineseCheckersConfig::default()),
        None
    );
}

/// The hybrid models each opponent by the rule that explains its moves: in a six-player game
/// whose seats play greedy, rear piece first, longest jump first, the two-move search, greedy
/// and their least greedy move, the first three are modelled by their own rule (0, 1, 2), the
/// two-move search and the odd player are not modelled (it is no rule of the model), once their
/// moves have been judged; and each rule's policy move is that rule's move (the search's layer
/// playing it: `search::multiplayer` unit tests).
#[test]
fn the_hybrid_models_each_opponent_by_its_own_rule() {
    use sanqi::game::chinese_checkers::greedy::Player;
    use sanqi::search::multiplayer::{policy_players, POLICY_DOUBT};
    let _guard = ALGORITHM.lock();
    let (config, start) = startpos(6);
    let seats = [
        Some(Player::Greedy),
        Some(Player::Rear),
        Some(Player::Jump),
        Some(Player::Shallow),
        Some(Player::Greedy),
        None,
    ];
    let mut pos = start.clone();
    let mut texts: Vec<String> = Vec::new();
    for round in 0..14u64 {
        for (seat, rule) in seats.iter().enumerate() {
            let m = match rule {
                Some(r) => r.choice(&pos, round * 6 + seat as u64).expect("a move"),
                None => least_greedy(&pos),
            };
            texts.push(pos.format_move(m, &config));
            pos.make_move(m);
            assert!(pos.outcome().is_none());
        }
    }
    // Before any move is judged every seat is modelled by rule 0, and the others fit as well:
    // in doubt with `Search Multiplayer Policy Doubt` 2, not with 1 or 0 (the default, no
    // doubt at all).
    let with_doubt = |doubt: i64, texts: &[String]| {
        POLICY_DOUBT.set(doubt).expect("in range");
        let found = policy_players(&start, texts, &config).expect("legal moves");
        POLICY_DOUBT.reset();
        found
    };
    let none = with_doubt(2, &texts[..6]);
    assert_eq!(none.modelled, 0b11_1111);
    assert_eq!(none.rule, [0; 8]);
    assert_eq!(&none.also[..6], &[0b110; 6]);
    assert_eq!(with_doubt(1, &texts[..6]).also, [0; 8]);
    assert_eq!(with_doubt(0, &texts).also, [0; 8]);
    assert_eq!(with_doubt(2, &texts), with_doubt(1, &texts));
    assert_eq!(
        policy_players(&start, &texts, &config),
        Some(with_doubt(0, &texts))
    );
    // The other rules a modelled seat may play by: those that miss no more of its judged moves
    // (its last 8, not its first 3) than its own rule, counted here seat by seat from the move
    // texts, after each round from the fourth on.
    let mut in_doubt = 0;
    for rounds in 4..=14 {
        let prefix = &texts[..6 * rounds];
        let found = with_doubt(1, prefix);
        let mut replay = start.clone();
        let mut misses = [[0usize; 3]; 6];
        for (i, text) in prefix.iter().enumerate() {
            let seat = replay.side_to_move();
            let m = replay.parse_move(text, &config).expect("legal");
            if i / 6 >= 3 && i + 6 * 8 >= prefix.len() {
                for (r, miss) in misses[seat].iter_mut().enumerate() {
                    *miss += usize::from(!replay.is_policy_move_of(r, m));
                }
            }
            replay.make_move(m);
        }
        for seat in (0..6).filter(|&s| found.modelled & (1 << s) != 0) {
            let own = misses[seat][usize::from(found.rule[seat])];
            for (r, &miss) in misses[seat].iter().enumerate() {
                let fits = r != usize::from(found.rule[seat]) && miss == own;
                assert_eq!(
                    found.also[seat] & (1 << r) != 0,
                    fits,
                    "round {rounds} seat {seat} rule {r} {found:?}"
                );
                in_doubt += usize::from(fits);
            }
        }
    }
    assert!(in_doubt > 0, "no seat was ever in doubt");
    let found = policy_players(&start, &texts, &config).expect("legal moves");
    assert_eq!(found.modelled, 0b01_0111, "{found:?}");
    assert_eq!(&found.rule[..3], &[0, 1, 2], "{found:?}");
    assert_eq!(found.rule[4], 0, "{found:?}");
    // The rules' moves as the search's model plays them.
    for (r, rule) in Player::MODELS.iter().enumerate() {
        assert_eq!(pos.policy_move_of(r), rule.choice(&pos, 0));
        let m = rule.choice(&pos, 5).expect("a move");
        assert!(pos.is_policy_move_of(r, m), "{rule:?} {m}");
    }
    assert_eq!(pos.policy_move_of(Player::MODELS.len()), None);
}

/// A modelled opponent that breaks a tie otherwise than the model can win: three players, C
/// (modelled by the longest-jump-first rule) has filled its target but for one hole, with a piece
/// next to the hole and another one in the open, and no jump that gains: every step that gains is
/// one of the rule's ties, the step into the hole among them, while the model's tie-break (seed
/// 0) takes another. Searched two layers deep, A sees no danger with `Search Multiplayer Policy
/// Ties` 0 and C's win (mate against A) with 1, in the opponents' layer. The rule's ties and
/// its choice come from the baseline players' own functions; the win from the rules.
#[test]
fn the_layer_allows_for_a_modelled_opponents_tied_win() {
    use sanqi::game::chinese_checkers::baselines::{is_rule_move, jump_choice};
    use sanqi::game::chinese_checkers::distance::plain_distance;
    use sanqi::game::chinese_checkers::greedy::Player;
    let _guard = ALGORITHM.lock();
    let start = support::pos::<ChineseCheckers>(START_3);
    let target = Triangle::from_letter('C').unwrap().opposite();
    let tip = target.tip();
    let d = |c: Cell| plain_distance(c, tip);
    let homes = start.pieces(0) | start.pieces(1) | start.pieces(2);
    // E lends C's target one piece (its farthest home cell stays empty).
    let lent = cells_of(start.pieces(2))
        .max_by_key(|&c| d(c))
        .expect("E has pieces");
    let place = |hole: Cell, outside: Cell, open: Cell, to_move: char| {
        let rest = target.cells() & !hole.bit();
        let foreign = cells_of(rest).min_by_key(|&c| c.index()).expect("cells");
        position(
            &[
                ('A', start.pieces(0)),
                ('C', (rest & !foreign.bit()) | outside.bit() | open.bit()),
                ('E', (start.pieces(2) & !lent.bit()) | foreign.bit()),
            ],
            "ACE",
            to_move,
            60,
        )
    };
    let mut found = None;
    'search: for hole in cells_of(target.cells()) {
        for outside in hole.neighbours() {
            if outside.bit() & (target.cells() | homes) != 0 || d(outside) != d(hole) + 1 {
                continue;
            }
            for open in Cell::all() {
                let near = outside
                    .neighbours()
                    .chain(hole.neighbours())
                    .any(|c| c == open);
                if open.bit() & (target.cells() | homes) != 0 || open == outside || near {
                    continue;
                }
                let pos = place(hole, outside, open, 'C');
                let Some(win) = legal(&pos).into_iter().find(|&m| {
                    let mut p = pos.clone();
                    p.make_move(m);
                    p.outcome() == Some(Outcome::Win(1))
                }) else {
                    continue;
                };
                let model = jump_choice(&pos, 0).expect("a move");
                let mut after = pos.clone();
                after.make_move(model);
                if is_rule_move(&pos, Player::Jump, win)
                    && model != win
                    && after.outcome().is_none()
                {
                    found = Some((hole, outside, open));
                    break 'search;
                }
            }
        }
    }
    let (hole, outside, open) =
        found.expect("a position whose winning step the model's tie-break skips");
    // The same position with A to move (A's first move cannot reach the hole).
    let pos = place(hole, outside, open, 'A');
    let ties = sanqi::search::catalog::find_param("Search Multiplayer Policy Ties")
        .expect("the option exists");
    // C modelled by longest jump first (rule 2), E by greedy.
    let options = SearchOptions {
        policy_players: Some(PolicyPlayers {
            modelled: 0b110,
            rule: [0, 2, 0, 0, 0, 0, 0, 0],
            also: [0; 8],
        }),
        ..SearchOptions::default()
    };
    let mut scores = Vec::new();
    for value in [0, 1] {
        ties.set(value).unwrap();
        let mut searcher = Searcher::new(16);
        let limits = SearchLimits {
            depth: Some(2),
            ..SearchLimits::default()
        };
        let result = searcher.search(
            &pos,
            &limits,
            &options,
            None,
            &SearchControl::new(),
            &mut |_| {},
        );
        scores.push(result.score);
    }
    ties.reset();
    let fen = pos.to_fen();
    assert!(
        !matches!(scores[0], SearchScore::Mate(_)),
        "{fen}: {:?}",
        scores[0]
    );
    assert!(
        matches!(scores[1], SearchScore::Mate(k) if k < 0),
        "{fen}: {:?}",
        scores[1]
    );
}
