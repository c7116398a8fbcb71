//! HTTP: the embedded page and a small JSON API, one game per browser tab (a game id).
//!
//! | request | body | answer |
//! |---|---|---|
//! | `GET /`, `/app.js`, `/app.css` | | the page |
//! | `POST /api/new` | `{"players":2,"seats":[{"human":true,"skill":20,"movetime":500},..],"goalLock":false,"noForeignStop":false}` | state |
//! | `GET /api/state?game=ID` | | state |
//! | `POST /api/moves` | `{"game":ID,"cell":"k3"}` | `{"moves":[{"move","path"}]}` |
//! | `POST /api/move` | `{"game":ID,"move":"k3k5"}` | state |
//! | `POST /api/go` | `{"game":ID}` | `{"played":{..},"state":..}` (a computer seat's move) |
//! | `POST /api/hint` | `{"game":ID}` | `{"move","path"}` |
//! | `POST /api/undo` | `{"game":ID}` | state |
//!
//! Errors are `{"error": message}` with a 4xx (the request) or 5xx (the engine) status. Every
//! field is checked: a body or seat that is not an object, an unknown field, a value of the wrong
//! type (`"500"`, `-5`, `1.5` where a whole number goes) or out of range is a `400` that names it;
//! nothing falls back to a default but a field left out.

use crate::engine::{Engine, EngineError};
use crate::game::{seats_for, Failure, Game, Seat, Spawner};
use crate::http::{self, Limits, Method, Request};
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

const INDEX: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const APP_CSS: &str = include_str!("../assets/app.css");

/// At most this many engine processes at once. A game that needs one when all are in use takes
/// the engine of the least recently used idle game, which gets a new one (its game replayed from
/// the move list) at its next request.
pub const MAX_ENGINES: usize = 16;
/// At most this many games are kept; a new one past it removes the least recently used.
pub const MAX_GAMES: usize = 256;
const MAX_MOVETIME: u64 = 60_000;
/// How long a request waits for an engine place when every engine is in use by a request.
const ACQUIRE_WAIT: Duration = Duration::from_secs(5);

/// The connection side's bounds: 32 request threads, 64 connections waiting, 10 s to send a
/// request, 64 KiB of body.
pub const LIMITS: Limits = Limits {
    workers: 32,
    queue: 64,
    read_timeout: Duration::from_secs(10),
    max_body: 64 * 1024,
};

type Games = Mutex<HashMap<String, Arc<Mutex<Game>>>>;

/// The count of engine processes, held by each engine until its process is reaped.
struct Pool {
    live: Mutex<usize>,
    max: usize,
}

/// One engine's place in the count.
struct Slot(Arc<Pool>);

impl Drop for Slot {
    fn drop(&mut self) {
        let mut live = match self.0.live.lock() {
            Ok(l) => l,
            Err(poisoned) => poisoned.into_inner(),
        };
        *live = live.saturating_sub(1);
    }
}

pub struct App {
    engine: PathBuf,
    games: Arc<Games>,
    pool: Arc<Pool>,
}

impl App {
    pub fn new(engine: PathBuf, max_engines: usize) -> App {
        App {
            engine,
            games: Arc::new(Mutex::new(HashMap::new())),
            pool: Arc::new(Pool {
                live: Mutex::new(0),
                max: max_engines.max(1),
            }),
        }
    }

    /// Engine processes started and not yet reaped.
    #[cfg(test)]
    pub fn live_engines(&self) -> usize {
        self.pool.live.lock().map(|l| *l).unwrap_or(0)
    }

    /// The games kept.
    #[cfg(test)]
    pub fn game_count(&self) -> usize {
        self.games.lock().map(|g| g.len()).unwrap_or(0)
    }

    /// The process id of a game's engine, when it has one running.
    #[cfg(test)]
    pub fn engine_pid(&self, id: &str) -> Option<u32> {
        let game = self.games.lock().ok()?.get(id).cloned()?;
        let g = game.lock().ok()?;
        g.engine_pid()
    }
}

pub fn serve(host: &str, port: u16, engine: PathBuf) -> Result<(), String> {
    let listener = TcpListener::bind((host, port))
        .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(port);
    println!(
        "sanqi-web: open http://{host}:{port}/  (engine: {})",
        engine.display()
    );
    let app = Arc::new(App::new(engine, MAX_ENGINES));
    let handler: Arc<http::Handler> = Arc::new(move |r: &Request| handle(&app, r));
    Err(http::serve(listener, LIMITS, handler))
}

