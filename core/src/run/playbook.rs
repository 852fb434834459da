//! How many plays a playbook has (a run's progress is plays started of
//! plays in its steps' playbooks): its top-level entries, an
//! `import_playbook` counted as the plays of the file it imports.

use crate::yaml;

/// The deepest chain of imports followed.
const DEPTH: usize = 8;

/// The plays of playbook `file` (its text `text`); `read` gives the text
/// of a file an import names (relative to the playbook's directory).
pub fn count_plays(
    file: &str,
    text: &str,
    read: &dyn Fn(&str) -> Option<String>,
) -> Result<u32, String> {
    count(file, text, read, 0)
}

fn count(
    file: &str,
    text: &str,
    read: &dyn Fn(&str) -> Option<String>,
    depth: usize,
) -> Result<u32, String> {
    if depth > DEPTH {
        return Err(format!("{file}: imports nest deeper than {DEPTH}"));
    }
    let entries: Vec<serde_json::Value> = yaml::parse(file, text).map_err(|e| e.to_string())?;
    let mut plays = 0;
    for entry in &entries {
        match entry.get("import_playbook").and_then(|v| v.as_str()) {
            Some(imported) => {
                let text = read(imported).ok_or_else(|| {
                    format!("{file}: cannot read the playbook it imports, {imported}")
                })?;
                plays += count(imported, &text, read, depth + 1)?;
            }
            None => plays += 1,
        }
    }
    Ok(plays)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_count_as_their_plays() {
        let read = |name: &str| match name {
            "facts.yml" => Some("- hosts: all\n- hosts: x\n".to_owned()),
            "loop.yml" => Some("- import_playbook: loop.yml\n".to_owned()),
            _ => None,
        };
        let site = "- import_playbook: facts.yml\n- hosts: a\n  roles: [r]\n- hosts: b\n";
        assert_eq!(count_plays("site.yml", site, &read), Ok(4));
        assert!(
            count_plays("s", "- import_playbook: gone.yml\n", &read)
                .unwrap_err()
                .contains("gone.yml")
        );
        assert!(
            count_plays("s", "- import_playbook: loop.yml\n", &read)
                .unwrap_err()
                .contains("deeper")
        );
    }
}
