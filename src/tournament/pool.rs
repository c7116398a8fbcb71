//! The engine processes of a match and the worker threads that play the scheduled games with
//! them. Each worker keeps its own processes between games (restarting those that died), so a
//! match with `--concurrency N` runs at most N sets of engines.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use crossbeam_channel::{Receiver, Sender};

use super::config::{engine_setup, non_default_setup, MatchConfig};
use super::engine::{EngineFailure, EngineProcess};
use super::record::{Ending, GameRecord, Termination};
use super::referee::{self, Progress, Seat};
use super::schedule::ScheduledGame;
use crate::game::Records;

/// The result of one scheduled game, by its index: a record, or a problem with the match itself.
pub type GameResult = (usize, Result<GameRecord, String>);

/// What every worker shares: the match, its setup and the setup of each engine.
pub struct Worker<'a, G: Records> {
    /// The match.
    pub config: &'a MatchConfig,
    /// The match's setup of the game.
    pub setup: &'a G::Config,
    /// Each engine's setup (the match's with the engine's own setup flags).
    pub engine_setups: &'a [G::Config],
    /// The progress measure for stall adjudication.
    pub progress: Progress<G>,
}

impl<G: Records> Clone for Worker<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Records> Copy for Worker<'_, G> {}

/// Engine processes kept between games, by (engine index, occurrence within a game).
type Pool = HashMap<(usize, usize), EngineProcess>;

impl<G: Records> Worker<'_, G> {
    /// The setup of each engine of `config`, in engine order.
    ///
    /// # Errors
    /// An engine setup flag that is no setup option of the game, or a bad value.
    pub fn engine_setups(
        config: &MatchConfig,
        setup: &G::Config,
    ) -> Result<Vec<G::Config>, String> {
        config
            .engines
            .iter()
            .map(|e| engine_setup::<G>(setup, &e.setup).map_err(|why| format!("{}: {why}", e.name)))
            .collect()
    }

    /// Plays scheduled games with its own engine processes until the queue is empty, `stop` is
    /// set, or nobody listens to the results any more.
    pub fn run(
        self,
        games: &Receiver<ScheduledGame>,
        results: &Sender<GameResult>,
        stop: &AtomicBool,
    ) {
        let mut pool = Pool::new();
        while let Ok(game) = games.recv() {
            // Once the runner is being ended, no game is started (its engines would be refused).
            if stop.load(Ordering::Relaxed) || super::children::ending() {
                break;
            }
            let result = self.play(&mut pool, &game);
            if results.send((game.index, result)).is_err() {
                break;
            }
        }
    }

    /// The pool key of each seat: (engine index, how many seats before it the engine has).
    fn keys(game: &ScheduledGame) -> Vec<(usize, usize)> {
        let mut keys = Vec::with_capacity(game.seats.len());
        for (s, &e) in game.seats.iter().enumerate() {
            let occurrence = game.seats[..s].iter().filter(|&&x| x == e).count();
            keys.push((e, occurrence));
        }
        keys
    }

    /// Starts the processes of a game that are not running yet; on a failed start, the seat
    /// that failed and why.
    fn start_engines(&self, pool: &mut Pool, keys: &[(usize, usize)]) -> Result<(), Ending> {
        for (s, key) in keys.iter().enumerate() {
            if pool.get(key).is_some_and(EngineProcess::is_dead) {
                pool.remove(key);
            }
            if pool.contains_key(key) {
                continue;
            }
            let (Some(spec), Some(setup)) = (
                self.config.engines.get(key.0),
                self.engine_setups.get(key.0),
            ) else {
                let why = format!("no engine {}", key.0 + 1);
                return Err(Ending::forfeit(s, Termination::Crash, why));
            };
            let options = non_default_setup::<G>(setup);
            let ready = self.config.referee.ready_timeout;
            match EngineProcess::start(spec, G::NAME, &options, ready) {
                Ok(e) => {
                    pool.insert(*key, e);
                }
                Err(f) => {
                    let term = match f {
                        EngineFailure::Timeout(_) => Termination::Hang,
                        _ => Termination::Crash,
                    };
                    let why = format!("{} failed to start: {f}", spec.name);
                    return Err(Ending::forfeit(s, term, why));
                }
            }
        }
        Ok(())
    }

    /// Plays one scheduled game (or records the forfeit of an engine that did not start).
    fn play(&self, pool: &mut Pool, game: &ScheduledGame) -> Result<GameRecord, String> {
        let keys = Self::keys(game);
        if let Err(ending) = self.start_engines(pool, &keys) {
            let fen = G::from_fen(&game.opening.fen, self.setup)
                .map_or_else(|_| game.opening.fen.clone(), |p| p.to_fen());
            return Ok(GameRecord::new(
                &game.opening,
                &game.seats,
                Vec::new(),
                fen,
                ending,
            ));
        }
        let mut taken: Vec<((usize, usize), EngineProcess)> = keys
            .iter()
            .filter_map(|key| pool.remove(key).map(|e| (*key, e)))
            .collect();
        let mut seats: Vec<Seat<'_, G>> = taken
            .iter_mut()
            .map(|((e, _), engine)| Seat {
                engine,
                index: *e,
                tc: self
                    .config
                    .engines
                    .get(*e)
                    .and_then(|spec| spec.tc)
                    .unwrap_or(self.config.tc),
                setup: self.engine_setups.get(*e).copied().unwrap_or(*self.setup),
            })
            .collect();
        let record = referee::play_game::<G>(
            &mut seats,
            &game.opening,
            self.setup,
            &self.config.referee,
            self.progress,
        );
        drop(seats);
        for (key, e) in taken {
            if !e.is_dead() {
                pool.insert(key, e);
            }
        }
        record
    }
}
