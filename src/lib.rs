//! sanqi: one engine for chess (Chess960 included), xiangqi and Chinese checkers.
//!
//! The protocol loop lives in [`engine`]; games behind the [`game::Game`] trait in [`game`];
//! the generic search in [`search`].

pub mod game;
pub mod search;
pub mod tournament;
