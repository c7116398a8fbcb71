//! Search reports as protocol replies: an `info` line for every search event, and the closing
//! lines of a search (the game's move annotation such as the Chinese-checkers `info string path`,
//! then `bestmove` or `nobestmove`).

use sanqi_protocol::{Bound, Dialect, Info, Reply, Score};

use crate::game::{Game, MoveBuffer};
use crate::search::{self, SearchEvent, SearchResult, SearchScore};

/// Largest score (from our side) at which a UCCI draw offer is accepted.
const DRAW_ACCEPT_CP: i32 = 0;

/// Writes a move sequence from `game`, playing it on a copy (formats may depend on the
/// position); stops at the first move that is not legal.
pub(crate) fn format_line<G: Game>(game: &G, moves: &[G::Move], config: &G::Config) -> Vec<String> {
    let mut g = game.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        let mut legal = G::MoveList::default();
        g.generate_moves(&mut legal);
        if !legal.moves().contains(&m) {
            break;
        }
        out.push(g.format_move(m, config));
        g.make_move(m);
    }
    out
}

/// The protocol form of a search score.
pub(crate) fn protocol_score(s: SearchScore) -> Score {
    match s {
        SearchScore::Cp(cp) => Score::Cp(cp),
        SearchScore::Mate(n) => Score::Mate(n),
    }
}

/// How `info` lines look in this session.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Style {
    /// The dialect.
    pub dialect: Dialect,
    /// `MultiPV` above 1: UCCI prints the index only then; UCI always, as the Stockfish family
    /// (Pikafish included) does.
    pub multipv: bool,
    /// `UCI_ShowWDL`: `wdl W D L` after every score (two-player games with a model).
    pub wdl: bool,
}

/// Win, draw and loss per mille for `score` in `game`, from the game's model
/// ([`crate::game::Evaluation::WDL`]): a mate is a certain win or loss; `None` without a model or with
/// more than two players.
pub(crate) fn wdl<G: Game>(game: &G, score: SearchScore) -> Option<(u32, u32, u32)> {
    if game.num_players() != 2 {
        return None;
    }
    let model = G::WDL?;
    Some(match score {
        SearchScore::Mate(n) if n > 0 => (1000, 0, 0),
        SearchScore::Mate(_) => (0, 0, 1000),
        SearchScore::Cp(cp) => model.wdl(cp, model.material(&game.to_fen())),
    })
}

/// The `info` line of one search event.
pub(crate) fn info<G: Game>(
    game: &G,
    config: &G::Config,
    event: &SearchEvent<G::Move>,
    style: Style,
) -> Info {
    match event {
        SearchEvent::Iteration(it) => Info {
            depth: Some(it.depth),
            seldepth: Some(it.seldepth),
            multipv: (style.multipv || style.dialect == Dialect::Uci).then_some(it.multipv as u32),
            score: Some(protocol_score(it.score)),
            wdl: if style.wdl { wdl(game, it.score) } else { None },
            bound: match it.bound {
                search::Bound::Lower => Some(Bound::Lower),
                search::Bound::Upper => Some(Bound::Upper),
                _ => None,
            },
            nodes: Some(it.nodes),
            nps: Some(it.nps),
            hashfull: Some(it.hashfull),
            tbhits: it.tbhits,
            time: Some(it.time_ms),
            pv: format_line(game, &it.pv, config),
            ..Info::default()
        },
        SearchEvent::CurrMove { depth, mv, number } => Info {
            depth: Some(*depth),
            currmove: Some(game.format_move(*mv, config)),
            currmovenumber: Some(*number as u32),
            ..Info::default()
        },
    }
}

/// What the front end measures of a search besides its result, for the final `info` line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Totals {
    /// Milliseconds since `go` was read.
    pub time_ms: u64,
    /// Table use in permille.
    pub hashfull: u32,
}

/// The lines that end a search: a final `info` line whose `pv` starts with the move played (so
/// that the last `pv` a GUI shows always agrees with `bestmove`, also when a search was cut short
/// after the best move changed), the move annotation (if the game has one), then `bestmove`
/// with the expected reply, or, without a legal move, a final score and `nobestmove` (UCCI)
/// or `bestmove (none)` (UCI). A UCCI draw offer (`draw_offered`) is accepted when the search
/// sees no advantage for the side to move.
pub(crate) fn closing_lines<G: Game>(
    game: &G,
    config: &G::Config,
    result: &SearchResult<G::Move>,
    totals: Totals,
    style: Style,
    draw_offered: bool,
) -> Vec<String> {
    let dialect = style.dialect;
    let mut lines = Vec::new();
    match result.best {
        Some(best) => {
            let mut pv = format_line(game, &result.pv, config);
            let mv = game.format_move(best, config);
            if pv.first() != Some(&mv) {
                pv = vec![mv.clone()];
            }
            let info = Info {
                depth: Some(result.depth.max(1)),
                seldepth: Some(result.seldepth.max(result.depth).max(1)),
                multipv: (dialect == Dialect::Uci).then_some(1),
                score: Some(protocol_score(result.score)),
                wdl: if style.wdl {
                    wdl(game, result.score)
                } else {
                    None
                },
                nodes: Some(result.nodes),
                nps: Some(result.nodes * 1000 / totals.time_ms.max(1)),
                hashfull: Some(totals.hashfull),
                tbhits: result.tbhits,
                time: Some(totals.time_ms),
                pv,
                ..Info::default()
            };
            lines.push(Reply::Info(info).display(dialect).to_string());
            let ponder = result.ponder.and_then(|p| {
                let mut g = game.clone();
                g.make_move(best);
                format_line(&g, &[p], config).pop()
            });
            if let Some(note) = game.annotate_move(best) {
                lines.push(Reply::message(note).display(dialect).to_string());
            }
            let draw = dialect == Dialect::Ucci
                && draw_offered
                && match result.score {
                    SearchScore::Cp(cp) => cp <= DRAW_ACCEPT_CP,
                    SearchScore::Mate(n) => n < 0,
                };
            let reply = Reply::BestMove {
                mv,
                ponder,
                draw,
                resign: false,
            };
            lines.push(reply.display(dialect).to_string());
        }
        None => {
            let mut legal = G::MoveList::default();
            game.generate_moves(&mut legal);
            // A final score only for a position without legal moves (mated or stalemated); with
            // every legal move banned there is nothing to score.
            if dialect == Dialect::Uci && legal.moves().is_empty() {
                let score = if game.in_check() {
                    Score::Mate(0)
                } else {
                    Score::Cp(0)
                };
                let info = Info {
                    depth: Some(0),
                    score: Some(score),
                    wdl: style.wdl.then_some(if game.in_check() {
                        (0, 0, 1000)
                    } else {
                        (0, 1000, 0)
                    }),
                    ..Info::default()
                };
                lines.push(Reply::Info(info).display(dialect).to_string());
            }
            lines.push(Reply::NoBestMove.display(dialect).to_string());
        }
    }
    lines
}
