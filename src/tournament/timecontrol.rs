//! Time controls: `tc=[moves/]base[+inc]` in seconds (`10+0.1`, `40/60`, `inf`), `movetime=<ms>`,
//! `nodes=<n>`, `depth=<n>`, the clocks of a game, and the `go` command each protocol wants.

use std::time::Duration;

use sanqi_protocol::{Command, GoParams};

use super::proto::Proto;

/// How long an engine may think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A clock: `base_ms` for `moves` moves (or the whole game when `None`), plus `inc_ms` per move.
    Clock {
        /// Moves per period (`None`: sudden death).
        moves: Option<u32>,
        /// Time per period in milliseconds.
        base_ms: u64,
        /// Increment per move in milliseconds.
        inc_ms: u64,
    },
    /// A fixed time per move.
    MoveTime(u64),
    /// A node budget per move (no clock).
    Nodes(u64),
    /// A depth per move (no clock).
    Depth(u32),
}

fn seconds_to_ms(text: &str) -> Result<u64, String> {
    let v: f64 = text
        .parse()
        .map_err(|_| format!("bad number of seconds `{text}`"))?;
    if !v.is_finite() || !(0.0..=1e9).contains(&v) {
        return Err(format!("seconds `{text}` out of range"));
    }
    Ok((v * 1000.0).round() as u64)
}

impl TimeControl {
    /// Parses `[moves/]base[+inc]` (seconds, fractions allowed; `base` may be `m:ss`).
    pub fn parse_tc(text: &str) -> Result<TimeControl, String> {
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => (
                Some(
                    m.parse::<u32>()
                        .ok()
                        .filter(|&m| m > 0)
                        .ok_or_else(|| format!("bad moves per period `{m}` in tc `{text}`"))?,
                ),
                rest,
            ),
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base_ms = match base.split_once(':') {
            Some((min, sec)) => {
                let min: u64 = min
                    .parse()
                    .map_err(|_| format!("bad minutes `{min}` in tc `{text}`"))?;
                min.saturating_mul(60_000)
                    .saturating_add(seconds_to_ms(sec)?)
            }
            None => seconds_to_ms(base)?,
        };
        let inc_ms = match inc {
            Some(i) => seconds_to_ms(i)?,
            None => 0,
        };
        if base_ms == 0 && inc_ms == 0 {
            return Err(format!("tc `{text}` gives no time"));
        }
        Ok(TimeControl::Clock {
            moves,
            base_ms,
            inc_ms,
        })
    }

    /// Parses one `key=value` limit: `tc`, `movetime` (ms), `nodes`, `depth`. `None` for other keys.
    pub fn parse_key(key: &str, value: &str) -> Option<Result<TimeControl, String>> {
        let num = |what: &str| -> Result<u64, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|&v| v > 0)
                .ok_or_else(|| format!("bad {what} `{value}`"))
        };
        Some(match key {
            "tc" => TimeControl::parse_tc(value),
            "st" => seconds_to_ms(value).map(TimeControl::MoveTime),
            "movetime" => num("movetime").map(TimeControl::MoveTime),
            "nodes" => num("nodes").map(TimeControl::Nodes),
            "depth" => num("depth").and_then(|d| {
                u32::try_from(d)
                    .map(TimeControl::Depth)
                    .map_err(|_| format!("depth `{value}` too large"))
            }),
            _ => return None,
        })
    }
}

impl TimeControl {
    /// The time control as a game record's `TimeControl` tag writes it: `40/60+0.6`,
    /// `movetime 100 ms`, `nodes 1000`, `depth 7`.
    pub fn record_text(&self) -> String {
        match *self {
            TimeControl::Clock {
                moves,
                base_ms,
                inc_ms,
            } => {
                let secs = |ms: u64| {
                    if ms % 1000 == 0 {
                        format!("{}", ms / 1000)
                    } else {
                        format!("{}", ms as f64 / 1000.0)
                    }
                };
                let mut s = String::new();
                if let Some(m) = moves {
                    s.push_str(&format!("{m}/"));
                }
                s.push_str(&secs(base_ms));
                if inc_ms > 0 {
                    s.push('+');
                    s.push_str(&secs(inc_ms));
                }
                s
            }
            TimeControl::MoveTime(ms) => format!("movetime {ms} ms"),
            TimeControl::Nodes(n) => format!("nodes {n}"),
            TimeControl::Depth(d) => format!("depth {d}"),
        }
    }
}

/// The clock of one seat during a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// The time control.
    pub tc: TimeControl,
    /// Time left in milliseconds (for `Clock` controls).
    pub left_ms: i64,
    /// Moves played by this seat.
    pub moves_played: u32,
}

impl Clock {
    /// A fresh clock.
    pub fn new(tc: TimeControl) -> Clock {
        let left_ms = match tc {
            TimeControl::Clock { base_ms, .. } => base_ms as i64,
            _ => 0,
        };
        Clock {
            tc,
            left_ms,
            moves_played: 0,
        }
    }

