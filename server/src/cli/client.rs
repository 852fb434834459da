//! The command-line client (the Fuel client's place): `mosaic env`, `node`
//! and the server side of `tags` and `plugin`, talking to a running server
//! over HTTP with a token. Tables for people by default, the API's own JSON
//! with `--format json`. Exit 0 done, 1 refused by the server (its message
//! on stderr), 2 a usage or connection error.

use std::time::Duration;

use clap::Args;
use serde_json::Value;

use super::{Format, print_json, print_rows};
use crate::out::out;

/// Where the server is and who asks.
#[derive(Debug, Clone, Args)]
pub struct Remote {
    /// The Mosaic server to talk to.
    #[arg(long, env = "MOSAIC_SERVER", default_value = "http://127.0.0.1:8080")]
    pub server: String,
    /// An API token (`mosaic token create`).
    #[arg(long, env = "MOSAIC_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// Why a request did not succeed: the server refused it (exit 1), or it
/// could not be made or understood (exit 2).
#[derive(Debug)]
pub enum Failure {
    Refused(String),
    /// Refused as not found (404): what was asked for does not exist.
    Missing(String),
    /// Refused, with the consequences the change would have had (the
    /// error body's `consequences` or `upgrade`; a dry run prints them).
    Previewed(String, Box<Value>),
    Broken(String),
}

impl Failure {
    /// Prints the failure and returns its exit code.
    pub fn report(self) -> i32 {
        match self {
            Failure::Refused(message)
            | Failure::Missing(message)
            | Failure::Previewed(message, _) => {
                eprintln!("mosaic: {message}");
                1
            }
            Failure::Broken(message) => {
                eprintln!("mosaic: {message}");
                2
            }
        }
    }
}

/// The largest answer read (an environment file, a plan of many nodes).
const MAX_ANSWER: u64 = 256 << 20;

pub struct Client {
    agent: ureq::Agent,
    /// For streams, which last as long as what they follow.
    streaming: ureq::Agent,
    base: String,
    token: Option<String>,
}

/// A request body: its content type and bytes.
pub struct Body<'a> {
    pub content_type: &'a str,
    pub bytes: Vec<u8>,
}

impl Body<'_> {
    pub fn json(value: &Value) -> Body<'static> {
        Body {
            content_type: "application/json",
            bytes: value.to_string().into_bytes(),
        }
    }
}

