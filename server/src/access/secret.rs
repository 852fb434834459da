//! Secrets: passwords hashed with argon2id (the `argon2` crate's defaults,
//! a random salt each), and random API tokens and session ids, stored as
//! their SHA-256 (they are 256 random bits, so a fast hash is enough).

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use sha2::{Digest, Sha256};

/// `n` random bytes from the operating system.
fn random_bytes<const N: usize>() -> anyhow::Result<[u8; N]> {
    let mut bytes = [0u8; N];
    getrandom::getrandom(&mut bytes)
        .map_err(|e| anyhow::anyhow!("the operating system gave no random bytes: {e}"))?;
    Ok(bytes)
}

/// The PHC string of `password` (`$argon2id$v=19$…`).
pub fn hash_password(password: &str) -> anyhow::Result<String> {
    let salt = SaltString::encode_b64(&random_bytes::<16>()?)
        .map_err(|e| anyhow::anyhow!("cannot encode a salt: {e}"))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| anyhow::anyhow!("cannot hash the password: {e}"))
}

/// Whether `password` matches the stored PHC string (a corrupt one never
/// matches).
pub fn verify_password(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|hash| {
        Argon2::default()
            .verify_password(password.as_bytes(), &hash)
            .is_ok()
    })
}

/// A new bearer token or session id: `mosaic_` and 64 hex digits.
pub fn new_secret() -> anyhow::Result<String> {
    Ok(format!("mosaic_{}", hex::encode(random_bytes::<32>()?)))
}

/// What is stored of a secret: its SHA-256, in hex.
pub fn secret_hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// A password for the first admin: 24 letters and digits (about 140 bits).
pub fn new_password() -> anyhow::Result<String> {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    let bytes = random_bytes::<24>()?;
    // 256 is not a multiple of the alphabet's size; the bias is negligible
    // for a password nobody has to remember.
    Ok(bytes
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_verify_only_themselves() {
        let stored = hash_password("correct horse battery").unwrap();
        assert!(stored.starts_with("$argon2id$"));
        assert!(verify_password("correct horse battery", &stored));
        assert!(!verify_password("correct horse batterY", &stored));
        assert!(!verify_password("anything", "not a hash"));
        assert_ne!(stored, hash_password("correct horse battery").unwrap());
    }

    #[test]
    fn secrets_are_random_and_stored_hashed() {
        let (a, b) = (new_secret().unwrap(), new_secret().unwrap());
        assert_ne!(a, b);
        assert_eq!(a.len(), 7 + 64);
        assert_eq!(secret_hash(&a).len(), 64);
        assert_ne!(secret_hash(&a), secret_hash(&b));
        assert_eq!(new_password().unwrap().len(), 24);
    }
}
