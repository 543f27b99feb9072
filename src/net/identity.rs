//! A player's identity: an ed25519 key pair made on first use, its secret kept in the config
//! folder (mode 0600). The client signs the server's challenge with it, bound to the TLS
//! session it is made in; the server keeps only public keys, so nothing it stores, an
//! eavesdropper sees or a server in the middle relays lets anyone take a name.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};

use super::protocol::challenge_bytes;
use crate::game::storage::read_regular_file;

/// The label of the TLS exporter value a proof is bound to (RFC 5705, RFC 8446 §7.5),
/// derived with no context.
pub const EXPORTER_LABEL: &[u8] = b"EXPORTER-brandubh-identity";

/// A value both ends of one TLS session derive from its secrets, and nobody else: a server
/// in the middle has two sessions, each with its own. A proof of identity signs it
/// ([`crate::net::protocol::challenge_bytes`]), so it holds for its session only (RFC 9266).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct ChannelBinding([u8; 32]);

impl ChannelBinding {
    /// The binding of a TLS session whose handshake is done ([`EXPORTER_LABEL`], no
    /// context, 32 bytes); `None` before that.
    pub fn of<D>(tls: &rustls::ConnectionCommon<D>) -> Option<ChannelBinding> {
        tls.export_keying_material([0; 32], EXPORTER_LABEL, None)
            .ok()
            .map(ChannelBinding)
    }

    /// Its bytes.
    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// A binding of these bytes, for tests without a TLS session.
    #[cfg(test)]
    pub(crate) const fn from_bytes(bytes: [u8; 32]) -> ChannelBinding {
        ChannelBinding(bytes)
    }
}

/// The identity key's file in the config folder.
pub const IDENTITY_FILE: &str = "identity.key";
/// The largest identity file read (its key is 64 hexadecimal digits).
const MAX_IDENTITY_BYTES: u64 = 4096;

/// The config folder, where the identity key and the known servers are kept.
pub fn config_dir() -> Option<PathBuf> {
    crate::folders::CONFIG.path()
}

/// A player's key pair.
pub struct Identity {
    key: SigningKey,
}

impl Identity {
    /// A new random key pair.
    pub fn generate() -> Identity {
        Identity {
            key: SigningKey::from_bytes(&rand::random::<[u8; 32]>()),
        }
    }

    /// The key pair in `dir`, made and written (mode 0600) if there is none.
    pub fn load_or_create(dir: &Path) -> io::Result<Identity> {
        let path = dir.join(IDENTITY_FILE);
        match read_regular_file(&path, MAX_IDENTITY_BYTES).map_err(io::Error::from) {
            Ok((text, _)) => {
                let bytes: [u8; 32] = hex::decode(text.trim_ascii())
                    .ok()
                    .and_then(|b| b.try_into().ok())
                    .ok_or_else(|| {
                        io::Error::new(
                            io::ErrorKind::InvalidData,
                            format!("{} is not an identity key", path.display()),
                        )
                    })?;
                Ok(Identity {
                    key: SigningKey::from_bytes(&bytes),
                })
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let identity = Identity::generate();
                fs::create_dir_all(dir)?;
                write_secret(&path, hex::encode(identity.key.to_bytes()).as_bytes())?;
                Ok(identity)
            }
            Err(e) => Err(e),
        }
    }

    /// The public key in hex, as the protocol sends it.
    pub fn public_hex(&self) -> String {
        hex::encode(self.key.verifying_key().to_bytes())
    }

    /// The signature of a challenge's nonce in the session of `binding`, in hex.
    pub fn sign(&self, nonce: &str, binding: &ChannelBinding) -> String {
        let signed = challenge_bytes(nonce, binding.as_bytes());
        hex::encode(self.key.sign(&signed).to_bytes())
    }
}

/// Whether `signature` (hex) is the signature of `nonce`'s challenge in the session of
/// `binding` by `key` (hex).
pub fn verify(key: &str, nonce: &str, binding: &ChannelBinding, signature: &str) -> bool {
    let key: Option<[u8; 32]> = hex::decode(key).ok().and_then(|b| b.try_into().ok());
    let signature: Option<[u8; 64]> = hex::decode(signature).ok().and_then(|b| b.try_into().ok());
    let (Some(key), Some(signature)) = (key, signature) else {
        return false;
    };
    let Ok(key) = VerifyingKey::from_bytes(&key) else {
        return false;
    };
    // Strictly: a weak (small-order) key, or a signature with a small-order or non-canonical
    // part, would prove nothing about who holds the key.
    !key.is_weak()
        && key
            .verify_strict(
                &challenge_bytes(nonce, binding.as_bytes()),
                &Signature::from_bytes(&signature),
            )
            .is_ok()
}

/// Writes a secret file readable by its owner only (mode 0600 from its creation on Unix).
pub(crate) fn write_secret(path: &Path, contents: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    file.write_all(contents)?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_proves_the_key_in_its_session_and_nothing_else() {
        let me = Identity::generate();
        let other = Identity::generate();
        let (session, another) = (ChannelBinding([1; 32]), ChannelBinding([2; 32]));
        let signature = me.sign("abc", &session);
        assert!(verify(&me.public_hex(), "abc", &session, &signature));
        assert!(!verify(&me.public_hex(), "abc", &another, &signature));
        assert!(!verify(&me.public_hex(), "abd", &session, &signature));
        assert!(!verify(&other.public_hex(), "abc", &session, &signature));
        assert!(!verify("zz", "abc", &session, &signature));
        assert!(!verify(&me.public_hex(), "abc", &session, "00"));
    }

    #[test]
    fn a_small_order_key_proves_nothing() {
        // The neutral point as a key, with R the neutral point and s = 0 as the signature: a
        // lax check accepts it for every message.
        let key = format!("01{}", "00".repeat(31));
        let signature = format!("01{}", "00".repeat(63));
        for nonce in ["abc", "anything at all"] {
            let binding = ChannelBinding([7; 32]);
            assert!(
                !verify(&key, nonce, &binding, &signature),
                "welcomed for {nonce}"
            );
        }
    }

    #[test]
    fn the_key_is_made_once_and_kept_secret() {
        let dir = tempfile::tempdir().unwrap();
        let first = Identity::load_or_create(dir.path()).unwrap();
        let again = Identity::load_or_create(dir.path()).unwrap();
        assert_eq!(first.public_hex(), again.public_hex());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.path().join(IDENTITY_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
