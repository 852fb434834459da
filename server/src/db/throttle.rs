//! Sign-in counts shared by every replica on one PostgreSQL database
//! (issue 43): GCRA's one number per key — its theoretical arrival time —
//! in a row, moved on in one statement so that replicas taking attempts of
//! one key at once take turns on its row. Times are the database's clock
//! (milliseconds), so replicas whose clocks differ still count in one
//! window. Rows whose time has passed are fresh counts and are deleted;
//! each kind keeps at most `max_keys` rows, those closest to fresh going
//! first. The rules (how many, how often) are the caller's
//! (`access::throttle`).

use std::time::Duration;

use super::{Db, DbError};

/// The database's clock, in milliseconds.
const NOW: &str = "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT";

/// How one kind of key is counted: an attempt comes back every `period`,
/// `burst` may be taken at once, at most `max_keys` keys are kept.
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    pub period: Duration,
    pub burst: u32,
    pub max_keys: usize,
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Limit {
    /// How far ahead of now a key's time may be before an attempt (GCRA's
    /// tolerance): `burst - 1` periods.
    fn tolerance(&self) -> i64 {
        millis(self.period) * i64::from(self.burst.saturating_sub(1))
    }
}

impl Db {
    /// Takes one attempt of `key` (of `kind`): `Ok(Ok(()))`, or how long
    /// until one is back. Forgets the keys that are fresh again first, and
    /// keeps at most `limit.max_keys` of the kind.
    pub async fn take_sign_in(
        &self,
        kind: &str,
        key: &str,
        limit: &Limit,
    ) -> Result<Result<(), Duration>, DbError> {
        sqlx::query(&format!(
            "DELETE FROM sign_in_counts WHERE kind = $1 AND tat <= {NOW}"
        ))
        .bind(kind)
        .execute(&self.pool)
        .await?;
        // A new key, or one whose next time stays within the tolerance,
        // moves on one period; otherwise no row comes back.
        let taken: Option<i64> = sqlx::query_scalar(&format!(
            "INSERT INTO sign_in_counts AS c (kind, key, tat) VALUES ($1, $2, {NOW} + $3) \
             ON CONFLICT (kind, key) DO UPDATE \
             SET tat = GREATEST(c.tat, EXCLUDED.tat - $3) + $3 \
             WHERE GREATEST(c.tat, EXCLUDED.tat - $3) - (EXCLUDED.tat - $3) <= $4 \
             RETURNING tat"
        ))
        .bind(kind)
        .bind(key)
        .bind(millis(limit.period))
        .bind(limit.tolerance())
        .fetch_optional(&self.pool)
        .await?;
        if taken.is_some() {
            self.keep_at_most(kind, limit.max_keys).await?;
            return Ok(Ok(()));
        }
        let ahead: Option<i64> = sqlx::query_scalar(&format!(
            "SELECT tat - {NOW} FROM sign_in_counts WHERE kind = $1 AND key = $2"
        ))
        .bind(kind)
        .bind(key)
        .fetch_optional(&self.pool)
        .await?;
        let wait = ahead.unwrap_or(0) - limit.tolerance();
        let wait = Duration::from_millis(u64::try_from(wait).unwrap_or(0));
        Ok(Err(wait.max(Duration::from_secs(1))))
    }

    /// Gives `key` back the attempt it took (a success, or a refusal for
    /// the other count).
    pub async fn give_back_sign_in(
        &self,
        kind: &str,
        key: &str,
        limit: &Limit,
    ) -> Result<(), DbError> {
        sqlx::query("UPDATE sign_in_counts SET tat = tat - $3 WHERE kind = $1 AND key = $2")
            .bind(kind)
            .bind(key)
            .bind(millis(limit.period))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Starts `key`'s count again.
    pub async fn forget_sign_in(&self, kind: &str, key: &str) -> Result<(), DbError> {
        sqlx::query("DELETE FROM sign_in_counts WHERE kind = $1 AND key = $2")
            .bind(kind)
            .bind(key)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// How many keys of `kind` are counted now.
    pub async fn sign_in_keys(&self, kind: &str) -> Result<i64, DbError> {
        Ok(
            sqlx::query_scalar("SELECT COUNT(*) FROM sign_in_counts WHERE kind = $1")
                .bind(kind)
                .fetch_one(&self.pool)
                .await?,
        )
    }

    /// Past `max_keys` keys of `kind`, drops the closest to fresh (the
    /// earliest times) down to seven eighths of it, so that a flood of
    /// made-up names does not trim on every attempt.
    async fn keep_at_most(&self, kind: &str, max_keys: usize) -> Result<(), DbError> {
        let count = usize::try_from(self.sign_in_keys(kind).await?).unwrap_or(0);
        if count <= max_keys {
            return Ok(());
        }
        let excess = i64::try_from(count - (max_keys - max_keys / 8)).unwrap_or(i64::MAX);
        sqlx::query(
            "DELETE FROM sign_in_counts WHERE kind = $1 AND key IN \
             (SELECT key FROM sign_in_counts WHERE kind = $1 ORDER BY tat LIMIT $2)",
        )
        .bind(kind)
        .bind(excess)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Whether this is PostgreSQL (else SQLite).
    pub fn is_postgres(&self) -> bool {
        self.postgres
    }
}
