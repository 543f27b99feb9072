//! TLS for online play: the server's self-signed certificate, made on its first start, and
//! the client's pinning of it on first use (a known-servers file, as SSH's `known_hosts`).
//! The crypto provider is `ring` (no cmake needed to build it).

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};
use sha2::{Digest, Sha256};

use super::identity::write_secret;
use crate::game::storage::{ReadError, read_regular_file};

/// The certificate's file in the server's data folder.
pub const CERT_FILE: &str = "server-cert.der";
/// The certificate's secret key's file in the server's data folder (mode 0600).
pub const KEY_FILE: &str = "server-key.der";
/// The known-servers file in the client's config folder.
pub const KNOWN_SERVERS_FILE: &str = "known_servers";
/// The largest server certificate or key file read.
const MAX_KEY_BYTES: u64 = 64 * 1024;
/// The largest known-servers file read.
const MAX_KNOWN_SERVERS_BYTES: u64 = 1 << 20;

/// The crypto provider of both ends.
pub fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// A certificate's fingerprint as shown and pinned: `SHA256:` and the digest in hex.
pub fn fingerprint(cert: &[u8]) -> String {
    format!("SHA256:{}", hex::encode(Sha256::digest(cert)))
}

/// The server's certificate and its key.
pub struct ServerKey {
    cert: CertificateDer<'static>,
    key: Vec<u8>,
}

impl ServerKey {
    /// The key in `dir`, made (self-signed) and written on first start.
    pub fn load_or_create(dir: &Path) -> io::Result<ServerKey> {
        let cert_path = dir.join(CERT_FILE);
        let key_path = dir.join(KEY_FILE);
        if cert_path.exists() {
            return Ok(ServerKey {
                cert: CertificateDer::from(read_regular_file(&cert_path, MAX_KEY_BYTES)?.0),
                key: read_regular_file(&key_path, MAX_KEY_BYTES)?.0,
            });
        }
        let made = rcgen::generate_simple_self_signed(vec!["brandubh".to_owned()])
            .map_err(io::Error::other)?;
        let key = made.signing_key.serialize_der();
        fs::create_dir_all(dir)?;
        // The key first: a certificate without its key is never left behind.
        let _ = fs::remove_file(&key_path);
        write_secret(&key_path, &key)?;
        fs::write(&cert_path, made.cert.der())?;
        Ok(ServerKey {
            cert: made.cert.der().clone(),
            key,
        })
    }

    /// The certificate's fingerprint.
    pub fn fingerprint(&self) -> String {
        fingerprint(&self.cert)
    }

    /// The rustls configuration that serves this certificate.
    pub fn server_config(&self) -> Result<Arc<rustls::ServerConfig>, rustls::Error> {
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(self.key.clone()));
        let mut config = rustls::ServerConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()?
            .with_no_client_auth()
            .with_single_cert(vec![self.cert.clone()], key)?;
        // TLS 1.2 only with the extended master secret (RFC 7627): without it two sessions
        // can be made to share their secrets, and the identity's channel binding with them.
        config.require_ems = true;
        Ok(Arc::new(config))
    }
}

/// The servers a client has met and the fingerprints they showed, one `HOST:PORT
/// FINGERPRINT` line each.
pub struct KnownServers {
    path: PathBuf,
}

impl KnownServers {
    /// The known-servers file at `path`.
    pub const fn new(path: PathBuf) -> KnownServers {
        KnownServers { path }
    }

