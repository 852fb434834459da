//! Reading a step's events file (`events.jsonl`, one JSON event per line,
//! appended by the driver) from where the last read stopped: only whole
//! lines, a bounded amount at a time, and a line too long to keep replaced
//! by a note of its size, so that memory stays bounded whatever is
//! written.

use std::io::SeekFrom;
use std::path::PathBuf;

use tokio::io::{AsyncReadExt, AsyncSeekExt};

/// The most read at once.
const READ: usize = 4 << 20;
/// The longest line kept; a longer one is replaced by a note.
pub const LONGEST: usize = 32 << 20;

/// A file read from `offset` on.
#[derive(Debug)]
pub struct Tail {
    path: PathBuf,
    /// Where the next line starts.
    pub offset: u64,
    /// Part of a line read, not ended yet.
    partial: Vec<u8>,
    /// Skipping a line too long to keep: its length so far.
    skipping: Option<u64>,
}

impl Tail {
    pub fn new(path: PathBuf, offset: u64) -> Tail {
        Tail {
            path,
            offset,
            partial: Vec::new(),
            skipping: None,
        }
    }

    /// The whole lines written since the last read (at most about
    /// [`READ`] bytes of them); none when the file is not there yet.
    pub async fn read(&mut self) -> std::io::Result<Vec<Vec<u8>>> {
        let Ok(mut file) = tokio::fs::File::open(&self.path).await else {
            return Ok(Vec::new());
        };
        let at = self.offset + self.partial.len() as u64 + self.skipping.unwrap_or(0);
        file.seek(SeekFrom::Start(at)).await?;
        let mut chunk = Vec::with_capacity(READ.min(1 << 16));
        (&mut file)
            .take(READ as u64)
            .read_to_end(&mut chunk)
            .await?;
        Ok(self.split(&chunk))
    }

    /// The lines `chunk` ends, with what came before it.
    fn split(&mut self, chunk: &[u8]) -> Vec<Vec<u8>> {
        let mut lines = Vec::new();
        let mut rest = chunk;
        while let Some(end) = rest.iter().position(|b| *b == b'\n') {
            let (line, after) = rest.split_at(end);
            match self.skipping.take() {
                Some(skipped) => {
                    let size = skipped + line.len() as u64;
                    self.offset += size + 1;
                    lines.push(too_long(size));
                }
                None => {
                    self.partial.extend_from_slice(line);
                    self.offset += self.partial.len() as u64 + 1;
                    lines.push(std::mem::take(&mut self.partial));
                }
            }
            rest = &after[1..];
        }
        match &mut self.skipping {
            Some(skipped) => *skipped += rest.len() as u64,
            None if self.partial.len() + rest.len() > LONGEST => {
                self.skipping = Some((self.partial.len() + rest.len()) as u64);
                self.partial.clear();
            }
            None => self.partial.extend_from_slice(rest),
        }
        lines
    }
}

/// What stands for a line of `size` bytes that was not kept.
fn too_long(size: u64) -> Vec<u8> {
    serde_json::json!({
        "event": "verbose",
        "stdout": format!("(Mosaic did not keep an event of {size} bytes: events are kept up to {LONGEST} bytes)"),
    })
    .to_string()
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn whole_lines_only_and_from_where_it_stopped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.jsonl");
        let mut tail = Tail::new(path.clone(), 0);
        assert!(tail.read().await.unwrap().is_empty(), "no file yet");
        std::fs::write(&path, "{\"a\":1}\n{\"b\"").unwrap();
        assert_eq!(tail.read().await.unwrap(), [b"{\"a\":1}".to_vec()]);
        assert_eq!(tail.offset, 8);
        std::fs::write(&path, "{\"a\":1}\n{\"b\":2}\n").unwrap();
        assert_eq!(tail.read().await.unwrap(), [b"{\"b\":2}".to_vec()]);
        assert_eq!(tail.offset, 16);
        let mut again = Tail::new(path, 8);
        assert_eq!(again.read().await.unwrap(), [b"{\"b\":2}".to_vec()]);
    }

    #[test]
    fn a_line_too_long_is_replaced_by_its_size() {
        let mut tail = Tail::new(PathBuf::new(), 0);
        let big = vec![b'x'; LONGEST + 10];
        assert!(tail.split(&big).is_empty());
        let lines = tail.split(b"yy\n{}\n");
        assert_eq!(lines.len(), 2);
        let note: serde_json::Value = serde_json::from_slice(&lines[0]).unwrap();
        assert!(
            note["stdout"]
                .as_str()
                .unwrap()
                .contains(&format!("{} bytes", LONGEST + 12))
        );
        assert_eq!(lines[1], b"{}");
        assert_eq!(tail.offset, (LONGEST + 12 + 1 + 3) as u64);
    }
}
