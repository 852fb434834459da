//! Users, API tokens, browser sessions and the audit log.

use mosaic_core::access::Role;
use mosaic_core::api::AuditEntry;
use sqlx::Row;
use sqlx::any::AnyRow;

use super::generations::{Generation, next_generation};
use super::{Db, DbError};

/// A user as `mosaic user list` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredUser {
    pub id: i64,
    pub username: String,
    pub role: Role,
    pub password_hash: String,
    pub created_at: i64,
}

/// A token as listed (never its secret).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredToken {
    pub label: String,
    pub role: Role,
    pub created_at: i64,
}

/// A change to record in the audit log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditRecord {
    pub at: i64,
    pub actor: String,
    pub method: String,
    pub route: String,
    pub target: String,
    pub status: u16,
}

fn role(row: &AnyRow) -> Result<Role, DbError> {
    let text: String = row.try_get("role")?;
    Role::parse(&text).map_err(|e| DbError::Corrupt(format!("role: {e}")))
}

fn user(row: &AnyRow) -> Result<StoredUser, DbError> {
    Ok(StoredUser {
        id: row.try_get("id")?,
        username: row.try_get("username")?,
        role: role(row)?,
        password_hash: row.try_get("password_hash")?,
        created_at: row.try_get("created_at")?,
    })
}

/// A unique-constraint failure as a 409 that says what exists already.
pub(super) fn unique(e: sqlx::Error, what: String) -> DbError {
    match e.as_database_error() {
        Some(d) if d.is_unique_violation() => DbError::Conflict(what),
        _ => DbError::from(e),
    }
}

