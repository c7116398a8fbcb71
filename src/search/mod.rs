//! Generic search over the [`crate::game::Game`] trait (placeholder until its issue lands).
