//! A connection's number on the server, below everything that names a connection (the
//! hub, the connections' tasks, the log).

/// A connection's number, unique for the server's life.
pub(super) type ConnId = u64;