    /// The fingerprint pinned for `server`, if any.
    pub fn get(&self, server: &str) -> Option<String> {
        let (bytes, _) = read_regular_file(&self.path, MAX_KNOWN_SERVERS_BYTES).ok()?;
        String::from_utf8_lossy(&bytes).lines().find_map(|line| {
            let (name, print) = line.split_once(' ')?;
            (name == server).then(|| print.trim().to_owned())
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Forgets the key pinned for `server`: its lines are taken out of the file (written
    /// again atomically); returns the fingerprint forgotten, `None` if none was pinned.
    pub fn remove(&self, server: &str) -> io::Result<Option<String>> {
        let bytes = match read_regular_file(&self.path, MAX_KNOWN_SERVERS_BYTES) {
            Ok((bytes, _)) => bytes,
            Err(ReadError::Io(e)) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let text = String::from_utf8_lossy(&bytes);
        let mut forgotten = None;
        let mut kept = String::new();
        for line in text.lines() {
            match line.split_once(' ') {
                Some((name, print)) if name == server => {
                    forgotten = Some(print.trim().to_owned());
                }
                _ => {
                    kept.push_str(line);
                    kept.push('\n');
                }
            }
        }
        if forgotten.is_some() {
            crate::game::storage::write_file(&self.path, |out| out.write_all(kept.as_bytes()))
                .map_err(|e| io::Error::other(e.to_string()))?;
        }
        Ok(forgotten)
    }

    /// Pins `fingerprint` for `server` (first use).
    pub fn add(&self, server: &str, fingerprint: &str) -> io::Result<()> {
        use std::io::Write;
        if let Some(dir) = self.path.parent() {
            fs::create_dir_all(dir)?;
        }
        let mut file = fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(&self.path)?;
        writeln!(file, "{server} {fingerprint}")
    }
}

/// The certificate was not the one pinned.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct KeyChanged {
    /// The server.
    pub server: String,
    /// The pinned fingerprint.
    pub pinned: String,
    /// The one shown.
    pub shown: String,
    /// The known-servers file that pins it.
    pub file: PathBuf,
}

impl fmt::Display for KeyChanged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the key of {server} has changed (pinned {}, shown {}): refusing to connect; if \
             the server really made a new key, run brandubh online --forget {server} (or \
             remove its line from {})",
            self.pinned,
            self.shown,
            self.file.display(),
            server = self.server,
        )
    }
}

impl KeyChanged {
    /// The refusal and what to do, short enough for two lines of a terminal: the key shown
    /// cut to its first digits, the command to run in one piece.
    pub fn advice(&self) -> String {
        let shown: String = self.shown.chars().take("SHA256:".len() + 16).collect();
        format!(
            "the key of {server} has changed (now {shown}…): not connecting; if the server \
             made a new key, run: brandubh online --forget {server}",
            server = self.server
        )
    }
}

/// The client's view of the server's certificate: accepted if it is the pinned one (or
/// none is pinned, or pinning is off), its fingerprint kept for the caller to pin.
#[derive(Debug)]
pub(crate) struct PinningVerifier {
    pinned: Option<String>,
    shown: Mutex<Option<String>>,
    algorithms: WebPkiSupportedAlgorithms,
}

impl PinningVerifier {
    /// A verifier that accepts `pinned` only, or any key when `None`.
    pub(crate) fn new(pinned: Option<String>) -> PinningVerifier {
        PinningVerifier {
            pinned,
            shown: Mutex::new(None),
            algorithms: provider().signature_verification_algorithms,
        }
    }

    /// The fingerprint the server showed, once it did.
    pub(crate) fn shown(&self) -> Option<String> {
        self.shown
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl ServerCertVerifier for PinningVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let shown = fingerprint(end_entity);
        *self.shown.lock().unwrap_or_else(PoisonError::into_inner) = Some(shown.clone());
        match &self.pinned {
            Some(pinned) if *pinned != shown => Err(rustls::Error::General(
                "the server's key is not the pinned one".to_owned(),
            )),
            _ => Ok(ServerCertVerified::assertion()),
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

/// A client's TLS configuration that accepts only the certificate of fingerprint `pinned`
/// (any certificate when `None`: then compare the fingerprint yourself), for programs that
/// speak the protocol without [`crate::net::client`].
pub fn pinned_client_config(
    pinned: Option<String>,
) -> Result<Arc<rustls::ClientConfig>, rustls::Error> {
    client_config(Arc::new(PinningVerifier::new(pinned)))
}

/// The client's TLS configuration around a verifier.
pub(crate) fn client_config(
    verifier: Arc<PinningVerifier>,
) -> Result<Arc<rustls::ClientConfig>, rustls::Error> {
    let mut config = rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    // As the server: the channel binding needs the extended master secret under TLS 1.2.
    config.require_ems = true;
    Ok(Arc::new(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_server_key_is_made_once_and_its_secret_kept_private() {
        let dir = tempfile::tempdir().unwrap();
        let first = ServerKey::load_or_create(dir.path()).unwrap();
        let again = ServerKey::load_or_create(dir.path()).unwrap();
        assert_eq!(first.fingerprint(), again.fingerprint());
        assert!(first.fingerprint().starts_with("SHA256:"));
        assert!(again.server_config().is_ok());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.path().join(KEY_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn known_servers_pin_per_address() {
        let dir = tempfile::tempdir().unwrap();
        let known = KnownServers::new(dir.path().join("sub").join(KNOWN_SERVERS_FILE));
        assert_eq!(known.get("a:1"), None);
        known.add("a:1", "SHA256:aa").unwrap();
        known.add("b:2", "SHA256:bb").unwrap();
        assert_eq!(known.get("a:1").as_deref(), Some("SHA256:aa"));
        assert_eq!(known.get("b:2").as_deref(), Some("SHA256:bb"));
        assert_eq!(known.remove("a:1").unwrap().as_deref(), Some("SHA256:aa"));
        assert_eq!(known.get("a:1"), None);
        assert_eq!(known.get("b:2").as_deref(), Some("SHA256:bb"));
        assert_eq!(known.remove("a:1").unwrap(), None);
        let none = KnownServers::new(dir.path().join("none"));
        assert_eq!(none.remove("a:1").unwrap(), None);
    }
}