fn handle(app: &App, request: &Request) -> Answer {
    let started = Instant::now();
    let (path, query) = request
        .target
        .split_once('?')
        .unwrap_or((request.target.as_str(), ""));
    let answer = match std::str::from_utf8(&request.body) {
        Err(e) => error(Failure::bad(format!("the body is not UTF-8: {e}"))),
        Ok(body) => route(app, &request.method, path, query, body),
    };
    if std::env::var_os("SANQI_WEB_LOG").is_some() {
        eprintln!(
            "{} {path} {} {:?}",
            request.method,
            answer.0,
            started.elapsed()
        );
    }
    answer
}

type Answer = (u16, &'static str, String);

fn page(kind: &'static str, text: &str) -> Answer {
    (200, kind, text.to_string())
}

fn ok(v: Value) -> Answer {
    (200, "application/json", v.to_string())
}

fn error(f: Failure) -> Answer {
    (
        f.status,
        "application/json",
        json!({"error": f.message}).to_string(),
    )
}

pub fn route(app: &App, method: &Method, path: &str, query: &str, body: &str) -> Answer {
    let read = matches!(method, Method::Get | Method::Head);
    match path {
        "/" | "/index.html" if read => page("text/html; charset=utf-8", INDEX),
        "/app.js" if read => page("text/javascript; charset=utf-8", APP_JS),
        "/app.css" if read => page("text/css; charset=utf-8", APP_CSS),
        "/api/state" if read => {
            let id = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("game="))
                .unwrap_or("");
            with_game(app, id, |g| g.state(id)).map_or_else(error, ok)
        }
        p if p.starts_with("/api/") && *method == Method::Post => {
            match serde_json::from_str::<Value>(body) {
                Err(e) => error(Failure::bad(format!("the body is not JSON: {e}"))),
                Ok(v) => api(app, p.get("/api/".len()..).unwrap_or(""), &v).map_or_else(error, ok),
            }
        }
        "/" | "/index.html" | "/app.js" | "/app.css" | "/api/state" => error(Failure {
            status: 405,
            message: format!("{method} is not allowed on {path}"),
        }),
        p if p.starts_with("/api/") => error(Failure {
            status: 405,
            message: format!("{method} is not allowed on {path} (POST is)"),
        }),
        _ => error(Failure {
            status: 404,
            message: format!("no page {path}"),
        }),
    }
}

/// A JSON value as a message shows it, cut short.
fn shown(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 40 {
        format!("{}...", text.chars().take(40).collect::<String>())
    } else {
        text
    }
}

/// The body (or a seat) as an object whose keys are all among `known`.
fn object<'a>(v: &'a Value, what: &str, known: &[&str]) -> Result<&'a Map<String, Value>, Failure> {
    let obj = v
        .as_object()
        .ok_or_else(|| Failure::bad(format!("{what} must be a JSON object, not {}", shown(v))))?;
    if let Some(k) = obj.keys().find(|k| !known.contains(&k.as_str())) {
        let list = known
            .iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ");
        return Err(Failure::bad(format!(
            "unknown field `{}` in {what} (known: {list})",
            k.chars().take(40).collect::<String>()
        )));
    }
    Ok(obj)
}

fn string_field<'a>(obj: &'a Map<String, Value>, name: &str) -> Result<&'a str, Failure> {
    match obj.get(name) {
        None => Err(Failure::bad(format!("`{name}` (a string) is missing"))),
        Some(Value::String(s)) => Ok(s),
        Some(v) => Err(Failure::bad(format!(
            "`{name}` must be a string, not {}",
            shown(v)
        ))),
    }
}

fn bool_field(obj: &Map<String, Value>, name: &str, what: &str) -> Result<Option<bool>, Failure> {
    match obj.get(name) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(v) => Err(Failure::bad(format!(
            "`{name}`{what} must be true or false, not {}",
            shown(v)
        ))),
    }
}

/// An integer field within `lo..=hi`: a fraction, a string or a number outside is refused.
fn int_field(
    obj: &Map<String, Value>,
    name: &str,
    what: &str,
    lo: u64,
    hi: u64,
) -> Result<Option<u64>, Failure> {
    let Some(v) = obj.get(name) else {
        return Ok(None);
    };
    match v.as_u64() {
        Some(n) if (lo..=hi).contains(&n) => Ok(Some(n)),
        _ => Err(Failure::bad(format!(
            "`{name}`{what} must be a whole number from {lo} to {hi}, not {}",
            shown(v)
        ))),
    }
}

