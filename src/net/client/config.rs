//! How a client connects: the server, the name, the folders, trust and reconnecting
//! ([`ClientConfig`]), and how the server's name becomes addresses ([`Resolver`]).

use std::fmt;
#[cfg(test)]
use std::net::SocketAddr;
use std::path::PathBuf;
#[cfg(test)]
use std::sync::Arc;

use crate::net::protocol::{DEFAULT_PORT, VERSION};

/// How a client connects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientConfig {
    /// `HOST[:PORT]` ([`DEFAULT_PORT`] when none is given).
    pub server: String,
    /// The name to play under; `None` to only read archives.
    pub name: Option<String>,
    /// The folder of the identity key and the known-servers file.
    pub config_dir: PathBuf,
    /// Skip pinning the server's key: for tests on the loopback only (refused elsewhere).
    pub insecure: bool,
    /// The fingerprint the user trusts for a server not pinned yet (checked, then pinned).
    /// Without it an unknown server is refused with [`ClientError::UnknownServer`](super::ClientError::UnknownServer), which
    /// shows its fingerprint for the user to check: nothing is pinned silently.
    pub trust: Option<String>,
    /// Where the player's finished games are saved (`None`: not saved).
    pub save_dir: Option<PathBuf>,
    /// Whether to reconnect after a drop.
    pub reconnect: bool,
    /// The protocol version announced: [`VERSION`] (another only to test servers).
    pub version: u32,
    /// How the server's name becomes addresses.
    pub resolver: Resolver,
    /// Whether the client is a bot (`brandubh bot`): it identifies as one.
    pub bot: bool,
}

/// How a client turns `HOST:PORT` into addresses.
#[derive(Clone, Default)]
pub enum Resolver {
    /// The system's resolver.
    #[default]
    System,
    /// A function that blocks until it answers: in tests, a lookup that never does.
    #[cfg(test)]
    Blocking(Arc<BlockingLookup>),
}

/// A lookup that blocks its thread until it answers.
#[cfg(test)]
type BlockingLookup = dyn Fn(&str) -> std::io::Result<Vec<SocketAddr>> + Send + Sync;

#[cfg(test)]
impl Resolver {
    /// A resolver that never answers (a DNS lookup that hangs), and a receiver told each
    /// time it is asked.
    pub(crate) fn stuck() -> (Resolver, std::sync::mpsc::Receiver<()>) {
        let (asked, reached) = std::sync::mpsc::channel();
        let asked = std::sync::Mutex::new(asked);
        let resolve = move |_: &str| -> std::io::Result<Vec<SocketAddr>> {
            if let Ok(asked) = asked.lock() {
                let _ = asked.send(());
            }
            loop {
                std::thread::park();
            }
        };
        (Resolver::Blocking(Arc::new(resolve)), reached)
    }
}

impl fmt::Debug for Resolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Resolver::System => f.write_str("System"),
            #[cfg(test)]
            Resolver::Blocking(_) => f.write_str("Blocking"),
        }
    }
}

impl PartialEq for Resolver {
    fn eq(&self, other: &Resolver) -> bool {
        match (self, other) {
            (Resolver::System, Resolver::System) => true,
            #[cfg(test)]
            (Resolver::Blocking(a), Resolver::Blocking(b)) => Arc::ptr_eq(a, b),
            #[cfg(test)]
            _ => false,
        }
    }
}

impl Eq for Resolver {}

impl ClientConfig {
    /// A configuration for `server` with everything else as usual.
    pub fn new(server: &str, name: Option<&str>, config_dir: PathBuf) -> ClientConfig {
        ClientConfig {
            server: server.to_owned(),
            name: name.map(str::to_owned),
            config_dir,
            insecure: false,
            trust: None,
            save_dir: None,
            reconnect: true,
            version: VERSION,
            resolver: Resolver::System,
            bot: false,
        }
    }

    /// `HOST:PORT`, the port added if missing; the key under which the server is pinned.
    pub fn address(&self) -> String {
        with_port(&self.server)
    }
}

/// `server` (`HOST` or `HOST:PORT`) checked before any lookup, as `HOST:PORT` with
/// [`DEFAULT_PORT`] added when it has none; or why it is not an address, in words (`the port
/// must be 1 to 65535`).
pub fn check_server(server: &str) -> Result<String, String> {
    let server = server.trim();
    let bad_port = || {
        format!(
            "{}: the port must be 1 to 65535",
            crate::quote::excerpt(server)
        )
    };
    let (host, port) = match server.rsplit_once(':') {
        // A bare IPv6 address has colons of its own and no port.
        Some((host, _)) if host.contains(':') && !host.ends_with(']') => (server, None),
        Some((host, port)) => (host, Some(port)),
        None => (server, None),
    };
    if host.is_empty() {
        return Err("no server given: HOST or HOST:PORT".to_owned());
    }
    match port {
        Some(port) => match port.parse::<u16>() {
            Ok(1..) if port.bytes().all(|b| b.is_ascii_digit()) => Ok(server.to_owned()),
            _ => Err(bad_port()),
        },
        None => Ok(format!("{server}:{DEFAULT_PORT}")),
    }
}

/// `HOST:PORT`, [`DEFAULT_PORT`] added when `server` has no port.
pub fn with_port(server: &str) -> String {
    let has_port = match server.rsplit_once(':') {
        Some((host, port)) => {
            port.parse::<u16>().is_ok() && (!host.contains(':') || host.ends_with(']'))
        }
        None => false,
    };
    if has_port {
        server.to_owned()
    } else {
        format!("{server}:{DEFAULT_PORT}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_checked_before_any_lookup() {
        assert_eq!(check_server("example.org").unwrap(), "example.org:7343");
        assert_eq!(check_server(" h:1 ").unwrap(), "h:1");
        assert_eq!(check_server("[::1]:80").unwrap(), "[::1]:80");
        assert_eq!(check_server("[::1]").unwrap(), "[::1]:7343");
        for bad in ["h:99999", "h:0", "h:", "h:+80", "h:port"] {
            let e = check_server(bad).unwrap_err();
            assert!(e.ends_with("the port must be 1 to 65535"), "{bad}: {e}");
        }
        assert!(check_server(":80").is_err());
        assert!(check_server("  ").is_err());
    }
}
