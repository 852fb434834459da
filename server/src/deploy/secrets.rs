//! A run's secrets (SEMANTICS §15): kolla-ansible's `passwords.yml`, made
//! by `kolla-genpwd` once per environment, and the SSH key an admin sets
//! for its hosts. Both live in the data directory, readable by Mosaic's
//! user alone (0600), and nowhere else: not in the database, an answer,
//! an export or a log; what a run stores is masked with them.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use mosaic_core::run::Redactor;
use mosaic_core::run::secret::{key_values, password_values};

/// The longest SSH key taken (bytes).
pub const KEY_LIMIT: usize = 16 * 1024;

/// Where environment `cluster_id`'s secrets for deployer `deployer` live.
pub fn dir(data_dir: &Path, cluster_id: i64, deployer: &str) -> PathBuf {
    data_dir
        .join("environments")
        .join(cluster_id.to_string())
        .join(deployer)
}

pub fn passwords_path(data_dir: &Path, cluster_id: i64, deployer: &str) -> PathBuf {
    dir(data_dir, cluster_id, deployer).join("passwords.yml")
}

pub fn key_path(data_dir: &Path, cluster_id: i64, deployer: &str) -> PathBuf {
    dir(data_dir, cluster_id, deployer).join("ssh_key")
}

/// Writes `text` to `path` (its directory made, mode 0700), readable by
/// its owner alone, through a file renamed into place.
pub fn write_private(path: &Path, text: &[u8]) -> std::io::Result<()> {
    let parent = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)?;
    #[cfg(unix)]
    std::fs::set_permissions(parent, std::os::unix::fs::PermissionsExt::from_mode(0o700))?;
    let temporary = path.with_extension("tmp");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&temporary)?;
    file.write_all(text)?;
    file.sync_all()?;
    std::fs::rename(&temporary, path)
}

/// The environment's `passwords.yml`, made by kolla-ansible's own
/// `kolla-genpwd` (from its example) the first time.
pub fn ensure_passwords(passwords: &Path, example: &Path, genpwd: &Path) -> anyhow::Result<()> {
    if passwords.is_file() {
        return Ok(());
    }
    let template = std::fs::read(example)
        .with_context(|| format!("cannot read kolla-ansible's example {}", example.display()))?;
    let made = passwords.with_extension("new");
    write_private(&made, &template)?;
    let output = std::process::Command::new(genpwd)
        .arg("-p")
        .arg(&made)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .output()
        .with_context(|| format!("cannot run {}", genpwd.display()))?;
    if !output.status.success() {
        let _ = std::fs::remove_file(&made);
        anyhow::bail!(
            "kolla-genpwd failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    std::fs::rename(&made, passwords)?;
    Ok(())
}

/// Why an SSH key is not taken.
pub fn check_key(key: &str) -> Result<(), String> {
    let trimmed = key.trim();
    if trimmed.len() > KEY_LIMIT {
        return Err(format!("the key is over {KEY_LIMIT} bytes"));
    }
    let begins = trimmed.starts_with("-----BEGIN ")
        && trimmed
            .lines()
            .next()
            .is_some_and(|l| l.ends_with("PRIVATE KEY-----"));
    let ends = trimmed
        .lines()
        .last()
        .is_some_and(|l| l.starts_with("-----END ") && l.ends_with("PRIVATE KEY-----"));
    if !begins || !ends {
        return Err(
            "not a private key: it must be PEM or OpenSSH text from '-----BEGIN … PRIVATE KEY-----' to '-----END … PRIVATE KEY-----'"
                .to_owned(),
        );
    }
    Ok(())
}

/// What masks environment `cluster_id`'s secrets: every value of its
/// `passwords.yml` and its SSH key, those that exist.
pub fn redactor(passwords: &Path, key: &Path) -> anyhow::Result<Redactor> {
    let mut secrets = Vec::new();
    if let Ok(text) = std::fs::read_to_string(passwords) {
        secrets.extend(
            password_values(&text).map_err(|e| anyhow::anyhow!("{}: {e}", passwords.display()))?,
        );
    }
    if let Ok(text) = std::fs::read_to_string(key) {
        secrets.extend(key_values(&text));
    }
    Ok(Redactor::new(secrets))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_must_be_a_private_key() {
        assert!(
            check_key(
                "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n"
            )
            .is_ok()
        );
        assert!(check_key("ssh-ed25519 AAAA user@host").is_err());
        assert!(check_key(&"x".repeat(KEY_LIMIT + 1)).is_err());
    }

    #[test]
    fn private_files_are_owner_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b/secret");
        write_private(&path, b"s3cr3t").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert_eq!(std::fs::read(&path).unwrap(), b"s3cr3t");
    }
}