fn api(app: &App, name: &str, v: &Value) -> Result<Value, Failure> {
    let body = |known: &[&str]| object(v, "the request body", known);
    match name {
        "new" => new_game(app, v),
        "moves" => {
            let obj = body(&["game", "cell"])?;
            let id = string_field(obj, "game")?;
            let cell = string_field(obj, "cell")?;
            let moves = with_game(app, id, |g| g.legal(Some(cell)))?;
            Ok(
                json!({"moves": moves.iter().map(|m| json!({"move": m.mv, "path": m.path})).collect::<Vec<_>>()}),
            )
        }
        "move" => {
            let obj = body(&["game", "move"])?;
            let id = string_field(obj, "game")?;
            let mv = string_field(obj, "move")?;
            with_game(app, id, |g| {
                g.play(mv)?;
                g.state(id)
            })
        }
        "go" => {
            let id = string_field(body(&["game"])?, "game")?;
            with_game(app, id, |g| {
                let p = g.computer_move()?;
                let state = g.state(id)?;
                Ok(
                    json!({"played": {"player": p.player.to_string(), "move": p.mv, "path": p.path}, "state": state}),
                )
            })
        }
        "hint" => {
            let id = string_field(body(&["game"])?, "game")?;
            with_game(app, id, |g| {
                let m = g.hint()?;
                Ok(json!({"move": m.mv, "path": m.path}))
            })
        }
        "undo" => {
            let id = string_field(body(&["game"])?, "game")?;
            with_game(app, id, |g| {
                g.undo()?;
                g.state(id)
            })
        }
        other => Err(Failure {
            status: 404,
            message: format!(
                "no API call `{}`",
                other.chars().take(40).collect::<String>()
            ),
        }),
    }
}

fn with_game<T>(
    app: &App,
    id: &str,
    f: impl FnOnce(&mut Game) -> Result<T, Failure>,
) -> Result<T, Failure> {
    let game = app
        .games
        .lock()
        .map_err(|_| Failure::bad("server state poisoned"))?
        .get(id)
        .cloned()
        .ok_or_else(|| Failure {
            status: 404,
            message: format!(
                "no game `{}` (the server may have restarted: start a new game)",
                id.chars().take(40).collect::<String>()
            ),
        })?;
    let mut g = game.lock().map_err(|_| Failure {
        status: 500,
        message: "this game's state was lost in a crash; start a new game".into(),
    })?;
    g.last_used = Instant::now();
    f(&mut g)
}

/// Reads the seats of a new game: `players` 2/3/4/6 and at most one entry per seat; a seat left
/// out is a person for the first, the computer at skill 20 and 500 ms for the others. Every field
/// present must have its type and range.
pub fn parse_seats(obj: &Map<String, Value>) -> Result<Vec<Seat>, Failure> {
    let n = match obj.get("players") {
        None => return Err(Failure::bad("`players` (2, 3, 4 or 6) is missing")),
        Some(v) => v
            .as_u64()
            .filter(|&n| seats_for(n as usize).is_some())
            .ok_or_else(|| {
                Failure::bad(format!("`players` must be 2, 3, 4 or 6, not {}", shown(v)))
            })?,
    };
    let letters = seats_for(n as usize).unwrap_or("");
    let configs: &[Value] = match obj.get("seats") {
        None => &[],
        Some(Value::Array(a)) => a,
        Some(v) => {
            return Err(Failure::bad(format!(
                "`seats` must be a list of seats, not {}",
                shown(v)
            )))
        }
    };
    if configs.len() > letters.len() {
        return Err(Failure::bad(format!(
            "`seats` has {} entries for {n} players",
            configs.len()
        )));
    }
    letters
        .chars()
        .enumerate()
        .map(|(i, player)| {
            let what = format!(" of seat {}", i + 1);
            let (human, skill, movetime) = match configs.get(i) {
                None => (None, None, None),
                Some(c) => {
                    let c = object(
                        c,
                        &format!("seat {}", i + 1),
                        &["human", "skill", "movetime"],
                    )?;
                    (
                        bool_field(c, "human", &what)?,
                        int_field(c, "skill", &what, 0, 20)?,
                        int_field(c, "movetime", &what, 1, MAX_MOVETIME)?,
                    )
                }
            };
            Ok(Seat {
                player,
                human: human.unwrap_or(i == 0),
                skill: skill.unwrap_or(20) as u32,
                movetime: movetime.unwrap_or(500),
            })
        })
        .collect()
}

