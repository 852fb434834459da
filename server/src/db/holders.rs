//! The few nodes a single-node change needs to know of, read without
//! reading the rest of the environment (issue 34): the nodes that hold a
//! role, or may hold a tag or an instance of it. Roles and hand-added tags are stored as JSON
//! arrays of validated names (`["controller","cinder"]`), so a name in
//! quotes is matched as a whole; `_` is escaped, being a `LIKE` wildcard.

use mosaic_core::name::{RoleName, TagName};

use super::node_row::{COLUMNS, node};
use super::{Db, DbError, StoredNode};

/// The `LIKE` pattern of `name` as an element of a stored JSON array.
fn element(name: &str) -> String {
    format!("%\"{}\"%", escaped(name))
}

/// The `LIKE` pattern of an element that is an instance of `name`
/// (`"name:N"`).
fn instance_of(name: &str) -> String {
    format!("%\"{}:%", escaped(name))
}

/// `name` with `LIKE`'s wildcards and its escape character escaped.
fn escaped(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if matches!(c, '_' | '%' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

impl Db {
    /// The nodes of environment `cluster_id` given one of `roles`
    /// (deployed or pending), or one of `tags` by hand, or (`instances`) an
    /// instance `tag:N` of one of them by hand: every node that can hold
    /// one of those tags (or instances), and possibly a few more. Nothing
    /// is read when there are neither roles nor tags.
    pub async fn nodes_holding(
        &self,
        cluster_id: i64,
        (roles, tags): (&[RoleName], &[TagName]),
        instances: bool,
    ) -> Result<Vec<StoredNode>, DbError> {
        let mut conn = self.pool.acquire().await?;
        nodes_holding_in(&mut conn, cluster_id, (roles, tags), instances).await
    }
}

/// [`Db::nodes_holding`] on `conn` (inside a transaction).
pub(super) async fn nodes_holding_in(
    conn: &mut sqlx::AnyConnection,
    cluster_id: i64,
    (roles, tags): (&[RoleName], &[TagName]),
    instances: bool,
) -> Result<Vec<StoredNode>, DbError> {
    if roles.is_empty() && tags.is_empty() {
        return Ok(Vec::new());
    }
    let mut tests = Vec::new();
    let mut patterns = Vec::new();
    for role in roles {
        patterns.push(element(role.as_str()));
        let n = patterns.len() + 1;
        tests.push(format!(
            "roles LIKE ${n} ESCAPE '\\' OR pending_roles LIKE ${n} ESCAPE '\\'"
        ));
    }
    for tag in tags {
        patterns.push(match instances {
            true => instance_of(tag.as_str()),
            false => element(tag.as_str()),
        });
        let n = patterns.len() + 1;
        tests.push(format!("tags_added LIKE ${n} ESCAPE '\\'"));
    }
    let sql = format!(
        "SELECT {COLUMNS} FROM nodes WHERE cluster_id = $1 AND ({}) ORDER BY id",
        tests.join(" OR ")
    );
    let mut query = sqlx::query(&sql).bind(cluster_id);
    for pattern in patterns {
        query = query.bind(pattern);
    }
    let rows = query.fetch_all(&mut *conn).await?;
    rows.iter().map(node).collect()
}

#[cfg(test)]
mod tests {
    use super::{element, instance_of};

    #[test]
    fn a_name_is_matched_whole_and_wildcards_are_escaped() {
        assert_eq!(element("controller"), "%\"controller\"%");
        assert_eq!(element("ceph_osd"), "%\"ceph\\_osd\"%");
        assert_eq!(element("mysql:1"), "%\"mysql:1\"%");
        assert_eq!(instance_of("my_sql"), "%\"my\\_sql:%");
    }
}
