//! Who may do what (SEMANTICS §10): the three roles, what each API route
//! needs, and the cross-site and host checks, as pure functions of the
//! request's method, path and headers.

use std::fmt;

use serde::{Deserialize, Serialize};

/// An account's or a token's role; each one can do what the ones before
/// it can.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Role {
    /// Reads everything.
    Viewer,
    /// Also changes environments, nodes, node and environment tags,
    /// settings and Heat template sets.
    Operator,
    /// Also installs and uninstalls plugins, changes release tags, manages
    /// users and tokens and reads the audit log.
    Admin,
}

impl Role {
    pub const ALL: [Role; 3] = [Role::Viewer, Role::Operator, Role::Admin];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Viewer => "viewer",
            Role::Operator => "operator",
            Role::Admin => "admin",
        }
    }

    pub fn parse(text: &str) -> Result<Role, String> {
        Role::ALL
            .into_iter()
            .find(|r| r.as_str() == text)
            .ok_or_else(|| format!("unknown role '{text}' (expected viewer, operator or admin)"))
    }

    /// Whether this role has `access`.
    pub fn allows(self, access: Access) -> bool {
        self >= access.least_role()
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Checks a user name: 1 to 64 characters among letters, digits, `.`, `_`
/// and `-`, starting with a letter or digit.
pub fn check_username(name: &str) -> Result<(), String> {
    let valid = !name.is_empty()
        && name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if valid {
        Ok(())
    } else {
        Err(format!(
            "invalid user name '{name}': use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"
        ))
    }
}

/// Checks a new password: 12 to 1024 characters (the upper bound keeps
/// hashing cheap enough to refuse attackers, not operators).
pub fn check_password(password: &str) -> Result<(), String> {
    match password.chars().count() {
        n if n < 12 => Err(format!(
            "the password is too short ({n} characters; at least 12)"
        )),
        n if n > 1024 => Err(format!(
            "the password is too long ({n} characters; at most 1024)"
        )),
        _ => Ok(()),
    }
}

/// Checks a token label: the same characters as a user name.
pub fn check_token_label(label: &str) -> Result<(), String> {
    check_username(label).map_err(|_| {
        format!(
            "invalid token label '{label}': use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit"
        )
    })
}

/// What a request needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Nothing: signing in, the health check.
    Public,
    /// Any signed-in role.
    Read,
    /// Operator or admin.
    Operate,
    /// Admin only.
    Administer,
}

impl Access {
    fn least_role(self) -> Role {
        match self {
            Access::Public | Access::Read => Role::Viewer,
            Access::Operate => Role::Operator,
            Access::Administer => Role::Admin,
        }
    }
}

/// Whether a successful request is a change the audit log records: one
/// that needs an operator or an admin, signing in and signing out.
pub fn audited(method: &str, path: &str) -> bool {
    !is_safe(method)
        && (matches!(required(method, path), Access::Operate | Access::Administer)
            || path.trim_end_matches('/') == "/api/v1/session")
}

/// Whether `method` only reads (GET, HEAD, OPTIONS).
pub fn is_safe(method: &str) -> bool {
    matches!(method, "GET" | "HEAD" | "OPTIONS")
}

/// What a request to the API path `path` (`/api/v1/…`) with `method`
/// needs. Plugins, release tags and the audit log are the admin's; every
/// other change is an operator's; reads are anyone's.
pub fn required(method: &str, path: &str) -> Access {
    let parts: Vec<&str> = path
        .trim_start_matches("/api/v1")
        .split('/')
        .filter(|p| !p.is_empty())
        .collect();
    match parts.as_slice() {
        // The API's description: what it is, not what it holds.
        ["health"] | ["openapi.json"] => Access::Public,
        ["session"] if method == "POST" => Access::Public,
        ["session"] => Access::Read,
        ["audit"] | ["users", ..] | ["tokens", ..] => Access::Administer,
        _ if is_safe(method) => Access::Read,
        // The hosts' SSH key reaches every host of the environment.
        ["clusters", _, "deployers", _, "ssh_key"] => Access::Administer,
        // Resolving an environment against a template set changes nothing,
        // nor does verifying a network configuration.
        ["heat", "template-sets", _, "resolve"] => Access::Read,
        ["clusters", _, "network_configuration", "neutron", "verify"] => Access::Read,
        ["plugins", ..] | ["releases", _, "tags" | "roles", ..] => Access::Administer,
        _ => Access::Operate,
    }
}

/// What a change reaches that a deploying run freezes (SEMANTICS §15:
/// while a run deploys an environment, what it deploys does not change).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    Cluster(i64),
    Node(i64),
    NodeGroup(i64),
    /// Every environment of the release (its roles and tags).
    Release(i64),
}

