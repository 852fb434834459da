//! Secrets kept out of everything a run stores (SEMANTICS §15): the
//! values of kolla-ansible's `passwords.yml` and the hosts' SSH key are
//! found wherever they appear in an event or the output and written
//! `********`. The matching is the `aho-corasick` crate's (every secret
//! at once, in one pass).

use std::borrow::Cow;

use aho_corasick::AhoCorasick;

use crate::yaml;

/// What a secret is written as.
pub const MASK: &str = "********";

/// The shortest value treated as a secret: shorter ones (`yes`, a port)
/// would mask ordinary words. Every password `kolla-genpwd` makes is far
/// longer.
pub const SHORTEST_SECRET: usize = 8;

/// Finds and masks a set of secrets.
#[derive(Debug, Clone, Default)]
pub struct Redactor {
    matcher: Option<AhoCorasick>,
}

impl Redactor {
    /// A redactor of `secrets` (those shorter than [`SHORTEST_SECRET`]
    /// left out); the longest is masked where two overlap.
    pub fn new(secrets: impl IntoIterator<Item = String>) -> Redactor {
        let mut secrets: Vec<String> = secrets
            .into_iter()
            .filter(|s| s.len() >= SHORTEST_SECRET)
            .collect();
        secrets.sort();
        secrets.dedup();
        if secrets.is_empty() {
            return Redactor::default();
        }
        let matcher = aho_corasick::AhoCorasickBuilder::new()
            .match_kind(aho_corasick::MatchKind::LeftmostLongest)
            .build(&secrets)
            .expect("plain strings always build");
        Redactor {
            matcher: Some(matcher),
        }
    }

    /// `text` with every secret masked.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        match &self.matcher {
            Some(m) if m.is_match(text) => {
                let mut masked = String::with_capacity(text.len());
                m.replace_all_with(text, &mut masked, |_, _, out| {
                    out.push_str(MASK);
                    true
                });
                Cow::Owned(masked)
            }
            _ => Cow::Borrowed(text),
        }
    }
}

/// Every secret of kolla-ansible's `passwords.yml`: each string value, at
/// any depth (its SSH key pairs are maps), and each line of a multi-line
/// one (a key shows up one line at a time in some output).
pub fn password_values(passwords_yml: &str) -> Result<Vec<String>, String> {
    let value: serde_json::Value =
        yaml::parse("passwords.yml", passwords_yml).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    collect(&value, &mut out);
    Ok(out)
}

/// The secrets of an SSH private key: the key and each of its lines.
pub fn key_values(key: &str) -> Vec<String> {
    let mut out = vec![key.trim().to_owned()];
    out.extend(
        key.lines()
            .map(str::trim)
            .filter(|l| !l.starts_with("-----"))
            .map(str::to_owned),
    );
    out
}

fn collect(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => {
            out.push(s.clone());
            if s.contains('\n') {
                out.extend(key_values(s));
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| collect(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| collect(v, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_secret_is_masked_and_short_values_are_not_secrets() {
        let r = Redactor::new([
            "0123456789abcdef".to_owned(),
            "0123456789".to_owned(),
            "yes".to_owned(),
        ]);
        assert_eq!(
            r.redact("a 0123456789abcdef b 0123456789 yes"),
            "a ******** b ******** yes"
        );
        assert!(matches!(r.redact("nothing here"), Cow::Borrowed(_)));
        assert_eq!(Redactor::default().redact("x"), "x");
    }

    #[test]
    fn passwords_yml_values_at_any_depth() {
        let values = password_values(
            "database_password: Sup3rS3cretValue\nkeystone_ssh_key:\n  private_key: |\n    -----BEGIN KEY-----\n    AAAABBBBCCCCDDDD\n    -----END KEY-----\n  public_key: ssh-rsa AAAAB3Nza\nempty:\n",
        )
        .unwrap();
        assert!(values.contains(&"Sup3rS3cretValue".to_owned()));
        assert!(values.contains(&"AAAABBBBCCCCDDDD".to_owned()));
        assert!(values.contains(&"ssh-rsa AAAAB3Nza".to_owned()));
    }
}
