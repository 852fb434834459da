//! The files of a package, behind a trait so that loading stays free of IO:
//! the server implements it over a directory or an unpacked archive, tests
//! and the bundled release over a map in memory. Paths are relative to the
//! package root, `/`-separated; [`confine`] turns what a `*_path` key says
//! into such a path, or says why it leaves the package.

use std::collections::{BTreeMap, BTreeSet};

/// What a relative path names inside a package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
    /// A symbolic link (or a link on the way) that resolves outside the
    /// package root.
    Outside,
}

/// Read access to one package.
pub trait Files {
    /// What `path` is, or `None` when nothing is there.
    fn kind(&self, path: &str) -> Option<Kind>;
    /// The text of the file at `path`, or why it cannot be read.
    fn read(&self, path: &str) -> Result<String, String>;
    /// Every file of the package (not directories), in any order; links
    /// leading out are listed too, so that globs report them.
    fn list(&self) -> Vec<String>;
}

/// A package held in memory: the bundled release, unpacked archives, tests.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemoryFiles {
    files: BTreeMap<String, Result<String, String>>,
    dirs: BTreeSet<String>,
    outside: BTreeSet<String>,
}

impl MemoryFiles {
    pub fn new() -> MemoryFiles {
        MemoryFiles::default()
    }

    /// Adds a file (its parent directories exist implicitly).
    pub fn insert(&mut self, path: &str, text: impl Into<String>) {
        self.add_parents(path);
        self.files.insert(path.to_owned(), Ok(text.into()));
    }

    /// Adds a file whose contents are not kept (binary, too large): it is
    /// listed and exists, reading it gives `why`.
    pub fn insert_unreadable(&mut self, path: &str, why: impl Into<String>) {
        self.add_parents(path);
        self.files.insert(path.to_owned(), Err(why.into()));
    }

    /// Adds an empty directory.
    pub fn insert_dir(&mut self, path: &str) {
        let path = path.trim_end_matches('/');
        self.add_parents(path);
        self.dirs.insert(path.to_owned());
    }

    /// Adds a link that leads out of the package.
    pub fn insert_outside(&mut self, path: &str) {
        self.add_parents(path);
        self.outside.insert(path.to_owned());
    }

    fn add_parents(&mut self, path: &str) {
        let mut at = 0;
        while let Some(slash) = path[at..].find('/') {
            self.dirs.insert(path[..at + slash].to_owned());
            at += slash + 1;
        }
    }

    /// Every file with its text (unreadable ones left out), sorted by path.
    pub fn texts(&self) -> impl Iterator<Item = (&str, &str)> {
        self.files
            .iter()
            .filter_map(|(p, t)| t.as_ref().ok().map(|t| (p.as_str(), t.as_str())))
    }
}

impl<P: AsRef<str>, T: AsRef<str>> FromIterator<(P, T)> for MemoryFiles {
    fn from_iter<I: IntoIterator<Item = (P, T)>>(iter: I) -> Self {
        let mut files = MemoryFiles::new();
        for (path, text) in iter {
            let path = path.as_ref();
            if path.ends_with('/') {
                files.insert_dir(path);
            } else {
                files.insert(path, text.as_ref());
            }
        }
        files
    }
}

impl Files for MemoryFiles {
    fn kind(&self, path: &str) -> Option<Kind> {
        let path = path.trim_end_matches('/');
        if path.is_empty() || self.dirs.contains(path) {
            Some(Kind::Dir)
        } else if self.files.contains_key(path) {
            Some(Kind::File)
        } else if self.outside.contains(path) {
            Some(Kind::Outside)
        } else {
            None
        }
    }

    fn read(&self, path: &str) -> Result<String, String> {
        match self.files.get(path) {
            Some(Ok(text)) => Ok(text.clone()),
            Some(Err(why)) => Err(why.clone()),
            None if self.outside.contains(path) => {
                Err("it is a link that leads out of the package".to_owned())
            }
            None => Err("no such file".to_owned()),
        }
    }

    fn list(&self) -> Vec<String> {
        self.files.keys().chain(&self.outside).cloned().collect()
    }
}

