//! sanqi-protocol: typed UCI and UCCI commands (GUI to engine) and replies (engine to GUI).
//!
//! No engine code and no game rules live here: moves stay text tokens.