    /// The increment of the move in milliseconds.
    pub fn inc_ms(&self) -> i64 {
        match self.tc {
            TimeControl::Clock { inc_ms, .. } => inc_ms as i64,
            _ => 0,
        }
    }

    /// Moves to the next time control (`None`: sudden death or no clock).
    pub fn moves_to_go(&self) -> Option<u32> {
        match self.tc {
            TimeControl::Clock { moves: Some(m), .. } => Some(m - self.moves_played % m),
            _ => None,
        }
    }

    /// The time the seat may use for this move before it loses on time (`None`: unlimited, only
    /// the hang timeout applies).
    pub fn allowed(&self) -> Option<Duration> {
        match self.tc {
            TimeControl::Clock { .. } => Some(Duration::from_millis(self.left_ms.max(0) as u64)),
            TimeControl::MoveTime(ms) => Some(Duration::from_millis(ms)),
            TimeControl::Nodes(_) | TimeControl::Depth(_) => None,
        }
    }

    /// Charges a move that took `elapsed`; returns false when the flag fell (beyond `margin`).
    pub fn charge(&mut self, elapsed: Duration, margin: Duration) -> bool {
        let used = elapsed.as_millis() as i64;
        let ok = match self.allowed() {
            Some(limit) => elapsed <= limit + margin,
            None => true,
        };
        if let TimeControl::Clock {
            moves,
            base_ms,
            inc_ms,
        } = self.tc
        {
            self.left_ms -= used;
            self.moves_played += 1;
            // Between moves the clock gains the increment; at a new period it gains the base.
            self.left_ms = self.left_ms.max(0) + inc_ms as i64;
            if let Some(m) = moves {
                if self.moves_played % m == 0 {
                    self.left_ms += base_ms as i64;
                }
            }
        }
        ok
    }
}

/// The `go` command for the side to move. `clocks[i]` is the clock of seat `i`, `mover` the seat
/// to move. `ucci_millis`: the UCCI engine was told `usemillisec` (otherwise UCCI times are whole
/// seconds).
pub fn go_command(proto: Proto, clocks: &[Clock], mover: usize, ucci_millis: bool) -> Command {
    Command::Go(go_params(proto, clocks, mover, ucci_millis))
}

/// The parameters of [`go_command`].
pub fn go_params(proto: Proto, clocks: &[Clock], mover: usize, ucci_millis: bool) -> GoParams {
    let Some(&me) = clocks.get(mover) else {
        return GoParams {
            depth: Some(1),
            ..GoParams::default()
        };
    };
    let ucci = proto == Proto::Ucci;
    // UCCI times are whole seconds unless the engine takes `usemillisec`.
    let unit = |ms: i64| {
        if !ucci || ucci_millis {
            ms
        } else {
            (ms / 1000).max(1)
        }
    };
    let inc_unit = |ms: i64| if !ucci || ucci_millis { ms } else { ms / 1000 };
    match me.tc {
        // UCCI has no movetime: one move in the given time.
        TimeControl::MoveTime(ms) if ucci => GoParams {
            time: Some(unit(ms as i64)),
            movestogo: Some(1),
            ..GoParams::default()
        },
        TimeControl::MoveTime(ms) => GoParams {
            movetime: Some(ms as i64),
            ..GoParams::default()
        },
        TimeControl::Nodes(n) => GoParams {
            nodes: Some(n),
            ..GoParams::default()
        },
        TimeControl::Depth(d) => GoParams {
            depth: Some(d),
            ..GoParams::default()
        },
        TimeControl::Clock { .. } if ucci => {
            let opp = clocks
                .get((mover + 1) % clocks.len())
                .copied()
                .unwrap_or(me);
            let (movestogo, increment) = match me.moves_to_go() {
                Some(m) => (Some(m), None),
                None => (None, Some(inc_unit(me.inc_ms()))),
            };
            let (oppmovestogo, oppincrement) = match opp.moves_to_go() {
                Some(m) => (Some(m), None),
                None => (None, Some(inc_unit(opp.inc_ms()))),
            };
            GoParams {
                time: Some(unit(me.left_ms.max(1))),
                movestogo,
                increment,
                opptime: Some(unit(opp.left_ms.max(1))),
                oppmovestogo,
                oppincrement,
                ..GoParams::default()
            }
        }
        TimeControl::Clock { .. } => match clocks {
            [w, b] => GoParams {
                wtime: Some(w.left_ms.max(1)),
                btime: Some(b.left_ms.max(1)),
                winc: Some(w.inc_ms()),
                binc: Some(b.inc_ms()),
                movestogo: me.moves_to_go(),
                ..GoParams::default()
            },
            // More than two players: the mover's clock only.
            _ => GoParams {
                time: Some(me.left_ms.max(1)),
                increment: Some(me.inc_ms()),
                movestogo: me.moves_to_go(),
                ..GoParams::default()
            },
        },
    }
}
