//! A real `mosaic serve` for the tests that drive the binary: a free port,
//! a fresh SQLite database, an admin token; the command line run against
//! it, and its API called over HTTP.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

pub const MOSAIC: &str = env!("CARGO_BIN_EXE_mosaic");

/// A server on a free port with a fresh SQLite database, and an admin token.
pub struct Server {
    child: Child,
    pub url: String,
    pub token: String,
    pub dir: tempfile::TempDir,
    flags: Vec<String>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn start() -> Server {
    start_with(&[], Some("warn"))
}

/// A server started with `flags` and log filter `log` (`None`: the
/// default one), its log written to `log.txt` in its data directory.
pub fn start_with(flags: &[&str], log: Option<&str>) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap().to_owned();
    let (child, url) = launch(&data, flags, log);
    let out = Command::new(MOSAIC)
        .args(["token", "create", "--role", "admin", "--data-dir", &data])
        .output()
        .unwrap();
    let token = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    Server {
        child,
        url,
        token,
        dir,
        flags: flags.iter().map(|f| (*f).to_owned()).collect(),
    }
}

/// `mosaic serve` on data directory `data`: the process and its URL.
fn launch(data: &str, flags: &[&str], log: Option<&str>) -> (Child, String) {
    let mut command = Command::new(MOSAIC);
    command
        .args(["serve", "--bind", "127.0.0.1:0", "--data-dir", data])
        .args(["--dist", &format!("{data}/no-app")])
        .args(flags)
        .env_remove("MOSAIC_LOG")
        .env_remove("RUST_LOG")
        .env_remove("MOSAIC_ACCESS_LOG");
    if let Some(log) = log {
        command.env("MOSAIC_LOG", log);
    }
    let log_file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(std::path::Path::new(data).join("log.txt"))
        .unwrap();
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(log_file)
        .spawn()
        .unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let url = stdout
        .lines()
        .map(Result::unwrap)
        .find_map(|l| l.strip_prefix("mosaic: listening on ").map(str::to_owned))
        .expect("the server starts");
    (child, url)
}

impl Server {
    /// Kills the server at once (SIGKILL: nothing of it runs on).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Starts the server again on its data directory (a new port), with
    /// the flags it was started with.
    pub fn restart(&mut self) {
        let flags: Vec<&str> = self.flags.iter().map(String::as_str).collect();
        let (child, url) = launch(self.dir.path().to_str().unwrap(), &flags, Some("info"));
        self.child = child;
        self.url = url;
    }

    /// Runs `mosaic ARGS` against the server: (exit code, stdout, stderr).
    pub fn run(&self, args: &[&str]) -> (i32, String, String) {
        let out = Command::new(MOSAIC)
            .args(args)
            .env("MOSAIC_SERVER", &self.url)
            .env("MOSAIC_TOKEN", &self.token)
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// `mosaic ARGS --format json`, which must succeed.
    pub fn json(&self, args: &[&str]) -> Value {
        let mut all = args.to_vec();
        all.extend(["--format", "json"]);
        let (code, out, err) = self.run(&all);
        assert_eq!(code, 0, "mosaic {args:?}: {err}");
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
    }

    /// The API's own answer to `GET path`.
    pub fn api(&self, path: &str) -> Value {
        self.expect("GET", path, None)
    }

    /// `METHOD path` with a JSON body: the status and the answer (`null`
    /// when it is not JSON).
    pub fn call(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        let url = format!("{}{path}", self.url);
        let bearer = format!("Bearer {}", self.token);
        let text = body.map(Value::to_string).unwrap_or_default();
        let sent = match method {
            "GET" => agent.get(&url).header("authorization", &bearer).call(),
            "DELETE" => agent
                .delete(&url)
                .force_send_body()
                .header("authorization", &bearer)
                .header("content-type", "application/json")
                .send(text.as_bytes()),
            _ => {
                let builder = match method {
                    "POST" => agent.post(&url),
                    "PUT" => agent.put(&url),
                    "PATCH" => agent.patch(&url),
                    other => panic!("no such method in these tests: {other}"),
                };
                builder
                    .header("authorization", &bearer)
                    .header("content-type", "application/json")
                    .send(text.as_bytes())
            }
        };
        let mut response = sent.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = response.status().as_u16();
        let answer = response.body_mut().read_to_string().unwrap();
        (status, serde_json::from_str(&answer).unwrap_or(Value::Null))
    }

    /// `METHOD path`, which must succeed: its answer.
    pub fn expect(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let (status, answer) = self.call(method, path, body);
        assert!(
            (200..300).contains(&status),
            "{method} {path} {body:?}: {status} {answer:#}"
        );
        answer
    }
}
