//! Plugin packages on disk and in archives: the [`Files`] implementations
//! core loads packages through, and the reproducible `.tar.gz` that
//! `mosaic plugin build` writes.
//!
//! Only YAML and JSON files are read into memory from archives (each up to
//! the loader's 8 MiB, all together up to 64 MiB); the rest (scripts,
//! repositories) are listed, so that `*_path` directories and globs see
//! them, but not kept. Archives are treated as hostile: the bytes that
//! come out of the decompressor are counted as they are read (declared
//! sizes are not trusted), an archive may unpack to at most 100 times its
//! own size (and 1 GiB), and link targets are bounded.

use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};

use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use mosaic_core::plugin::{Files, Kind, MemoryFiles, confine};

/// Files larger than this are not read (the YAML loader's limit).
const MAX_DATA_FILE: u64 = 8 << 20;
/// All the data files read from one archive (links included), together.
const MAX_KEPT: u64 = 64 << 20;
/// An archive unpacking to more than this is refused, however small.
const MAX_UNPACKED: u64 = 1 << 30;
/// ... or to more than this many times its own size (but 16 MiB is fine).
const MAX_RATIO: u64 = 100;
const MIN_ALLOWED: u64 = 16 << 20;
const MAX_ENTRIES: usize = 200_000;
/// The longest link target read.
const MAX_LINK: u64 = 4096;

/// Why a package cannot be opened at all (exit 2, HTTP 400).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct OpenError(pub String);

fn open_error(path: &Path, why: impl std::fmt::Display) -> OpenError {
    OpenError(format!("{}: {why}", path.display()))
}

/// A package directory on disk. Paths that resolve (through symbolic links)
/// outside the root are [`Kind::Outside`].
#[derive(Debug, Clone)]
pub struct DirFiles {
    root: PathBuf,
}

impl DirFiles {
    pub fn new(root: &Path) -> Result<DirFiles, OpenError> {
        let root = root.canonicalize().map_err(|e| open_error(root, e))?;
        Ok(DirFiles { root })
    }

    fn resolve(&self, path: &str) -> Option<(PathBuf, Kind)> {
        let full = self.root.join(path);
        std::fs::symlink_metadata(&full).ok()?;
        match full.canonicalize() {
            Ok(real) if real.starts_with(&self.root) => {
                let kind = if real.is_dir() { Kind::Dir } else { Kind::File };
                Some((real, kind))
            }
            // Outside the root, or a dangling link: either way not ours.
            _ => Some((full, Kind::Outside)),
        }
    }
}

impl Files for DirFiles {
    fn kind(&self, path: &str) -> Option<Kind> {
        self.resolve(path).map(|(_, kind)| kind)
    }

    fn read(&self, path: &str) -> Result<String, String> {
        match self.resolve(path) {
            None => Err("no such file".to_owned()),
            Some((_, Kind::Outside)) => {
                Err("it is a link that leads out of the package".to_owned())
            }
            Some((_, Kind::Dir)) => Err("it is a directory".to_owned()),
            Some((real, Kind::File)) => {
                let size = std::fs::metadata(&real).map_err(|e| e.to_string())?.len();
                if size > MAX_DATA_FILE {
                    return Err(format!(
                        "it is {size} bytes; data files over {MAX_DATA_FILE} bytes are refused"
                    ));
                }
                let bytes = std::fs::read(&real).map_err(|e| e.to_string())?;
                String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_owned())
            }
        }
    }

    fn list(&self) -> Vec<String> {
        walkdir::WalkDir::new(&self.root)
            .follow_links(false)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| !e.file_type().is_dir())
            .filter_map(|e| {
                let relative = e.path().strip_prefix(&self.root).ok()?;
                let relative = relative.to_str()?.replace('\\', "/");
                // Links to directories inside the package are not followed.
                match self.kind(&relative)? {
                    Kind::Dir => None,
                    _ => Some(relative),
                }
            })
            .collect()
    }
}

/// A package from a directory or an archive (`.tar.gz`, `.tgz`, `.zip`).
pub fn open(path: &Path) -> Result<Box<dyn Files + Send + Sync>, OpenError> {
    let meta = std::fs::metadata(path).map_err(|e| open_error(path, e))?;
    if meta.is_dir() {
        return Ok(Box::new(DirFiles::new(path)?));
    }
    let bytes = std::fs::read(path).map_err(|e| open_error(path, e))?;
    let files = unpack(&bytes).map_err(|e| open_error(path, e.0))?;
    Ok(Box::new(files))
}

