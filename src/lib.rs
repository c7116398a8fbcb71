//! sanqi: one engine for chess (Chess960 included), xiangqi and Chinese checkers.
//!
//! The protocol loop lives in [`engine`] (reader) and a worker thread (search jobs); games behind
//! the [`game::Game`] trait in [`game`]; the generic search in [`search`].

pub mod bench;
pub mod cli;
pub mod engine;
pub mod game;
pub mod io;
pub mod options;
pub mod params;
pub mod search;
pub mod tournament;
mod worker;