/// What the change `method path` reaches, when it changes what a run
/// deploys: anything of an environment, its nodes and node groups, and a
/// release's roles and tags — but starting, canceling and relaunching
/// runs, the deployer's SSH key and verifying networks, which change
/// nothing deployed.
pub fn reach(method: &str, path: &str) -> Option<Reach> {
    if is_safe(method) {
        return None;
    }
    let parts: Vec<&str> = path
        .trim_start_matches("/api/v1")
        .split('/')
        .filter(|p| !p.is_empty())
        .collect();
    let id = |text: &str| text.parse::<i64>().ok();
    match parts.as_slice() {
        ["clusters", _, "deployers", ..] => None,
        ["clusters", _, "network_configuration", "neutron", "verify"] => None,
        ["clusters", cluster, ..] => id(cluster).map(Reach::Cluster),
        ["nodes", node, ..] => id(node).map(Reach::Node),
        ["node_groups", group, ..] => id(group).map(Reach::NodeGroup),
        ["releases", release, "roles" | "tags", ..] => id(release).map(Reach::Release),
        _ => None,
    }
}

/// Whether a request says it comes from another site: an `Origin` that is
/// not `host` (over http or https), or `Sec-Fetch-Site: cross-site` or
/// `same-site` (a sibling site is not the app either).
pub fn from_elsewhere(origin: Option<&str>, fetch_site: Option<&str>, host: &str) -> bool {
    let foreign_origin = origin.is_some_and(|origin| {
        !origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .is_some_and(|rest| rest.eq_ignore_ascii_case(host))
    });
    foreign_origin || matches!(fetch_site, Some("cross-site" | "same-site"))
}

/// Whether a state-changing request that rides on the session cookie comes
/// from the app's own origin: nothing says it comes from elsewhere, and
/// the browser says where it comes from (`Origin`, or `Sec-Fetch-Site:
/// same-origin`). A request that says neither is refused: every browser
/// that sends cookies sends one of them.
pub fn same_origin(origin: Option<&str>, fetch_site: Option<&str>, host: &str) -> bool {
    !from_elsewhere(origin, fetch_site, host)
        && (origin.is_some() || fetch_site == Some("same-origin"))
}

/// Whether the `Host` a request names is one the server answers to: an
/// allowed entry with a port must match exactly, one without a port
/// matches the host on any port. Comparison ignores ASCII case.
pub fn host_allowed(host: &str, allowed: &[String]) -> bool {
    let host = host.trim().to_ascii_lowercase();
    let bare = strip_port(&host);
    allowed.iter().any(|entry| {
        let entry = entry.trim().to_ascii_lowercase();
        if strip_port(&entry) == entry {
            entry == bare
        } else {
            entry == host
        }
    })
}