/// An archive's files, by its first bytes: gzip (a tarball) or zip.
pub fn unpack(bytes: &[u8]) -> Result<MemoryFiles, OpenError> {
    let entries = if bytes.starts_with(&[0x1f, 0x8b]) {
        tar_entries(bytes)?
    } else if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        zip_entries(bytes)?
    } else {
        return Err(OpenError(
            "not a package: expected a directory, a .tar.gz or a .zip archive".to_owned(),
        ));
    };
    into_files(entries)
}

/// One archive member, its path already confined to the root.
enum Member {
    File(String, Option<Result<String, String>>),
    Dir(String),
    /// A link; its target resolved against the root, or `None` if it leaves.
    Link(String, Option<String>),
}

fn member_path(name: &str) -> Result<String, OpenError> {
    confine(name).map_err(|e| {
        OpenError(format!(
            "archive entry '{name}' is refused: {}",
            e.describe()
        ))
    })
}

fn is_data(path: &str) -> bool {
    [".yaml", ".yml", ".json"]
        .iter()
        .any(|ext| path.ends_with(ext))
}

/// The text of a member worth keeping, read within the limits.
fn contents(path: &str, size: u64, reader: &mut dyn Read) -> Option<Result<String, String>> {
    if !is_data(path) {
        return None;
    }
    if size > MAX_DATA_FILE {
        return Some(Err(format!(
            "it is {size} bytes; data files over {MAX_DATA_FILE} bytes are refused"
        )));
    }
    // The declared size is a hint only: what is read decides.
    let mut bytes = Vec::with_capacity(size.min(MAX_DATA_FILE) as usize);
    Some(
        match reader.take(MAX_DATA_FILE + 1).read_to_end(&mut bytes) {
            Err(e) => Err(e.to_string()),
            Ok(n) if n as u64 > MAX_DATA_FILE => Err(format!(
                "it is over {MAX_DATA_FILE} bytes; larger data files are refused"
            )),
            Ok(_) => String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_owned()),
        },
    )
}

fn link_target(path: &str, target: &str) -> Option<String> {
    if target.starts_with('/') {
        return None;
    }
    let parent = path.rsplit_once('/').map(|(dir, _)| dir).unwrap_or("");
    let joined = if parent.is_empty() {
        target.to_owned()
    } else {
        format!("{parent}/{target}")
    };
    confine(&joined).ok()
}

/// How many bytes an archive of `compressed` bytes may unpack to.
fn unpack_limit(compressed: usize) -> u64 {
    (compressed as u64)
        .saturating_mul(MAX_RATIO)
        .clamp(MIN_ALLOWED, MAX_UNPACKED)
}

fn too_big(limit: u64) -> OpenError {
    OpenError(format!(
        "the archive unpacks to more than {limit} bytes (at most {MAX_RATIO} times its own size, \
         and {MAX_UNPACKED} bytes)"
    ))
}

/// A reader that fails once more than `limit` bytes came through it: what
/// a decompressor really produces, whatever the archive declares.
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
            return Err(std::io::Error::other(too_big(self.limit).0));
        }
        Ok(n)
    }
}

fn tar_entries(bytes: &[u8]) -> Result<Vec<Member>, OpenError> {
    let bad = |e: std::io::Error| OpenError(format!("cannot read the archive: {e}"));
    let limit = unpack_limit(bytes.len());
    let mut archive = tar::Archive::new(Counted {
        inner: GzDecoder::new(bytes),
        read: 0,
        limit,
    });
    let mut members = Vec::new();
    for entry in archive.entries().map_err(bad)? {
        let mut entry = entry.map_err(bad)?;
        if members.len() >= MAX_ENTRIES {
            return Err(OpenError(format!(
                "the archive has more than {MAX_ENTRIES} entries"
            )));
        }
        let name = entry.path().map_err(bad)?.to_string_lossy().into_owned();
        let path = member_path(&name)?;
        let size = entry.size();
        if size > limit {
            return Err(too_big(limit));
        }
        let kind = entry.header().entry_type();
        if path.is_empty() {
            continue;
        }
        if kind.is_dir() {
            members.push(Member::Dir(path));
        } else if kind.is_symlink() || kind.is_hard_link() {
            let target = entry
                .link_name()
                .map_err(bad)?
                .map(|t| t.to_string_lossy().into_owned())
                .unwrap_or_default();
            let resolved = if kind.is_hard_link() {
                confine(&target).ok()
            } else {
                link_target(&path, &target)
            };
            members.push(Member::Link(path, resolved));
        } else if kind.is_file() {
            let text = contents(&path, size, &mut entry);
            members.push(Member::File(path, text));
        }
    }
    Ok(members)
}

