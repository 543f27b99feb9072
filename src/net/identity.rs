//! A player's identity: an ed25519 key pair made on first use, its secret kept in the config
//! folder (mode 0600). The client signs the server's challenge with it; the server keeps
//! only public keys, so nothing it stores or an eavesdropper sees lets anyone take a name.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};

use super::protocol::challenge_bytes;
use crate::game::storage::read_regular_file;

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

    /// The signature of a challenge's nonce, in hex.
    pub fn sign(&self, nonce: &str) -> String {
        hex::encode(self.key.sign(&challenge_bytes(nonce)).to_bytes())
    }
}

/// Whether `signature` (hex) is the signature of `nonce`'s challenge by `key` (hex).
pub fn verify(key: &str, nonce: &str, signature: &str) -> bool {
    let key: Option<[u8; 32]> = hex::decode(key).ok().and_then(|b| b.try_into().ok());
    let signature: Option<[u8; 64]> = hex::decode(signature).ok().and_then(|b| b.try_into().ok());
    let (Some(key), Some(signature)) = (key, signature) else {
        return false;
    };
    let Ok(key) = VerifyingKey::from_bytes(&key) else {
        return false;
    };
    key.verify(&challenge_bytes(nonce), &Signature::from_bytes(&signature))
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
    fn a_signature_proves_the_key_and_nothing_else() {
        let me = Identity::generate();
        let other = Identity::generate();
        let signature = me.sign("abc");
        assert!(verify(&me.public_hex(), "abc", &signature));
        assert!(!verify(&me.public_hex(), "abd", &signature));
        assert!(!verify(&other.public_hex(), "abc", &signature));
        assert!(!verify("zz", "abc", &signature));
        assert!(!verify(&me.public_hex(), "abc", "00"));
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