impl Db {
    pub async fn create_user(
        &self,
        username: &str,
        role: Role,
        password_hash: &str,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO users (username, role, password_hash, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(username)
        .bind(role.as_str())
        .bind(password_hash)
        .bind(now)
        .execute(&self.pool)
        .await
        .map_err(|e| unique(e, format!("the user '{username}' exists already")))?;
        Ok(())
    }

    /// Whether any user exists.
    pub async fn has_users(&self) -> Result<bool, DbError> {
        let found = sqlx::query("SELECT 1 FROM users LIMIT 1")
            .fetch_optional(&self.pool)
            .await?;
        Ok(found.is_some())
    }

    /// Creates `admin` when there is no user at all; whether it did (with
    /// several replicas starting at once, exactly one does).
    pub async fn create_first_admin(&self, password_hash: &str, now: i64) -> Result<bool, DbError> {
        let inserted = sqlx::query(
            "INSERT INTO users (username, role, password_hash, created_at) \
             SELECT 'admin', 'admin', $1, $2 WHERE NOT EXISTS (SELECT 1 FROM users) \
             ON CONFLICT (username) DO NOTHING",
        )
        .bind(password_hash)
        .bind(now)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(inserted == 1)
    }

    pub async fn users(&self) -> Result<Vec<StoredUser>, DbError> {
        let rows = sqlx::query(
            "SELECT id, username, role, password_hash, created_at FROM users ORDER BY username",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(user).collect()
    }

    pub async fn user_by_name(&self, username: &str) -> Result<Option<StoredUser>, DbError> {
        let row = sqlx::query(
            "SELECT id, username, role, password_hash, created_at FROM users WHERE username = $1",
        )
        .bind(username)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(user).transpose()
    }

    pub async fn create_token(
        &self,
        label: &str,
        role: Role,
        secret_hash: &str,
        now: i64,
    ) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO tokens (label, role, secret_hash, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(label)
        .bind(role.as_str())
        .bind(secret_hash)
        .bind(now)
        .execute(&self.pool)
        .await
        .map_err(|e| unique(e, format!("a token labelled '{label}' exists already")))?;
        Ok(())
    }

    pub async fn tokens(&self) -> Result<Vec<StoredToken>, DbError> {
        let rows = sqlx::query("SELECT label, role, created_at FROM tokens ORDER BY label")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| {
                Ok(StoredToken {
                    label: row.try_get("label")?,
                    role: role(row)?,
                    created_at: row.try_get("created_at")?,
                })
            })
            .collect()
    }

    /// Removes the token `label`; whether there was one.
    pub async fn revoke_token(&self, label: &str) -> Result<bool, DbError> {
        let mut tx = self.pool.begin().await?;
        let deleted = sqlx::query("DELETE FROM tokens WHERE label = $1")
            .bind(label)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        next_generation(&mut tx, Generation::Access).await?;
        tx.commit().await?;
        self.freshness.expire();
        Ok(deleted == 1)
    }

    /// The label and role of the token whose secret hashes to `secret_hash`
    /// (remembered while no credential is revoked).
    pub async fn token(&self, secret_hash: &str) -> Result<Option<(String, Role)>, DbError> {
        let access = self.generations().await?.access;
        if let Some((label, role, _)) = self.credentials.get(access, secret_hash) {
            return Ok(Some((label, role)));
        }
        let row = sqlx::query("SELECT label, role FROM tokens WHERE secret_hash = $1")
            .bind(secret_hash)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let (label, role): (String, Role) = (row.try_get("label")?, role(&row)?);
        self.credentials
            .put(access, secret_hash, (label.clone(), role, None));
        Ok(Some((label, role)))
    }

    /// Starts a session for user `user_id`, and forgets expired ones.
    pub async fn create_session(
        &self,
        secret_hash: &str,
        user_id: i64,
        now: i64,
        expires_at: i64,
    ) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
            .bind(now)
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO sessions (secret_hash, user_id, expires_at) VALUES ($1, $2, $3)")
            .bind(secret_hash)
            .bind(user_id)
            .bind(expires_at)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The user name and role behind a live session (remembered, with its
    /// expiry, while no credential is revoked).
    pub async fn session(
        &self,
        secret_hash: &str,
        now: i64,
    ) -> Result<Option<(String, Role)>, DbError> {
        let access = self.generations().await?.access;
        if let Some((user, role, expires)) = self.credentials.get(access, secret_hash) {
            return Ok(expires.is_some_and(|at| at > now).then_some((user, role)));
        }
        let row = sqlx::query(
            "SELECT users.username, users.role, sessions.expires_at FROM sessions \
             JOIN users ON users.id = sessions.user_id \
             WHERE sessions.secret_hash = $1 AND sessions.expires_at > $2",
        )
        .bind(secret_hash)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let (user, role): (String, Role) = (row.try_get("username")?, role(&row)?);
        let expires: i64 = row.try_get("expires_at")?;
        self.credentials
            .put(access, secret_hash, (user.clone(), role, Some(expires)));
        Ok(Some((user, role)))
    }

    /// Ends a session (signing out): no replica accepts it afterwards.
    pub async fn delete_session(&self, secret_hash: &str) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM sessions WHERE secret_hash = $1")
            .bind(secret_hash)
            .execute(&mut *tx)
            .await?;
        next_generation(&mut tx, Generation::Access).await?;
        tx.commit().await?;
        self.freshness.expire();
        Ok(())
    }

    pub async fn record_audit(&self, record: &AuditRecord) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO audit (at, actor, method, route, target, status) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(record.at)
        .bind(&record.actor)
        .bind(&record.method)
        .bind(&record.route)
        .bind(&record.target)
        .bind(i64::from(record.status))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The newest `limit` entries of the audit log, newest first.
    pub async fn audit(&self, limit: i64) -> Result<Vec<AuditEntry>, DbError> {
        let rows = sqlx::query(
            "SELECT id, at, actor, method, route, target, status FROM audit ORDER BY id DESC LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let status: i64 = row.try_get("status")?;
                Ok(AuditEntry {
                    id: row.try_get("id")?,
                    at: crate::timestamp::rfc3339(row.try_get("at")?),
                    actor: row.try_get("actor")?,
                    method: row.try_get("method")?,
                    route: row.try_get("route")?,
                    target: row.try_get("target")?,
                    status: u16::try_from(status)
                        .map_err(|_| DbError::Corrupt(format!("audit.status {status}")))?,
                })
            })
            .collect()
    }
}