fn zip_entries(bytes: &[u8]) -> Result<Vec<Member>, OpenError> {
    let bad = |e: zip::result::ZipError| OpenError(format!("cannot read the archive: {e}"));
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(bad)?;
    if archive.len() > MAX_ENTRIES {
        return Err(OpenError(format!(
            "the archive has more than {MAX_ENTRIES} entries"
        )));
    }
    let limit = unpack_limit(bytes.len());
    let mut members = Vec::new();
    // Declared sizes refuse an honest bomb at once; a lying one is stopped
    // by what decompression really produces (only data files and link
    // targets are decompressed at all).
    let mut declared = 0u64;
    let mut produced = 0u64;
    for i in 0..archive.len() {
        let file = archive.by_index(i).map_err(bad)?;
        let name = file.name().to_owned();
        let path = member_path(&name)?;
        declared = declared.saturating_add(file.size());
        if declared > limit {
            return Err(too_big(limit));
        }
        let mut file = Counted {
            inner: file,
            read: 0,
            limit: limit - produced,
        };
        if path.is_empty() {
            continue;
        }
        if file.inner.is_dir() {
            members.push(Member::Dir(path));
        } else if file.inner.is_symlink() {
            let mut target = String::new();
            (&mut file)
                .take(MAX_LINK)
                .read_to_string(&mut target)
                .map_err(|e| OpenError(format!("cannot read the archive: {e}")))?;
            let resolved = link_target(&path, &target);
            members.push(Member::Link(path, resolved));
        } else {
            let size = file.inner.size();
            let text = contents(&path, size, &mut file);
            if let Some(Err(why)) = &text
                && why.contains("unpacks to more than")
            {
                return Err(OpenError(why.clone()));
            }
            members.push(Member::File(path, text));
        }
        produced += file.read;
    }
    Ok(members)
}

/// The members as a package. Archives built by `fuel-plugin-builder` and
/// `mosaic plugin build` hold one top directory (`name-version/`); when
/// `metadata.yaml` is not at the root but under that single directory, the
/// directory is the package. The data kept (links read as their target
/// count again) is bounded by [`MAX_KEPT`].
fn into_files(members: Vec<Member>) -> Result<MemoryFiles, OpenError> {
    let path_of = |m: &Member| match m {
        Member::File(p, _) | Member::Dir(p) | Member::Link(p, _) => p.clone(),
    };
    let tops: std::collections::BTreeSet<String> = members
        .iter()
        .map(|m| path_of(m).split('/').next().unwrap_or_default().to_owned())
        .collect();
    let has_root_metadata = members.iter().any(|m| path_of(m) == "metadata.yaml");
    let strip = match tops.iter().next() {
        Some(top) if tops.len() == 1 && !has_root_metadata => format!("{top}/"),
        _ => String::new(),
    };
    let rel = |p: &str| p.strip_prefix(&strip).unwrap_or(p).to_owned();
    let mut kept = 0u64;
    let mut keep = |text: &str| {
        kept += text.len() as u64;
        if kept > MAX_KEPT {
            Err(OpenError(format!(
                "the archive's YAML and JSON files (links counted again) add up to more than {MAX_KEPT} bytes"
            )))
        } else {
            Ok(())
        }
    };
    let mut files = MemoryFiles::new();
    let mut texts = std::collections::BTreeMap::new();
    for member in &members {
        match member {
            Member::File(p, Some(Ok(text))) => {
                keep(text)?;
                texts.insert(rel(p), text.clone());
                files.insert(&rel(p), text.clone());
            }
            Member::File(p, Some(Err(why))) => files.insert_unreadable(&rel(p), why.clone()),
            Member::File(p, None) => {
                files.insert_unreadable(&rel(p), "only YAML and JSON files are read")
            }
            Member::Dir(p) if p.len() > strip.len() || strip.is_empty() => {
                files.insert_dir(&rel(p))
            }
            Member::Dir(_) | Member::Link(..) => {}
        }
    }
    // Links: inside ones read as their target, outside ones are reported.
    for member in &members {
        if let Member::Link(p, target) = member {
            match target.as_deref().map(rel) {
                None => files.insert_outside(&rel(p)),
                Some(t) => match texts.get(&t) {
                    Some(text) => {
                        keep(text)?;
                        files.insert(&rel(p), text.clone());
                    }
                    None => files.insert_unreadable(
                        &rel(p),
                        format!("a link to {t}, which is not a data file"),
                    ),
                },
            }
        }
    }
    Ok(files)
}

