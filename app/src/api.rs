//! Calls to the server's `/api/v1`. Errors carry the server's message and,
//! for rejected selections, its structured violations.

use gloo_net::http::{Request, Response};
use mosaic_core::api::{Cluster, ComponentView, CreateCluster, ErrorBody, ReleaseSummary};
use mosaic_core::component::Violation;
use serde::de::DeserializeOwned;

#[derive(Debug, Clone, PartialEq)]
pub struct ApiFailure {
    pub message: String,
    pub violations: Vec<Violation>,
}

impl ApiFailure {
    fn plain(message: String) -> ApiFailure {
        ApiFailure {
            message,
            violations: Vec::new(),
        }
    }
}

async fn read<T: DeserializeOwned>(response: Response) -> Result<T, ApiFailure> {
    if response.ok() {
        return response
            .json()
            .await
            .map_err(|e| ApiFailure::plain(format!("unexpected answer from the server: {e}")));
    }
    let status = response.status();
    match response.json::<ErrorBody>().await {
        Ok(body) => Err(ApiFailure {
            message: body.error.message,
            violations: body.error.violations,
        }),
        Err(_) => Err(ApiFailure::plain(format!("the server answered {status}"))),
    }
}

async fn get<T: DeserializeOwned>(url: &str) -> Result<T, ApiFailure> {
    let response = Request::get(url)
        .send()
        .await
        .map_err(|e| ApiFailure::plain(format!("cannot reach the server: {e}")))?;
    read(response).await
}

pub async fn releases() -> Result<Vec<ReleaseSummary>, ApiFailure> {
    get("/api/v1/releases").await
}

pub async fn components(release_id: i64) -> Result<Vec<ComponentView>, ApiFailure> {
    get(&format!("/api/v1/releases/{release_id}/components")).await
}

pub async fn create_cluster(request: &CreateCluster) -> Result<Cluster, ApiFailure> {
    let response = Request::post("/api/v1/clusters")
        .json(request)
        .map_err(|e| ApiFailure::plain(e.to_string()))?
        .send()
        .await
        .map_err(|e| ApiFailure::plain(format!("cannot reach the server: {e}")))?;
    read(response).await
}