impl Client {
    pub fn new(remote: &Remote) -> Client {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(300)))
            .build();
        let streaming = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(Duration::from_secs(30)))
            .build();
        Client {
            agent: config.into(),
            streaming: streaming.into(),
            base: remote.server.trim_end_matches('/').to_owned(),
            token: remote.token.clone().filter(|t| !t.is_empty()),
        }
    }

    fn authorized<B>(&self, builder: ureq::RequestBuilder<B>) -> ureq::RequestBuilder<B> {
        match &self.token {
            Some(token) => builder.header("authorization", format!("Bearer {token}")),
            None => builder,
        }
    }

    /// Sends a request; a 2xx answer's bytes, or the failure.
    pub fn send(
        &self,
        method: &str,
        path: &str,
        body: Option<Body<'_>>,
    ) -> Result<Vec<u8>, Failure> {
        self.send_if(method, path, body, None)
    }

    /// [`Self::send`], made on version `if_match` of what it changes
    /// (`If-Match`: refused, 412, when it moved on).
    fn send_if(
        &self,
        method: &str,
        path: &str,
        body: Option<Body<'_>>,
        if_match: Option<i64>,
    ) -> Result<Vec<u8>, Failure> {
        let url = format!("{}{path}", self.base);
        let tag = if_match.map(|v| format!("\"{v}\""));
        let sent = match (method, body) {
            ("GET", _) => self.authorized(self.agent.get(&url)).call(),
            ("DELETE", None) => self.authorized(self.agent.delete(&url)).call(),
            ("DELETE", Some(b)) => self
                .authorized(self.agent.delete(&url).force_send_body())
                .header("content-type", b.content_type)
                .send(&b.bytes[..]),
            (_, body) => {
                let b = body.unwrap_or(Body {
                    content_type: "application/json",
                    bytes: Vec::new(),
                });
                let mut builder = if method == "PUT" {
                    self.agent.put(&url)
                } else {
                    self.agent.post(&url)
                };
                if let Some(tag) = &tag {
                    builder = builder.header("if-match", tag);
                }
                self.authorized(builder)
                    .header("content-type", b.content_type)
                    .send(&b.bytes[..])
            }
        };
        let response =
            sent.map_err(|e| Failure::Broken(format!("cannot reach {}: {e}", self.base)))?;
        let status = response.status().as_u16();
        let bytes = response
            .into_body()
            .with_config()
            .limit(MAX_ANSWER)
            .read_to_vec()
            .map_err(|e| Failure::Broken(format!("cannot read the answer of {url}: {e}")))?;
        if (200..300).contains(&status) {
            Ok(bytes)
        } else {
            Err(refusal(status, &bytes))
        }
    }

    /// A Server-Sent Events stream at `path`, after event `after`: its
    /// body as it comes.
    pub fn stream(&self, path: &str, after: i64) -> Result<impl std::io::Read + use<>, Failure> {
        let url = format!("{}{path}", self.base);
        let response = self
            .authorized(self.streaming.get(&url))
            .header("accept", "text/event-stream")
            .header("last-event-id", after.to_string())
            .call()
            .map_err(|e| Failure::Broken(format!("cannot reach {}: {e}", self.base)))?;
        let status = response.status().as_u16();
        let body = response.into_body();
        if !(200..300).contains(&status) {
            let bytes = body
                .into_with_config()
                .limit(MAX_ANSWER)
                .read_to_vec()
                .unwrap_or_default();
            return Err(refusal(status, &bytes));
        }
        Ok(body.into_with_config().limit(u64::MAX).reader())
    }

    /// Sends a JSON request and reads the JSON answer (`null` for none).
    pub fn json(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, Failure> {
        self.json_of(method, path, body.map(Body::json))
    }

    /// Sends a JSON change made on version `version` of what it changes
    /// (`If-Match`) and reads the JSON answer.
    pub fn json_at(
        &self,
        method: &str,
        path: &str,
        body: &Value,
        version: i64,
    ) -> Result<Value, Failure> {
        let bytes = self.send_if(method, path, Some(Body::json(body)), Some(version))?;
        serde_json::from_slice(&bytes)
            .map_err(|e| Failure::Broken(format!("the server's answer is not JSON: {e}")))
    }

    /// Sends `body` (any type) and reads the JSON answer (`null` for none).
    pub fn json_of(
        &self,
        method: &str,
        path: &str,
        body: Option<Body<'_>>,
    ) -> Result<Value, Failure> {
        let bytes = self.send(method, path, body)?;
        if bytes.is_empty() {
            return Ok(Value::Null);
        }
        serde_json::from_slice(&bytes)
            .map_err(|e| Failure::Broken(format!("the server's answer is not JSON: {e}")))
    }
}