/// Writes `dir` as a reproducible `.tar.gz`: entries sorted by path under
/// one top directory `prefix/`, owner 0, mtime 0, modes 0644/0755, gzip
/// header without a time stamp. Calls `progress(done, total)` per file.
pub fn build_archive(
    dir: &Path,
    prefix: &str,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(usize, usize),
) -> anyhow::Result<()> {
    let mut entries: Vec<walkdir::DirEntry> = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
        .min_depth(1)
        .into_iter()
        .collect::<Result<_, _>>()?;
    entries.sort_by(|a, b| a.path().cmp(b.path()));
    let encoder = GzEncoder::new(out, Compression::best());
    let mut tar = tar::Builder::new(encoder);
    tar.mode(tar::HeaderMode::Deterministic);
    let total = entries.len();
    for (done, entry) in entries.iter().enumerate() {
        let relative = entry.path().strip_prefix(dir)?;
        let name = Path::new(prefix).join(relative);
        if relative
            .components()
            .any(|c| matches!(c, Component::ParentDir))
        {
            anyhow::bail!("{} leaves the package", relative.display());
        }
        let file_type = entry.file_type();
        let mut header = tar::Header::new_gnu();
        header.set_mtime(0);
        header.set_uid(0);
        header.set_gid(0);
        if file_type.is_dir() {
            header.set_entry_type(tar::EntryType::Directory);
            header.set_mode(0o755);
            header.set_size(0);
            tar.append_data(&mut header, &name, std::io::empty())?;
        } else if file_type.is_symlink() {
            let target = std::fs::read_link(entry.path())?;
            header.set_entry_type(tar::EntryType::Symlink);
            header.set_mode(0o777);
            header.set_size(0);
            tar.append_link(&mut header, &name, &target)?;
        } else {
            let meta = entry.metadata()?;
            #[cfg(unix)]
            let executable = {
                use std::os::unix::fs::PermissionsExt;
                meta.permissions().mode() & 0o111 != 0
            };
            #[cfg(not(unix))]
            let executable = false;
            header.set_entry_type(tar::EntryType::Regular);
            header.set_mode(if executable { 0o755 } else { 0o644 });
            header.set_size(meta.len());
            tar.append_data(&mut header, &name, std::fs::File::open(entry.path())?)?;
        }
        progress(done + 1, total);
    }
    tar.into_inner()?.finish()?;
    Ok(())
}

/// `files` (relative path → text) as a reproducible `.tar.gz` under
/// `prefix/`: what an export's archive holds.
pub fn files_archive(
    prefix: &str,
    files: &std::collections::BTreeMap<String, String>,
) -> anyhow::Result<Vec<u8>> {
    let encoder = GzEncoder::new(Vec::new(), Compression::default());
    let mut tar = tar::Builder::new(encoder);
    tar.mode(tar::HeaderMode::Deterministic);
    for (path, text) in files {
        let relative = Path::new(path);
        if relative.is_absolute()
            || relative
                .components()
                .any(|c| matches!(c, Component::ParentDir))
        {
            anyhow::bail!("{path} leaves the archive");
        }
        let mut header = tar::Header::new_gnu();
        header.set_mtime(0);
        header.set_uid(0);
        header.set_gid(0);
        header.set_mode(0o644);
        header.set_size(text.len() as u64);
        header.set_entry_type(tar::EntryType::Regular);
        tar.append_data(
            &mut header,
            Path::new(prefix).join(relative),
            text.as_bytes(),
        )?;
    }
    Ok(tar.into_inner()?.finish()?)
}
