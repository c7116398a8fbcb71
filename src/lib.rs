//! sanqi: one engine for chess (Chess960 included), xiangqi and Chinese checkers.
//!
//! - [`game`]: the [`game::Game`] trait, one folder per game, and the one registry of games;
//! - [`search`]: the generic search over any [`game::Game`];
//! - [`uci`]: the protocol front end (session, search thread, options);
//! - [`tune`]: tunable parameters and option types (a leaf every module may use);
//! - [`nnue`]: the network evaluation's layout, file format and accumulator (a leaf too);
//! - [`splitmix`]: the generator of Zobrist keys and datagen's random streams (a leaf too);
//! - [`bench`], [`cli`], [`tournament`], [`datagen`], [`texel`]: the one-shot tools (`sanqi bench`,
//!   `sanqi perft`, `sanqi match`, `sanqi datagen`, `sanqi tune`).

pub mod bench;
pub mod cli;
pub mod datagen;
pub mod files;
pub mod game;
pub mod nnue;
pub mod search;
pub mod splitmix;
pub mod texel;
pub mod tournament;
pub mod tune;
pub mod uci;