/// Starts engines for one game: each takes a place in the count first.
fn spawner(app: &App) -> Spawner {
    let (path, pool, games) = (
        app.engine.clone(),
        Arc::clone(&app.pool),
        Arc::downgrade(&app.games),
    );
    Box::new(move || {
        let slot = acquire(&pool, &games)?;
        let mut engine = Engine::spawn(&path)?;
        engine.hold(Box::new(slot));
        Ok(engine)
    })
}

/// A place for one more engine process: a free one, or the engine of the least recently used idle
/// game, ended first (so the count never goes over, whatever the requests at once).
/// With every place taken by a game in the middle of a request, it waits for one up to
/// `ACQUIRE_WAIT`, then answers busy (a 503).
fn acquire(pool: &Arc<Pool>, games: &Weak<Games>) -> Result<Slot, EngineError> {
    let deadline = Instant::now() + ACQUIRE_WAIT;
    loop {
        {
            let mut live = pool
                .live
                .lock()
                .map_err(|_| EngineError::Busy("server state poisoned".into()))?;
            if *live < pool.max {
                *live += 1;
                return Ok(Slot(Arc::clone(pool)));
            }
        }
        match games.upgrade().and_then(|g| idle_engine(&g)) {
            // Ended here, outside every lock: `quit`, or killed; its place is free after.
            Some(engine) => drop(engine),
            None if Instant::now() >= deadline => break,
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    Err(EngineError::Busy(format!(
        "every one of the server's {} engines is busy: try again in a moment",
        pool.max
    )))
}

/// Takes the engine of the least recently used game that no request is using.
fn idle_engine(games: &Games) -> Option<Engine> {
    let games: Vec<Arc<Mutex<Game>>> = games.lock().ok()?.values().cloned().collect();
    let mut idle: Vec<(Instant, &Arc<Mutex<Game>>)> = games
        .iter()
        .filter_map(|g| {
            let guard = g.try_lock().ok()?;
            guard.engine_pid()?;
            Some((guard.last_used, g))
        })
        .collect();
    idle.sort_by_key(|(t, _)| *t);
    idle.into_iter()
        .find_map(|(_, g)| g.try_lock().ok()?.release_engine())
}

fn new_game(app: &App, v: &Value) -> Result<Value, Failure> {
    let obj = object(
        v,
        "the request body",
        &["players", "seats", "goalLock", "noForeignStop", "previous"],
    )?;
    let seats = parse_seats(obj)?;
    let goal_lock = bool_field(obj, "goalLock", "")?.unwrap_or(false);
    let no_foreign_stop = bool_field(obj, "noForeignStop", "")?.unwrap_or(false);
    let previous = match obj.get("previous") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(v) => {
            return Err(Failure::bad(format!(
                "`previous` must be a game id (a string) or null, not {}",
                shown(v)
            )))
        }
    };
    // The tab's previous game ends first, so its engine's place is free for the new one.
    if let Some(old) = previous {
        let removed = app
            .games
            .lock()
            .map_err(|_| Failure::bad("server state poisoned"))?
            .remove(&old);
        drop(removed);
    }
    let mut game = Game::new(seats, goal_lock, no_foreign_stop, spawner(app));
    let id = new_id();
    let state = game.state(&id)?;
    let mut games = app
        .games
        .lock()
        .map_err(|_| Failure::bad("server state poisoned"))?;
    let mut removed = Vec::new();
    while games.len() >= MAX_GAMES {
        let oldest = games
            .iter()
            .min_by_key(|(_, g)| {
                g.try_lock()
                    .map(|g| g.last_used)
                    .unwrap_or_else(|_| Instant::now())
            })
            .map(|(k, _)| k.clone());
        match oldest.and_then(|k| games.remove(&k)) {
            Some(g) => removed.push(g),
            None => break,
        };
    }
    games.insert(id, Arc::new(Mutex::new(game)));
    drop(games);
    drop(removed); // their engines end outside the lock
    Ok(state)
}

fn new_id() -> String {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(Instant::now().elapsed().as_nanos());
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    format!("{:016x}", h.finish())
}

#[cfg(all(test, unix))]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::fake::{fake_engine, Fault};

    fn app() -> App {
        App::new(fake_engine(Fault::None), MAX_ENGINES)
    }

    fn post(app: &App, path: &str, body: &str) -> (u16, Value) {
        let (status, _, text) = route(app, &Method::Post, path, "", body);
        (status, serde_json::from_str(&text).unwrap())
    }

    #[test]
    fn pages_are_embedded() {
        let app = app();
        for (path, kind) in [
            ("/", "text/html"),
            ("/app.js", "text/javascript"),
            ("/app.css", "text/css"),
        ] {
            let (status, k, text) = route(&app, &Method::Get, path, "", "");
            assert_eq!(status, 200);
            assert!(k.starts_with(kind) && !text.is_empty());
        }
        assert!(INDEX.contains("id=\"board\"") && !INDEX.contains("://cdn"));
    }

    #[test]
    fn malformed_requests_are_4xx_with_a_message() {
        let app = app();
        for (path, body, want) in [
            ("/api/new", "{", 400),
            ("/api/new", "{\"players\":5}", 400),
            (
                "/api/new",
                "{\"players\":2,\"seats\":[{\"skill\":99}]}",
                400,
            ),
            (
                "/api/new",
                "{\"players\":2,\"seats\":[{\"movetime\":0}]}",
                400,
            ),
            ("/api/move", "{\"game\":\"x\"}", 400),
            ("/api/move", "{\"game\":\"x\",\"move\":\"k3k5\"}", 404),
            ("/api/frobnicate", "{}", 404),
        ] {
            let (status, v) = post(&app, path, body);
            assert_eq!(status, want, "{path} {body}");
            assert!(v["error"].as_str().is_some_and(|m| !m.is_empty()));
        }
        let (status, _, _) = route(&app, &Method::Get, "/api/move", "", "");
        assert_eq!(status, 405);
        let (status, _, _) = route(&app, &Method::Get, "/nothing", "", "");
        assert_eq!(status, 404);
    }

    #[test]
    fn two_tabs_two_games() {
        let app = app();
        let (s1, g1) = post(&app, "/api/new", "{\"players\":2}");
        let (s2, g2) = post(&app, "/api/new", "{\"players\":2,\"goalLock\":true}");
        assert_eq!((s1, s2), (200, 200));
        let (id1, id2) = (g1["game"].as_str().unwrap(), g2["game"].as_str().unwrap());
        assert_ne!(id1, id2);
        let (status, after) = post(
            &app,
            "/api/move",
            &format!("{{\"game\":\"{id1}\",\"move\":\"k3k5\"}}"),
        );
        assert_eq!(status, 200);
        assert_eq!(after["moves"].as_array().unwrap().len(), 1);
        let (status, _, text) = route(&app, &Method::Get, "/api/state", &format!("game={id2}"), "");
        let other: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(status, 200);
        assert_eq!(other["moves"].as_array().unwrap().len(), 0);
        assert_eq!(other["rules"]["goalLock"], true);
        // A new game of the same tab ends its previous one.
        let (_, g3) = post(
            &app,
            "/api/new",
            &format!("{{\"players\":3,\"previous\":\"{id1}\"}}"),
        );
        assert_eq!(g3["seats"].as_array().unwrap().len(), 3);
        assert_eq!(app.games.lock().unwrap().len(), 2);
    }

    #[test]
    fn values_of_the_wrong_type_are_400_naming_the_field() {
        let app = app();
        for (body, names) in [
            (r#"{"players":2,"seats":[{"movetime":-5}]}"#, "movetime"),
            (r#"{"players":2,"seats":[{"movetime":"500"}]}"#, "movetime"),
            (r#"{"players":2,"seats":[{"skill":1.5}]}"#, "skill"),
            (r#"{"players":2,"seats":[{"human":"yes"}]}"#, "human"),
            (r#"{"players":2,"seats":[{"colour":"red"}]}"#, "colour"),
            (r#"{"players":2,"seats":["x"]}"#, "seat 1"),
            (r#"{"players":2,"seats":"x"}"#, "seats"),
            (r#"{"players":2,"seats":[{},{},{}]}"#, "seats"),
            (r#"{"players":"2"}"#, "players"),
            (r#"{"players":2,"goalLock":1}"#, "goalLock"),
            (r#"{"players":2,"previous":7}"#, "previous"),
            (r#"{"players":2,"speed":9}"#, "speed"),
            ("[2]", "object"),
        ] {
            let (status, v) = post(&app, "/api/new", body);
            let message = v["error"].as_str().unwrap_or("");
            assert_eq!(status, 400, "{body}: {v}");
            assert!(message.contains(names), "{body}: {message}");
        }
        for (path, body) in [
            ("/api/move", r#"{"game":1,"move":"k3k5"}"#),
            ("/api/move", r#"{"game":"x","move":["k3k5"]}"#),
            ("/api/moves", r#"{"game":"x","cell":"k3","extra":1}"#),
            ("/api/go", r#""x""#),
        ] {
            let (status, v) = post(&app, path, body);
            assert_eq!(status, 400, "{path} {body}: {v}");
        }
        // Nothing was started for any of them.
        assert_eq!((app.game_count(), app.live_engines()), (0, 0));
    }

    /// The fake engines of `dir` that are processes now (zombies included), from /proc: the
    /// children of this test process running the fake. Only direct children count: the fake
    /// shell forks for `sleep`, and until that fork execs it carries the fake's command line
    /// too (a CI run once sampled 4 processes for 3 engines so).
    fn processes_of(dir: &std::path::Path) -> usize {
        // With the separator: the fake engines' folders are numbered, and `...-1` must not
        // count the engines of another test's `...-10` to `...-19` (tests run in parallel).
        let needle = format!("{}/", dir.to_string_lossy());
        let me = std::process::id().to_string();
        std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| {
                let path = e.ok()?.path();
                let cmdline = std::fs::read(path.join("cmdline")).ok()?;
                let stat = std::fs::read_to_string(path.join("stat")).ok()?;
                // `pid (comm) state ppid ...`: the parent is the second field after the `)`.
                let ppid = stat
                    .rsplit_once(')')?
                    .1
                    .split_whitespace()
                    .nth(1)?
                    .to_string();
                Some((cmdline, ppid))
            })
            .filter(|(c, ppid)| *ppid == me && String::from_utf8_lossy(c).contains(&needle))
            .count()
    }

    #[test]
    fn engine_processes_stay_within_the_cap_whatever_the_requests_at_once() {
        let engine = fake_engine(Fault::SlowStart);
        let dir = engine.parent().unwrap().to_path_buf();
        let app = Arc::new(App::new(engine, 3));
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let sampler = {
            let (app, done, dir) = (Arc::clone(&app), Arc::clone(&done), dir.clone());
            std::thread::spawn(move || {
                let mut most = (0, 0);
                while !done.load(std::sync::atomic::Ordering::SeqCst) {
                    most.0 = most.0.max(processes_of(&dir));
                    most.1 = most.1.max(app.live_engines());
                    std::thread::sleep(Duration::from_millis(5));
                }
                most
            })
        };
        let tabs: Vec<_> = (0..8)
            .map(|_| {
                let app = Arc::clone(&app);
                std::thread::spawn(move || post(&app, "/api/new", r#"{"players":2}"#))
            })
            .collect();
        let answers: Vec<(u16, Value)> = tabs.into_iter().map(|t| t.join().unwrap()).collect();
        // Each game, its engine taken by another, is played on at its next request.
        for (_, g) in &answers {
            let id = g["game"].as_str().unwrap();
            let (status, after) = post(
                &app,
                "/api/move",
                &format!(r#"{{"game":"{id}","move":"k3k5"}}"#),
            );
            assert_eq!(status, 200, "{after}");
            assert_eq!(after["moves"].as_array().unwrap().len(), 1);
        }
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        let (most_processes, most_counted) = sampler.join().unwrap();
        assert!(
            answers.iter().all(|(s, _)| *s == 200),
            "{:?}",
            answers.iter().map(|(s, _)| s).collect::<Vec<_>>()
        );
        assert_eq!(app.game_count(), 8);
        assert!(
            (1..=3).contains(&most_processes) && (1..=3).contains(&most_counted),
            "processes {most_processes}, counted {most_counted}"
        );
        assert!(processes_of(&dir) <= 3);
    }

    #[test]
    fn a_killed_engine_is_reaped_at_once_and_its_game_goes_on() {
        let app = app();
        let (_, g) = post(&app, "/api/new", r#"{"players":2}"#);
        let id = g["game"].as_str().unwrap().to_string();
        let pid = app.engine_pid(&id).unwrap();
        assert_eq!(app.live_engines(), 1);
        assert!(std::process::Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status()
            .unwrap()
            .success());
        // No request comes: the process (a zombie until reaped) leaves /proc all the same.
        let started = Instant::now();
        while std::path::Path::new(&format!("/proc/{pid}")).exists() {
            assert!(
                started.elapsed() < Duration::from_secs(3),
                "engine {pid} not reaped"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        let (status, after) = post(
            &app,
            "/api/move",
            &format!(r#"{{"game":"{id}","move":"k3k5"}}"#),
        );
        assert_eq!(status, 200, "{after}");
        assert_ne!(app.engine_pid(&id), Some(pid));
        assert_eq!(app.live_engines(), 1);
    }
}
