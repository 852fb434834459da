//! Files of found hardware as they reach Mosaic: a `.tar.gz` of a facts
//! directory, a JSON object `{file name: content}` (gzip-encoded or not),
//! or, for the CLI, files and directories on disk packed into a
//! `.tar.gz`. Each file is read by core's readers as it comes out of the
//! stream, so an import holds what each host is, never a thousand files'
//! text at once. Archives are hostile: what the decompressor yields is
//! counted, and so are the files.

use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use mosaic_core::hardware::read::{FILE_LIMIT, problem};
use mosaic_core::hardware::{Found, ReadProblem, hidden, read, read_value};
use serde::de::{DeserializeSeed, MapAccess, Visitor};

/// The most files one import reads.
pub const MAX_FILES: usize = 10_000;
/// The most NICs, bonds and disks one import keeps, every host's together
/// (≈ 200 bytes each).
const MAX_ITEMS: usize = 500_000;

/// The most bytes an import unpacks to (a thousand hosts' facts are
/// ≈ 100 MiB).
const MAX_UNPACKED: u64 = 2 << 30;

/// What the files of an import are: each host found, and each file that
/// could not be read.
#[derive(Debug, Clone, Default)]
pub struct Gathered {
    pub found: Vec<Found>,
    pub problems: Vec<ReadProblem>,
    /// The NICs, bonds and disks kept so far.
    items: usize,
}

impl Gathered {
    fn take(&mut self, found: Result<Found, ReadProblem>) -> Result<(), String> {
        match found {
            Ok(host) => {
                let hw = &host.hardware;
                self.items += hw.interfaces.len() + hw.bonds.len() + hw.disks.len();
                if self.items > MAX_ITEMS {
                    return Err(format!(
                        "more than {MAX_ITEMS} NICs, bonds and disks in one import"
                    ));
                }
                self.found.push(host);
            }
            Err(problem) => self.problems.push(problem),
        }
        Ok(())
    }

    fn files(&self) -> usize {
        self.found.len() + self.problems.len()
    }

    fn room(&self) -> Result<(), String> {
        if self.files() >= MAX_FILES {
            return Err(format!("more than {MAX_FILES} files in one import"));
        }
        Ok(())
    }

    fn ended(self) -> Result<Gathered, String> {
        if self.files() == 0 {
            return Err("no file: send the facts files of at least one host".to_owned());
        }
        Ok(self)
    }
}

/// A reader that fails once more than `limit` bytes came through it.
struct Counted<R> {
    inner: R,
    read: u64,
    limit: u64,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        if self.read > self.limit {
            return Err(std::io::Error::other(format!(
                "the files unpack to more than {} bytes",
                self.limit
            )));
        }
        Ok(n)
    }
}

fn counted<R: Read>(inner: R) -> Counted<R> {
    Counted {
        inner,
        read: 0,
        limit: MAX_UNPACKED,
    }
}

/// The hosts of a `.tar.gz` (or a plain tar) of facts files: every
/// regular file that is not hidden; a link is a problem of its own.
pub fn from_archive(bytes: &[u8]) -> Result<Gathered, String> {
    let bad = |e: std::io::Error| format!("cannot read the archive: {e}");
    let reader: Box<dyn Read + '_> = if bytes.starts_with(&[0x1f, 0x8b]) {
        Box::new(counted(GzDecoder::new(bytes)))
    } else {
        Box::new(counted(bytes))
    };
    let mut archive = tar::Archive::new(reader);
    let mut gathered = Gathered::default();
    for entry in archive.entries().map_err(bad)? {
        let mut entry = entry.map_err(bad)?;
        let path = entry.path().map_err(bad)?.to_string_lossy().into_owned();
        let path = path.trim_start_matches("./").to_owned();
        let kind = entry.header().entry_type();
        if kind.is_dir() || hidden(&path) || path.is_empty() {
            continue;
        }
        gathered.room()?;
        if !kind.is_file() {
            gathered.take(Err(problem(
                &path,
                "not a regular file (a link?): not read".to_owned(),
            )))?;
            continue;
        }
        gathered.take(text(&path, &mut entry).and_then(|t| read(&path, &t)))?;
    }
    gathered.ended()
}

/// The text of the file `path`, at most [`FILE_LIMIT`] bytes of UTF-8.
fn text(path: &str, reader: &mut dyn Read) -> Result<String, ReadProblem> {
    let mut bytes = Vec::new();
    let limit = FILE_LIMIT as u64;
    match reader.take(limit + 1).read_to_end(&mut bytes) {
        Err(e) => Err(problem(path, format!("cannot be read: {e}"))),
        Ok(n) if n as u64 > limit => Err(problem(
            path,
            format!("over {FILE_LIMIT} bytes: no facts file is that large"),
        )),
        Ok(_) => String::from_utf8(bytes).map_err(|_| problem(path, "not UTF-8 text".to_owned())),
    }
}

/// The hosts of a JSON object `{file name: content}`, the content a
/// file's text or its JSON; `gzip` when the body is gzip-encoded.
pub fn from_json(bytes: &[u8], gzip: bool) -> Result<Gathered, String> {
    let reader: Box<dyn Read + '_> = if gzip {
        Box::new(BufReader::new(counted(GzDecoder::new(bytes))))
    } else {
        Box::new(bytes)
    };
    let mut de = serde_json::Deserializer::from_reader(reader);
    let gathered = Files
        .deserialize(&mut de)
        .and_then(|g| de.end().map(|()| g))
        .map_err(|e| format!("not a JSON object of files (file name → content): {e}"))?;
    gathered.ended()
}