/// The server's error body as one message: the message, then each
/// violation or problem on its own line.
fn refusal(status: u16, bytes: &[u8]) -> Failure {
    let Ok(body) = serde_json::from_slice::<Value>(bytes) else {
        let text = String::from_utf8_lossy(bytes);
        return Failure::Broken(format!("the server answered {status}: {}", text.trim()));
    };
    let error = &body["error"];
    let mut lines = vec![format!(
        "{} ({status} {})",
        error["message"].as_str().unwrap_or("refused"),
        error["code"].as_str().unwrap_or("error")
    )];
    for item in error["violations"].as_array().into_iter().flatten() {
        lines.push(format!(
            "  {}",
            item["message"].as_str().unwrap_or_default()
        ));
    }
    for item in error["problems"].as_array().into_iter().flatten() {
        let place = match (&item["path"], &item["node"]) {
            (Value::String(path), _) => path.clone(),
            _ if item["file"].is_string() => match item["host"].as_str() {
                Some(host) => format!("{} ({host})", item["file"].as_str().unwrap_or_default()),
                None => item["file"].as_str().unwrap_or_default().to_owned(),
            },
            (_, Value::Number(id)) => match item["name"].as_str() {
                Some(name) => format!("node {id} ({name})"),
                None => format!("node {id}"),
            },
            _ => ["component", "role", "setting"]
                .iter()
                .find_map(|k| item[*k].as_str().map(|v| format!("{k} {v}")))
                .or_else(|| {
                    let ids: Vec<String> = item["networks"]
                        .as_array()?
                        .iter()
                        .map(Value::to_string)
                        .collect();
                    (!ids.is_empty()).then(|| format!("network {}", ids.join(", ")))
                })
                .unwrap_or_default(),
        };
        let message = item["message"]
            .as_str()
            .unwrap_or_default()
            .replace('\n', " ");
        lines.push(match place.is_empty() {
            true => format!("  {message}"),
            false => format!("  {place}: {message}"),
        });
    }
    for d in error["report"]["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let line = d["line"]
            .as_u64()
            .map(|l| format!(":{l}"))
            .unwrap_or_default();
        lines.push(format!(
            "  {}{line}: {}: {}",
            d["file"].as_str().unwrap_or_default(),
            d["severity"].as_str().unwrap_or_default(),
            d["message"].as_str().unwrap_or_default()
        ));
    }
    let message = lines.join("\n");
    match ["consequences", "upgrade"].map(|key| &error[key]) {
        [Value::Null, Value::Null] if status == 404 => Failure::Missing(message),
        [Value::Null, Value::Null] => Failure::Refused(message),
        [Value::Null, preview] | [preview, _] => {
            Failure::Previewed(message, Box::new(preview.clone()))
        }
    }
}

/// A dry run (`?dry_run=true`) of `method path`: what the change would do
/// — the answer, or for a change the server would refuse the consequences
/// in its refusal — printed as JSON or by `show`; a refusal stays one
/// (exit 1, every reason on stderr), as the change itself would be.
pub fn dry_run(
    client: &Client,
    (method, path, body): (&str, &str, Option<&Value>),
    format: Format,
    show: impl Fn(Value) -> Result<String, Failure>,
) -> Result<(), Failure> {
    let (preview, refusal) = match client.json(method, path, body) {
        Ok(answer) => (answer, None),
        Err(Failure::Previewed(message, preview)) => (*preview, Some(Failure::Refused(message))),
        Err(other) => return Err(other),
    };
    if format == Format::Json {
        print_json(&preview);
    } else {
        out!("{}", show(preview)?);
    }
    refusal.map_or(Ok(()), Err)
}

/// Prints `value` as the API returned it (`--format json`), or as a table
/// of `columns`, one row per element (or one row for an object).
pub fn print(format: Format, value: &Value, columns: &[&str]) {
    if format == Format::Json {
        print_json(value);
        return;
    }
    let rows = match value {
        Value::Array(items) => items.clone(),
        other => vec![other.clone()],
    };
    print_rows(Format::Text, &rows, columns);
}

/// After a change with no answer to show: a line for people, nothing for
/// scripts (the exit code says it).
pub fn done(format: Format, line: &str) {
    if format == Format::Text {
        eprintln!("mosaic: {line}");
    }
}

/// Runs `work` with a client for `remote`; its failure is reported.
pub fn with_client(remote: &Remote, work: impl FnOnce(&Client) -> Result<(), Failure>) -> i32 {
    match work(&Client::new(remote)) {
        Ok(()) => 0,
        Err(failure) => failure.report(),
    }
}