/// Why a path given in a package cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathError {
    Absolute,
    /// `..` climbs above the package root.
    LeavesRoot,
    Empty,
}

impl PathError {
    pub fn describe(&self) -> &'static str {
        match self {
            PathError::Absolute => "it is an absolute path",
            PathError::LeavesRoot => "its `..` climbs above the package root",
            PathError::Empty => "it is empty",
        }
    }
}

/// `value` (as written in a `*_path` key) as a path relative to the package
/// root: `./` and inner `..` resolved; absolute paths and `..` above the
/// root refused.
pub fn confine(value: &str) -> Result<String, PathError> {
    if value.starts_with('/') || value.starts_with('\\') || value.get(1..3) == Some(":\\") {
        return Err(PathError::Absolute);
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in value.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(PathError::LeavesRoot);
                }
            }
            other => parts.push(other),
        }
    }
    if value.trim().is_empty() {
        return Err(PathError::Empty);
    }
    Ok(parts.join("/"))
}

/// Whether a `*_path` value is a glob.
pub fn is_glob(value: &str) -> bool {
    value.contains(['*', '?', '['])
}

/// The files a glob matches, sorted by path in byte order. `*` and `?` stay
/// within one path segment, `**` spans any number of segments, `[abc]` is a
/// class; wildcards do not match names starting with a dot.
pub fn glob(files: &dyn Files, pattern: &str) -> Vec<String> {
    let pattern: Vec<&str> = pattern.split('/').filter(|p| !p.is_empty()).collect();
    let mut matched: Vec<String> = files
        .list()
        .into_iter()
        .filter(|path| {
            let segments: Vec<&str> = path.split('/').collect();
            segments_match(&pattern, &segments)
        })
        .collect();
    matched.sort();
    matched
}

/// Whether `path`'s names match `pattern`'s (`**` spans any number of
/// names that do not start with a dot). Dynamic programming over (pattern
/// name, path name): polynomial however the pattern is written — a
/// package's glob is hostile input too.
fn segments_match(pattern: &[&str], path: &[&str]) -> bool {
    let (p, n) = (pattern.len(), path.len());
    // ok[i][j]: pattern[i..] matches path[j..].
    let mut ok = vec![vec![false; n + 1]; p + 1];
    ok[p][n] = true;
    for i in (0..p).rev() {
        for j in (0..=n).rev() {
            ok[i][j] = if pattern[i] == "**" {
                ok[i + 1][j] || (j < n && !path[j].starts_with('.') && ok[i][j + 1])
            } else {
                j < n
                    && (!path[j].starts_with('.') || pattern[i].starts_with('.'))
                    && ok[i + 1][j + 1]
                    && name_matches(pattern[i].as_bytes(), path[j].as_bytes())
            };
        }
    }
    ok[0][0]
}

/// One element of a name pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Byte(u8),
    /// `?`
    One,
    /// `*`
    Star,
    /// `[...]`: the bytes and ranges listed, or (negated) any other byte.
    Class {
        negate: bool,
        ranges: Vec<(u8, u8)>,
    },
}

fn tokens(pattern: &[u8]) -> Vec<Token> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < pattern.len() {
        let token = match pattern[i] {
            b'*' => Token::Star,
            b'?' => Token::One,
            b'[' => match pattern[i + 1..].iter().position(|&b| b == b']') {
                // An unclosed `[` is itself.
                None => Token::Byte(b'['),
                Some(end) => {
                    let class = &pattern[i + 1..i + 1 + end];
                    i += end + 1;
                    class_token(class)
                }
            },
            b => Token::Byte(b),
        };
        out.push(token);
        i += 1;
    }
    out
}

fn class_token(class: &[u8]) -> Token {
    let (negate, class) = match class.first() {
        Some(b'!' | b'^') => (true, &class[1..]),
        _ => (false, class),
    };
    let mut ranges = Vec::new();
    let mut i = 0;
    while i < class.len() {
        if i + 2 < class.len() && class[i + 1] == b'-' {
            ranges.push((class[i], class[i + 2]));
            i += 3;
        } else {
            ranges.push((class[i], class[i]));
            i += 1;
        }
    }
    Token::Class { negate, ranges }
}

