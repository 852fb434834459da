//! Signing in and out (the browser's session cookie), who is signed in,
//! the health check and the audit log.

use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::{ConnectInfo, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use mosaic_core::api::{AuditEntry, ErrorBody, ErrorCode, Health, SessionView, SignIn};
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::access::secret::{new_secret, secret_hash, verify_password};
use crate::access::throttle::Throttled;
use crate::access::{Principal, SESSION_COOKIE, SESSION_SECONDS};
use crate::error::{ApiError, ApiJson};
use crate::timestamp::now;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(show, sign_in, sign_out))
        .routes(routes!(health))
        .routes(routes!(audit))
}

/// A hash to verify against when the user does not exist, so that both
/// failures take the same time.
const NOBODY: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$bm9ib2R5bm9ib2R5$YqSHVPIY3HZ8pQnEw6K0Xp9l7ZbCB4l4bWjS1kY7Kqk";

fn cookie(state: &AppState, value: &str, max_age: i64) -> HeaderValue {
    let secure = if state.security.secure_cookie {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{SESSION_COOKIE}={value}; HttpOnly; SameSite=Strict; Path=/; Max-Age={max_age}{secure}"
    ))
    .expect("a cookie of ASCII")
}

/// Signs in: the session cookie for the app.
///
/// Throttled first (`access::throttle`): once a user name or the
/// client's address has failed too often, the answer is 429 before the
/// user is looked up or the password verified. Requests without the peer's
/// address (a router driven directly) are counted by user name alone.
#[utoipa::path(
    post,
    path = "/api/v1/session",
    operation_id = "sign_in",
    tag = "session",
    request_body = SignIn,
    responses(
        (status = 200, description = "Signed in: who, with the session cookie", body = SessionView,
            headers(("Set-Cookie" = String, description = "`mosaic_session=…; HttpOnly; SameSite=Strict; Path=/; Max-Age=43200`"))),
        (status = 401, description = "`unauthorized`: an unknown user name or a wrong password (the same message, the same time)", body = ErrorBody),
        (status = 429, description = "`too_many_attempts`: the user name or the client address failed too often",
            body = ErrorBody, headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
async fn sign_in(
    State(state): State<AppState>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    ApiJson(request): ApiJson<SignIn>,
) -> Result<Response, ApiError> {
    let address = peer.map(|Extension(ConnectInfo(peer))| peer.ip());
    let throttle = &state.sign_in_throttle;
    let attempt = match throttle.attempt(&request.username, address).await {
        Ok(attempt) => attempt,
        Err(Throttled::Wait(wait)) => return Ok(too_many_attempts(wait)),
        Err(Throttled::Failed(e)) => return Err(e.into()),
    };
    let response = verified_sign_in(&state, request).await?;
    // The user is signed in: counts that cannot be settled now only leave
    // the attempt taken (it comes back with time).
    if let Err(e) = throttle.succeeded(attempt).await {
        tracing::warn!("cannot settle a sign-in's counts: {e}");
    }
    Ok(response)
}

/// 429 `too_many_attempts` with `Retry-After` in whole seconds.
fn too_many_attempts(wait: Duration) -> Response {
    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    let mut response = ApiError::Coded(
        StatusCode::TOO_MANY_REQUESTS,
        ErrorCode::TooManyAttempts,
        format!("too many failed sign-ins; try again in {seconds} s"),
    )
    .into_response();
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    response
}

async fn verified_sign_in(state: &AppState, request: SignIn) -> Result<Response, ApiError> {
    let user = state.db.user_by_name(&request.username).await?;
    let stored = user
        .as_ref()
        .map_or_else(|| NOBODY.to_owned(), |u| u.password_hash.clone());
    let password = request.password;
    // Hashing is CPU work: off the async workers.
    let matches = tokio::task::spawn_blocking(move || verify_password(&password, &stored))
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    let Some(user) = user.filter(|_| matches) else {
        return Err(crate::access::unauthorized(
            "unknown user name or wrong password",
        ));
    };
    let secret = new_secret().map_err(ApiError::Internal)?;
    let at = now();
    state
        .db
        .create_session(&secret_hash(&secret), user.id, at, at + SESSION_SECONDS)
        .await?;
    let mut response = Json(SessionView {
        username: user.username.clone(),
        role: user.role,
    })
    .into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie(state, &secret, SESSION_SECONDS));
    response.extensions_mut().insert(Principal {
        actor: user.username,
        role: user.role,
        by_cookie: true,
    });
    Ok(response)
}

/// Who is signed in (a token answers `token:LABEL`).
#[utoipa::path(
    get,
    path = "/api/v1/session",
    operation_id = "show_session",
    tag = "session",
    responses((status = 200, description = "Whoever asks", body = SessionView))
)]
async fn show(Extension(principal): Extension<Principal>) -> Json<SessionView> {
    Json(SessionView {
        username: principal.actor,
        role: principal.role,
    })
}