/// Reads a JSON object of files, each read as it comes.
struct Files;

impl<'de> DeserializeSeed<'de> for Files {
    type Value = Gathered;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Gathered, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Files {
    type Value = Gathered;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object of file name → content")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Gathered, A::Error> {
        let mut gathered = Gathered::default();
        while let Some(file) = map.next_key::<String>()? {
            gathered.room().map_err(serde::de::Error::custom)?;
            let value: serde_json::Value = map.next_value()?;
            gathered
                .take(match &value {
                    serde_json::Value::String(text) => read(&file, text),
                    json => read_value(&file, json),
                })
                .map_err(serde::de::Error::custom)?;
        }
        Ok(gathered)
    }
}

/// The hosts of a directory of facts files (ansible-runner's jsonfile
/// fact cache: a file per host), each file read as it is reached.
pub fn from_dir(dir: &Path) -> Result<Gathered, String> {
    let mut gathered = Gathered::default();
    for (path, name) in directory_files(dir)? {
        gathered.room()?;
        let file = std::fs::File::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut reader = std::io::BufReader::new(file);
        gathered.take(text(&name, &mut reader).and_then(|t| read(&name, &t)))?;
    }
    Ok(gathered)
}

/// Files and directories on disk as one `.tar.gz`, each file under its
/// name (a directory's files under the directory's name): what `mosaic
/// node import` sends. Hidden files and links are left out.
pub fn pack(paths: &[PathBuf]) -> Result<Vec<u8>, String> {
    let mut archive = tar::Builder::new(GzEncoder::new(Vec::new(), Compression::fast()));
    let mut count = 0usize;
    for path in paths {
        let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let files = if meta.is_dir() {
            directory_files(path)?
        } else {
            vec![(path.clone(), base_name(path))]
        };
        for (file, name) in files {
            count += 1;
            if count > MAX_FILES {
                return Err(format!("more than {MAX_FILES} files in one import"));
            }
            let mut source =
                std::fs::File::open(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            archive
                .append_file(&name, &mut source)
                .map_err(|e| format!("{}: {e}", file.display()))?;
        }
    }
    if count == 0 {
        return Err("no file found in the paths given".to_owned());
    }
    let gz = archive.into_inner().map_err(|e| e.to_string())?;
    let mut bytes = gz.finish().map_err(|e| e.to_string())?;
    bytes.flush().map_err(|e| e.to_string())?;
    Ok(bytes)
}

fn base_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The regular files under `dir` (links not followed, hidden ones left
/// out), each named `DIR/relative path`, in name order.
fn directory_files(dir: &Path) -> Result<Vec<(PathBuf, String)>, String> {
    let prefix = base_name(dir);
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
    {
        let entry = entry.map_err(|e| e.to_string())?;
        let Ok(relative) = entry.path().strip_prefix(dir) else {
            continue;
        };
        let relative = relative.to_string_lossy().replace('\\', "/");
        if !entry.file_type().is_file() || hidden(&relative) {
            continue;
        }
        files.push((entry.path().to_owned(), format!("{prefix}/{relative}")));
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FACTS: &str = r#"{"ansible_facts": {"ansible_interfaces": ["eth0"], "ansible_eth0": {"macaddress": "52:54:00:00:00:01", "type": "ether", "active": true}, "ansible_memtotal_mb": 1024}}"#;

    fn archive(files: &[(&str, &str)]) -> Vec<u8> {
        let mut builder = tar::Builder::new(GzEncoder::new(Vec::new(), Compression::fast()));
        for (name, text) in files {
            let mut header = tar::Header::new_gnu();
            header.set_size(text.len() as u64);
            header.set_mode(0o644);
            header.set_cksum();
            builder
                .append_data(&mut header, name, text.as_bytes())
                .unwrap();
        }
        builder.into_inner().unwrap().finish().unwrap()
    }

    #[test]
    fn an_archive_gives_each_host_and_each_unreadable_file() {
        let bytes = archive(&[
            ("facts/ctl-1", FACTS),
            ("facts/.DS_Store", "junk"),
            ("facts/broken", "{"),
        ]);
        let gathered = from_archive(&bytes).unwrap();
        assert_eq!(gathered.found.len(), 1);
        assert_eq!(gathered.found[0].name, "ctl-1");
        assert_eq!(gathered.problems.len(), 1);
        assert_eq!(gathered.problems[0].file, "facts/broken");
        assert!(gathered.problems[0].message.starts_with("not JSON"));
    }

    #[test]
    fn a_json_object_of_files_takes_text_or_json_and_may_be_gzip_encoded() {
        let body = format!(
            r#"{{"ctl-1": {}, "ctl-2": {}}}"#,
            serde_json::json!(FACTS),
            FACTS
        );
        let plain = from_json(body.as_bytes(), false).unwrap();
        assert_eq!(plain.found.len(), 2);
        let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
        gz.write_all(body.as_bytes()).unwrap();
        let gathered = from_json(&gz.finish().unwrap(), true).unwrap();
        assert_eq!(gathered.found[1].name, "ctl-2");
    }

    #[test]
    fn what_is_no_import_says_why() {
        assert!(
            from_json(b"[1]", false)
                .unwrap_err()
                .contains("not a JSON object of files")
        );
        assert!(from_json(b"{}", false).unwrap_err().starts_with("no file"));
        assert!(from_archive(b"not an archive at all").is_err());
    }
}
