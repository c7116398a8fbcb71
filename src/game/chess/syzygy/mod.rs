//! STUB (replaced by the prober branch): the API only.
#![allow(missing_docs, clippy::missing_errors_doc)]
use super::Chess;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    Loss = -2,
    BlessedLoss = -1,
    Draw = 0,
    CursedWin = 1,
    Win = 2,
}
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeError {
    TooManyPieces,
    Castling,
    MissingTable(String),
    Corrupt(String),
}
impl std::fmt::Display for ProbeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}
pub struct Tablebases;
impl Tablebases {
    pub fn open(paths: &str) -> (Tablebases, Vec<String>) {
        let _ = paths;
        (Tablebases, Vec::new())
    }
    pub fn max_pieces(&self) -> usize {
        0
    }
    pub fn wdl_count(&self) -> usize {
        0
    }
    pub fn dtz_count(&self) -> usize {
        0
    }
    pub fn probe_wdl(&self, pos: &mut Chess) -> Result<Wdl, ProbeError> {
        let _ = pos;
        Err(ProbeError::TooManyPieces)
    }
    pub fn probe_dtz(&self, pos: &mut Chess) -> Result<i32, ProbeError> {
        let _ = pos;
        Err(ProbeError::TooManyPieces)
    }
}