/// Signs out: the session is forgotten and the cookie cleared.
#[utoipa::path(
    delete,
    path = "/api/v1/session",
    operation_id = "sign_out",
    tag = "session",
    responses((status = 204, description = "Signed out",
        headers(("Set-Cookie" = String, description = "The cookie, cleared"))))
)]
async fn sign_out(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(secret) = crate::access::session_cookie(&headers) {
        state.db.delete_session(&secret_hash(secret)).await?;
    }
    let mut response = StatusCode::NO_CONTENT.into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie(&state, "", 0));
    Ok(response)
}

/// Whether the server and its database answer (no credentials needed).
#[utoipa::path(
    get,
    path = "/api/v1/health",
    operation_id = "health",
    tag = "session",
    responses((status = 200, description = "The database answers", body = Health))
)]
async fn health(State(state): State<AppState>) -> Result<Json<Health>, ApiError> {
    state.db.ping().await?;
    Ok(Json(Health {
        status: "ok".to_owned(),
    }))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct AuditQuery {
    /// How many entries, newest first: 1 to 10,000 (default 100).
    #[param(minimum = 1, maximum = 10000)]
    limit: Option<i64>,
}

/// The most entries one request returns.
const MAX_AUDIT: i64 = 10_000;

/// The audit log: every successful change, newest first.
#[utoipa::path(
    get,
    path = "/api/v1/audit",
    operation_id = "audit",
    tag = "session",
    params(AuditQuery),
    responses(
        (status = 200, description = "The newest entries", body = Vec<AuditEntry>),
        (status = 400, description = "`bad_request`: a limit outside 1 to 10,000, or not a number", body = ErrorBody),
    )
)]
async fn audit(
    State(state): State<AppState>,
    Query(query): Query<AuditQuery>,
) -> Result<Json<Vec<AuditEntry>>, ApiError> {
    let limit = query.limit.unwrap_or(100);
    if !(1..=MAX_AUDIT).contains(&limit) {
        return Err(ApiError::BadRequest(format!(
            "limit must be between 1 and {MAX_AUDIT} (got {limit})"
        )));
    }
    Ok(Json(state.db.audit(limit).await?))
}

#[cfg(test)]
mod tests {
    use super::NOBODY;

    /// An unknown user costs a real verification: the stand-in hash must
    /// parse, with the parameters real hashes get, or the check would
    /// answer at once and tell names apart.
    #[test]
    fn the_stand_in_hash_costs_what_a_real_one_costs() {
        let nobody = argon2::PasswordHash::new(NOBODY).expect("NOBODY parses");
        let real = crate::access::secret::hash_password("a long enough password").unwrap();
        let real = argon2::PasswordHash::new(&real).unwrap();
        assert_eq!(nobody.algorithm, real.algorithm);
        assert_eq!(nobody.version, real.version);
        assert_eq!(nobody.params, real.params);
        assert!(!crate::access::secret::verify_password("guess", NOBODY));
    }
}