/// `host` without a `:port` suffix (IPv6 literals keep their brackets).
fn strip_port(host: &str) -> &str {
    match host.rfind(':') {
        Some(colon)
            if !host[colon..].contains(']')
                && host[colon + 1..].bytes().all(|b| b.is_ascii_digit()) =>
        {
            &host[..colon]
        }
        _ => host,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_role_can_do_what_the_ones_before_it_can() {
        assert!(Role::Viewer.allows(Access::Read));
        assert!(!Role::Viewer.allows(Access::Operate));
        assert!(Role::Operator.allows(Access::Operate));
        assert!(!Role::Operator.allows(Access::Administer));
        assert!(Role::Admin.allows(Access::Administer));
        assert_eq!(Role::parse("operator"), Ok(Role::Operator));
        assert!(Role::parse("root").unwrap_err().contains("'root'"));
    }

    #[test]
    fn names_and_passwords_are_checked() {
        assert!(check_username("ops-1.team_a").is_ok());
        assert!(check_username("").is_err());
        assert!(check_username("-x").is_err());
        assert!(check_username("token:x").is_err());
        assert!(check_username(&"a".repeat(65)).is_err());
        assert!(check_password("short").unwrap_err().contains("too short"));
        assert!(check_password("twelve chars").is_ok());
        assert!(
            check_password(&"p".repeat(1025))
                .unwrap_err()
                .contains("too long")
        );
        assert!(check_token_label("ci").is_ok());
        assert!(
            check_token_label("c i")
                .unwrap_err()
                .starts_with("invalid token label")
        );
    }

    #[test]
    fn routes_need_what_section_10_says() {
        let cases = [
            ("GET", "/api/v1/health", Access::Public),
            ("GET", "/api/v1/openapi.json", Access::Public),
            ("POST", "/api/v1/session", Access::Public),
            ("GET", "/api/v1/session", Access::Read),
            ("DELETE", "/api/v1/session", Access::Read),
            ("GET", "/api/v1/releases", Access::Read),
            ("GET", "/api/v1/plugins", Access::Read),
            ("POST", "/api/v1/plugins", Access::Administer),
            ("DELETE", "/api/v1/plugins/1", Access::Administer),
            ("GET", "/api/v1/releases/1/tags", Access::Read),
            ("POST", "/api/v1/releases/1/tags", Access::Administer),
            ("PUT", "/api/v1/releases/1/tags/x", Access::Administer),
            ("POST", "/api/v1/clusters", Access::Operate),
            ("POST", "/api/v1/clusters/import", Access::Operate),
            ("PATCH", "/api/v1/clusters/1/attributes", Access::Operate),
            ("POST", "/api/v1/nodes/1/tags", Access::Operate),
            ("POST", "/api/v1/clusters/1/tags", Access::Operate),
            ("POST", "/api/v1/heat/template-sets", Access::Operate),
            ("POST", "/api/v1/heat/template-sets/1/resolve", Access::Read),
            ("GET", "/api/v1/audit", Access::Administer),
        ];
        for (method, path, access) in cases {
            assert_eq!(required(method, path), access, "{method} {path}");
        }
    }

    #[test]
    fn changes_to_what_a_run_deploys_reach_their_environment() {
        for (method, path, reached) in [
            ("PUT", "/api/v1/nodes/7", Some(Reach::Node(7))),
            ("DELETE", "/api/v1/clusters/3", Some(Reach::Cluster(3))),
            (
                "PATCH",
                "/api/v1/clusters/3/attributes",
                Some(Reach::Cluster(3)),
            ),
            (
                "POST",
                "/api/v1/clusters/3/nodes/bulk",
                Some(Reach::Cluster(3)),
            ),
            ("DELETE", "/api/v1/node_groups/4", Some(Reach::NodeGroup(4))),
            (
                "PUT",
                "/api/v1/releases/1/roles/compute",
                Some(Reach::Release(1)),
            ),
            (
                "POST",
                "/api/v1/clusters/3/deployers/kolla-ansible/runs",
                None,
            ),
            (
                "PUT",
                "/api/v1/clusters/3/deployers/kolla-ansible/ssh_key",
                None,
            ),
            (
                "PUT",
                "/api/v1/clusters/3/network_configuration/neutron/verify",
                None,
            ),
            ("POST", "/api/v1/runs/9/cancel", None),
            ("GET", "/api/v1/clusters/3", None),
            ("POST", "/api/v1/plugins", None),
        ] {
            assert_eq!(reach(method, path), reached, "{method} {path}");
        }
        assert_eq!(
            required("PUT", "/api/v1/clusters/3/deployers/kolla-ansible/ssh_key"),
            Access::Administer
        );
        assert_eq!(required("POST", "/api/v1/runs/9/cancel"), Access::Operate);
    }

    #[test]
    fn changes_and_sessions_are_audited_reads_are_not() {
        assert!(audited("POST", "/api/v1/clusters"));
        assert!(audited("DELETE", "/api/v1/plugins/3"));
        assert!(audited("POST", "/api/v1/session"));
        assert!(audited("DELETE", "/api/v1/session"));
        assert!(!audited("GET", "/api/v1/clusters"));
        assert!(!audited("POST", "/api/v1/heat/template-sets/1/resolve"));
    }

    #[test]
    fn only_the_apps_own_origin_rides_on_the_cookie() {
        let host = "127.0.0.1:8080";
        assert!(same_origin(Some("http://127.0.0.1:8080"), None, host));
        assert!(same_origin(
            Some("https://127.0.0.1:8080"),
            Some("same-origin"),
            host
        ));
        assert!(!same_origin(
            Some("http://127.0.0.1:8080"),
            Some("cross-site"),
            host
        ));
        assert!(!same_origin(Some("http://evil.example"), None, host));
        assert!(!same_origin(
            Some("http://127.0.0.1:8080.evil.example"),
            None,
            host
        ));
        assert!(!same_origin(Some("null"), None, host));
        assert!(same_origin(None, Some("same-origin"), host));
        assert!(!same_origin(None, Some("same-site"), host));
        assert!(!same_origin(None, None, host));
        // Signing in from a script says nothing, and is not from elsewhere.
        assert!(!from_elsewhere(None, None, host));
        assert!(from_elsewhere(Some("http://evil.example"), None, host));
        assert!(from_elsewhere(None, Some("same-site"), host));
    }

    #[test]
    fn hosts_match_with_or_without_a_port() {
        let allowed = vec!["127.0.0.1:8080".to_owned(), "localhost".to_owned()];
        assert!(host_allowed("127.0.0.1:8080", &allowed));
        assert!(!host_allowed("127.0.0.1:9090", &allowed));
        assert!(host_allowed("LOCALHOST:3000", &allowed));
        assert!(host_allowed("localhost", &allowed));
        assert!(!host_allowed("evil.example", &allowed));
        assert!(!host_allowed("localhost.evil.example", &allowed));
        let v6 = vec!["[::1]:8080".to_owned()];
        assert!(host_allowed("[::1]:8080", &v6));
        assert!(!host_allowed("[::1]", &v6));
        assert_eq!(strip_port("[::1]"), "[::1]");
    }
}