/// `*`, `?` and `[...]` within one name, in O(pattern × name).
fn name_matches(pattern: &[u8], name: &[u8]) -> bool {
    let tokens = tokens(pattern);
    let n = name.len();
    // next[j]: the tokens after the current one match name[j..].
    let mut next = vec![false; n + 1];
    next[n] = true;
    for token in tokens.iter().rev() {
        let mut row = vec![false; n + 1];
        for j in (0..=n).rev() {
            row[j] = match token {
                Token::Star => next[j] || (j < n && row[j + 1]),
                Token::One => j < n && next[j + 1],
                Token::Byte(b) => j < n && name[j] == *b && next[j + 1],
                Token::Class { negate, ranges } => {
                    j < n
                        && next[j + 1]
                        && ranges
                            .iter()
                            .any(|(lo, hi)| *lo <= name[j] && name[j] <= *hi)
                            != *negate
                }
            };
        }
        next = row;
    }
    next[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_globs_stay_polynomial() {
        let name = "a".repeat(200);
        let star = "*a".repeat(50) + "b";
        assert!(!name_matches(star.as_bytes(), name.as_bytes()));
        assert!(name_matches(b"*a*a*", name.as_bytes()));
        assert!(name_matches(b"[a]*[!b]", b"aXc"));
        assert!(name_matches(b"[ab", b"[ab"));
        let deep: Vec<&str> = std::iter::repeat_n("d", 60).chain(["x.yaml"]).collect();
        let stars: Vec<&str> = std::iter::repeat_n("**", 40).chain(["y.yaml"]).collect();
        assert!(!segments_match(&stars, &deep));
    }

    #[test]
    fn paths_are_confined_to_the_package() {
        assert_eq!(confine("./graphs/a.yaml"), Ok("graphs/a.yaml".into()));
        assert_eq!(confine("graphs/../a.yaml"), Ok("a.yaml".into()));
        assert_eq!(
            confine("deployment_scripts/"),
            Ok("deployment_scripts".into())
        );
        assert_eq!(confine("../../etc/passwd"), Err(PathError::LeavesRoot));
        assert_eq!(confine("a/../../b"), Err(PathError::LeavesRoot));
        assert_eq!(confine("/etc/passwd"), Err(PathError::Absolute));
        assert_eq!(confine(""), Err(PathError::Empty));
    }

    #[test]
    fn globs_match_files_in_byte_order_and_skip_dotfiles() {
        let files: MemoryFiles = [
            ("graphs/b.yaml", ""),
            ("graphs/a.yaml", ""),
            ("graphs/.hidden.yaml", ""),
            ("graphs/sub/c.yaml", ""),
            ("graphs/B.yaml", ""),
            ("other.yml", ""),
        ]
        .into_iter()
        .collect();
        assert_eq!(
            glob(&files, "graphs/*.yaml"),
            ["graphs/B.yaml", "graphs/a.yaml", "graphs/b.yaml"]
        );
        assert_eq!(
            glob(&files, "**/*.yaml"),
            [
                "graphs/B.yaml",
                "graphs/a.yaml",
                "graphs/b.yaml",
                "graphs/sub/c.yaml"
            ]
        );
        assert_eq!(
            glob(&files, "graphs/[ab].yaml"),
            ["graphs/a.yaml", "graphs/b.yaml"]
        );
        assert_eq!(glob(&files, "*.y?l"), ["other.yml"]);
        assert_eq!(glob(&files, "graphs/[!a-b].yaml"), ["graphs/B.yaml"]);
        assert_eq!(glob(&files, "graphs/**/c.yaml"), ["graphs/sub/c.yaml"]);
        assert_eq!(
            glob(&files, "graphs/**"),
            [
                "graphs/B.yaml",
                "graphs/a.yaml",
                "graphs/b.yaml",
                "graphs/sub/c.yaml"
            ]
        );
        assert_eq!(files.kind("graphs"), Some(Kind::Dir));
        assert_eq!(files.kind("graphs/sub/"), Some(Kind::Dir));
        assert_eq!(files.kind("nope"), None);
    }
}
