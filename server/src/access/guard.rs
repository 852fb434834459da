//! The middleware: the host check in front of everything, and in front of
//! every API route the credentials, the role, the cross-site check, the
//! audit log and the access log.

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use mosaic_core::access::{
    Access, audited, from_elsewhere, host_allowed, is_safe, required, same_origin,
};
use mosaic_core::api::ErrorCode;

use super::secret::secret_hash;
use super::{Principal, SESSION_COOKIE};
use crate::AppState;
use crate::db::AuditRecord;
use crate::error::ApiError;
use crate::timestamp::now;

fn header_str(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// The host the request names (`Host`, or the URI's authority).
fn request_host(request: &Request) -> Option<String> {
    header_str(request.headers(), header::HOST)
        .map(str::to_owned)
        .or_else(|| request.uri().authority().map(|a| a.as_str().to_owned()))
}

/// Refuses requests for hosts the server does not answer to (DNS
/// rebinding: another name resolving to this server's address).
pub async fn check_host(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if let Some(allowed) = &state.security.allowed_hosts {
        let host = request_host(&request).unwrap_or_default();
        if !host_allowed(&host, allowed) {
            let message = if host.is_empty() {
                "the request names no host".to_owned()
            } else {
                format!(
                    "this server does not answer to the host '{host}'; \
                     start it with --allowed-host {host} to allow it"
                )
            };
            return ApiError::Coded(StatusCode::BAD_REQUEST, ErrorCode::HostNotAllowed, message)
                .into_response();
        }
    }
    next.run(request).await
}

/// The session cookie's secret, if the request carries one.
pub fn session_cookie(headers: &HeaderMap) -> Option<&str> {
    cookie(headers, SESSION_COOKIE)
}

/// The value of cookie `name` in the `Cookie` headers.
fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
}

/// Who sends the request: a bearer token (which, when present, must be
/// valid), else a live session cookie, else nobody.
async fn identify(state: &AppState, headers: &HeaderMap) -> Result<Option<Principal>, ApiError> {
    if let Some(authorization) = header_str(headers, header::AUTHORIZATION) {
        let token = authorization
            .strip_prefix("Bearer ")
            .ok_or_else(|| unauthorized("the Authorization header must be 'Bearer TOKEN'"))?;
        let (label, role) = state
            .db
            .token(&secret_hash(token.trim()))
            .await?
            .ok_or_else(|| unauthorized("the bearer token is not valid (revoked or mistyped)"))?;
        return Ok(Some(Principal {
            actor: format!("token:{label}"),
            role,
            by_cookie: false,
        }));
    }
    let Some(secret) = cookie(headers, SESSION_COOKIE) else {
        return Ok(None);
    };
    Ok(state
        .db
        .session(&secret_hash(secret), now())
        .await?
        .map(|(actor, role)| Principal {
            actor,
            role,
            by_cookie: true,
        }))
}

pub fn unauthorized(message: &str) -> ApiError {
    ApiError::Coded(
        StatusCode::UNAUTHORIZED,
        ErrorCode::Unauthorized,
        message.to_owned(),
    )
}

/// Whether the request may go on: credentials for what it needs, the
/// role's right, and, for a change made with the cookie, the app's origin.
fn permit(
    access: Access,
    principal: Option<&Principal>,
    request: &Request,
) -> Result<(), ApiError> {
    let method = request.method().as_str();
    if access != Access::Public {
        let principal = principal.ok_or_else(|| {
            unauthorized("sign in (POST /api/v1/session) or send 'Authorization: Bearer TOKEN'")
        })?;
        if !principal.role.allows(access) {
            return Err(ApiError::Coded(
                StatusCode::FORBIDDEN,
                ErrorCode::Forbidden,
                format!(
                    "{} {} is not allowed for the role {} ({})",
                    method,
                    request.uri().path(),
                    principal.role,
                    principal.actor
                ),
            ));
        }
    }
    if is_safe(method) {
        return Ok(());
    }
    let headers = request.headers();
    let origin = header_str(headers, header::ORIGIN);
    let site = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok());
    let host = request_host(request).unwrap_or_default();
    let cross_site = match principal {
        Some(p) if p.by_cookie => !same_origin(origin, site, &host),
        // Signing in: refused only when the browser says it is elsewhere.
        _ => access == Access::Public && from_elsewhere(origin, site, &host),
    };
    if cross_site {
        return Err(ApiError::Coded(
            StatusCode::FORBIDDEN,
            ErrorCode::CrossSite,
            format!(
                "a change made with the session cookie must come from this app (Origin {})",
                origin.unwrap_or("missing")
            ),
        ));
    }
    Ok(())
}

/// Refuses a change to what a deploying run deploys while it runs
/// (SEMANTICS §15): 409 `deployment_running`, naming the run.
async fn frozen(state: &AppState, method: &str, path: &str) -> Result<(), ApiError> {
    let Some(reach) = mosaic_core::access::reach(method, path) else {
        return Ok(());
    };
    match state.db.deploying_run(reach).await? {
        None => Ok(()),
        Some(run) => Err(ApiError::Coded(
            StatusCode::CONFLICT,
            ErrorCode::DeploymentRunning,
            format!(
                "run {run} is deploying this environment: what it deploys cannot change until it ends \
                 (GET /api/v1/runs/{run}; POST /api/v1/runs/{run}/cancel stops it)"
            ),
        )),
    }
}

/// Guards every API route (see the module doc).
pub async fn authorize(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let access = required(method.as_str(), &path);
    let principal = match identify(&state, request.headers()).await {
        Ok(p) => p,
        Err(e) if access == Access::Public => {
            drop(e);
            None
        }
        Err(e) => return e.into_response(),
    };
    if let Err(e) = permit(access, principal.as_ref(), &request) {
        tracing::info!(
            actor = principal.as_ref().map_or("-", |p| &p.actor),
            "{method} {path} refused"
        );
        return e.into_response();
    }
    if let Err(e) = frozen(&state, method.as_str(), &path).await {
        return e.into_response();
    }
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| path.clone(), |m| m.as_str().to_owned());
    if let Some(p) = &principal {
        request.extensions_mut().insert(p.clone());
    }
    let response = next.run(request).await;
    // Signing in names its user in the answer.
    let actor = principal
        .or_else(|| response.extensions().get::<Principal>().cloned())
        .map_or_else(|| "-".to_owned(), |p| p.actor);
    let status = response.status();
    if status.is_server_error() {
        tracing::warn!(actor = %actor, "{method} {path} {}", status.as_u16());
    } else {
        tracing::info!(target: crate::ACCESS_LOG, actor = %actor, "{method} {path} {}", status.as_u16());
    }
    if audited(method.as_str(), &path) && status.is_success() {
        let record = AuditRecord {
            at: now(),
            actor,
            method: method.to_string(),
            route,
            target: path,
            status: status.as_u16(),
        };
        if let Err(e) = state.db.record_audit(&record).await {
            tracing::error!(
                "cannot record {} {} in the audit log: {e}",
                record.method,
                record.target
            );
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_cookie_is_found_among_others() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            "a=1; mosaic_session=abc; b=2".parse().unwrap(),
        );
        assert_eq!(cookie(&headers, SESSION_COOKIE), Some("abc"));
        assert_eq!(cookie(&headers, "c"), None);
    }
}
