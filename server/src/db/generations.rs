//! Generations of what servers cache: the installed plugins (and all that
//! is derived from them) and the credentials (tokens, sessions). A change
//! increments its generation in its own transaction; a replica reads both
//! generations in one query, at most once per [`Freshness::max_age`], and
//! drops what it derived from an older generation. Its own changes are
//! seen at once: they make it read again on the next request.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use mosaic_core::access::Role;
use sqlx::{AnyConnection, Row};

use super::DbError;

/// How old the generations a request is answered with may be: a change
/// made through another replica, or by the CLI on the same database, is
/// seen by this one within this time.
pub const DEFAULT_MAX_AGE: Duration = Duration::from_millis(50);

/// The most credentials one replica remembers (then it starts again).
const MAX_CREDENTIALS: usize = 10_000;

/// What each cached thing was derived at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Generations {
    pub plugins: i64,
    pub access: i64,
}

/// Which generation a change moves on.
#[derive(Debug, Clone, Copy)]
pub enum Generation {
    Plugins,
    Access,
}

impl Generation {
    fn name(self) -> &'static str {
        match self {
            Generation::Plugins => "plugins",
            Generation::Access => "access",
        }
    }
}

/// The generations as last read and when the read began, and when this
/// replica last changed one (a read that began before is not kept).
#[derive(Debug)]
struct Last {
    read: Option<(Instant, Generations)>,
    changed: Instant,
}

/// The generations, read at most once per `max_age`.
#[derive(Debug)]
pub struct Freshness {
    max_age: Duration,
    last: Mutex<Last>,
    /// Held by the one request that reads them again.
    reading: tokio::sync::Mutex<()>,
}

impl Freshness {
    pub fn new(max_age: Duration) -> Freshness {
        Freshness {
            max_age,
            last: Mutex::new(Last {
                read: None,
                changed: Instant::now(),
            }),
            reading: tokio::sync::Mutex::new(()),
        }
    }

    /// The last read when it is at most `max_age` old.
    fn recent(&self) -> Option<Generations> {
        match self.last.lock().expect("not poisoned").read {
            Some((at, generations)) if at.elapsed() <= self.max_age => Some(generations),
            _ => None,
        }
    }

    /// The generations, read again when the last read is older than
    /// `max_age` (one request reads; those arriving meanwhile wait for it).
    pub async fn current(&self, pool: &sqlx::AnyPool) -> Result<Generations, DbError> {
        if let Some(generations) = self.recent() {
            return Ok(generations);
        }
        let _turn = self.reading.lock().await;
        if let Some(generations) = self.recent() {
            return Ok(generations);
        }
        let at = Instant::now();
        let generations = generations_in(&mut *pool.acquire().await?).await?;
        let mut last = self.last.lock().expect("not poisoned");
        if at >= last.changed {
            last.read = Some((at, generations));
        }
        Ok(generations)
    }

    /// Forgets the last read: this replica changed something.
    pub fn expire(&self) {
        let mut last = self.last.lock().expect("not poisoned");
        last.read = None;
        last.changed = Instant::now();
    }
}

/// Both generations, in one query.
pub async fn generations_in(conn: &mut AnyConnection) -> Result<Generations, DbError> {
    let rows = sqlx::query("SELECT name, value FROM generations")
        .fetch_all(&mut *conn)
        .await?;
    let mut generations = Generations::default();
    for row in rows {
        let value: i64 = row.try_get("value")?;
        match row.try_get::<String, _>("name")?.as_str() {
            "plugins" => generations.plugins = value,
            "access" => generations.access = value,
            _ => {}
        }
    }
    Ok(generations)
}

/// Moves `which` on, inside the change's transaction.
pub async fn next_generation(conn: &mut AnyConnection, which: Generation) -> Result<(), DbError> {
    sqlx::query("UPDATE generations SET value = value + 1 WHERE name = $1")
        .bind(which.name())
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Who a credential (a token's or a session's secret hash) stands for:
/// the actor, the role, and when it expires (sessions).
pub type Holder = (String, Role, Option<i64>);

/// The credentials found valid at one access generation.
#[derive(Debug, Default)]
pub struct Credentials {
    known: Mutex<(i64, HashMap<String, Holder>)>,
}

impl Credentials {
    /// The holder of `secret_hash` if it was found at generation `access`.
    pub fn get(&self, access: i64, secret_hash: &str) -> Option<Holder> {
        let known = self.known.lock().expect("not poisoned");
        (known.0 == access)
            .then(|| known.1.get(secret_hash).cloned())
            .flatten()
    }

    /// Remembers that `secret_hash` stood for `holder` at generation `access`.
    pub fn put(&self, access: i64, secret_hash: &str, holder: Holder) {
        let mut known = self.known.lock().expect("not poisoned");
        if access < known.0 {
            return;
        }
        if known.0 != access || known.1.len() >= MAX_CREDENTIALS {
            *known = (access, HashMap::new());
        }
        known.1.insert(secret_hash.to_owned(), holder);
    }
}
