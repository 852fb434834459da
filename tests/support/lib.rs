//! Harness for the end-to-end tests: starts the real `mosaic serve` on a
//! free loopback port with a fresh SQLite file, starts chromedriver, and
//! hands out a WebDriver session on headless Chromium. Everything started
//! here is stopped when its guard is dropped.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::json;

/// The repository root (this crate lives in `tests/`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// A port nobody listens on right now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("no free loopback port")
}

fn wait_for_port(port: u16, what: &str, child: &mut Child) {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
            return;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("{what} exited with {status} before listening on port {port}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{what} did not listen on port {port} within 20 s");
}

/// The `mosaic` binary the tests run: `MOSAIC_BIN`, by default
/// `target/debug/mosaic`.
pub fn mosaic_bin() -> PathBuf {
    std::env::var_os("MOSAIC_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target/debug/mosaic"))
}

/// A child process killed on drop.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The password of the operator account every server gets.
pub const OPERATOR_PASSWORD: &str = "operator password for tests";

/// A running `mosaic serve` with its own data directory, its first admin
/// (the password it wrote) and an operator account `operator`.
pub struct Server {
    pub url: String,
    pub admin_password: String,
    port: u16,
    bin: PathBuf,
    dist: PathBuf,
    process: Option<Guard>,
    data: tempfile::TempDir,
}

impl Server {
    /// Starts the binary named by `MOSAIC_BIN` (default `target/debug/mosaic`)
    /// serving the app built in `MOSAIC_DIST` (default `dist/`).
    pub fn start() -> Server {
        let root = repo_root();
        let bin = mosaic_bin();
        let dist = std::env::var_os("MOSAIC_DIST")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("dist"));
        assert!(
            bin.is_file(),
            "{} is missing: run `cargo build -p mosaic-server` (make test does)",
            bin.display()
        );
        assert!(
            dist.join("index.html").is_file(),
            "{} has no index.html: build the app with `make app` (make test does)",
            dist.display()
        );
        let port = free_port();
        let mut server = Server {
            url: format!("http://127.0.0.1:{port}"),
            admin_password: String::new(),
            port,
            bin,
            dist,
            process: None,
            data: tempfile::tempdir().expect("temporary data directory"),
        };
        server.restart();
        server.admin_password = server.read_admin_password();
        server.mosaic_with_stdin(
            &["user", "create", "operator", "--role", "operator"],
            OPERATOR_PASSWORD,
        );
        server
    }

    /// The first start's password file: there, and private to its owner.
    fn read_admin_password(&self) -> String {
        let file = self.data.path().join("initial-admin-password");
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&file).unwrap().permissions().mode();
            assert_eq!(
                mode & 0o777,
                0o600,
                "{} is readable by others",
                file.display()
            );
        }
        text.trim().to_owned()
    }

    /// Runs `mosaic ARGS --data-dir DATA` with `input` on stdin; panics
    /// when it fails.
    pub fn mosaic_with_stdin(&self, args: &[&str], input: &str) -> String {
        use std::io::Write;
        let mut child = Command::new(&self.bin)
            .args(args)
            .arg("--data-dir")
            .arg(self.data.path())
            .env_remove("DATABASE_URL")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", self.bin.display()));
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(format!("{input}\n").as_bytes()).unwrap();
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "mosaic {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Stops the server (its data stays), as a crash or a restart would.
    pub fn stop(&mut self) {
        self.process = None;
    }

    /// Starts the server again on the same port and data.
    pub fn restart(&mut self) {
        self.stop();
        let mut child = Command::new(&self.bin)
            .arg("serve")
            .arg(format!("--bind=127.0.0.1:{}", self.port))
            .arg("--data-dir")
            .arg(self.data.path())
            .arg("--dist")
            .arg(&self.dist)
            .env_remove("DATABASE_URL")
            .env("MOSAIC_LOG", "warn")
            .stdout(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", self.bin.display()));
        wait_for_port(self.port, "mosaic serve", &mut child);
        self.process = Some(Guard(child));
    }
}

/// A chromedriver process and a headless Chromium session on it.
pub struct Browser {
    pub client: Client,
    _driver: Guard,
    _profile: tempfile::TempDir,
}

impl Browser {
    pub async fn start() -> Browser {
        let chromedriver =
            std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
        let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
        let port = free_port();
        let mut child = Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start {chromedriver}: {e} (make tools installs it)")
            });
        wait_for_port(port, "chromedriver", &mut child);
        let profile = tempfile::tempdir().expect("temporary browser profile");
        let capabilities = json!({
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--no-first-run", "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--disable-quic", "--window-size=1200,900",
                    format!("--user-data-dir={}", profile.path().display()),
                ]
            }
        });
        let serde_json::Value::Object(capabilities) = capabilities else {
            unreachable!("a JSON object literal")
        };
        // chromedriver accepts connections a moment before it serves
        // sessions; retry until it does, within the same deadline.
        let webdriver = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        let client = loop {
            match ClientBuilder::new(HttpConnector::new())
                .capabilities(capabilities.clone())
                .connect(&webdriver)
                .await
            {
                Ok(client) => break client,
                Err(e) if Instant::now() < deadline => {
                    if let Ok(Some(status)) = child.try_wait() {
                        panic!("chromedriver exited with {status}: {e}");
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => panic!("cannot open a WebDriver session on chromedriver: {e}"),
            }
        };
        Browser {
            client,
            _driver: Guard(child),
            _profile: profile,
        }
    }

    /// Ends the session; the driver process stops when `self` is dropped.
    pub async fn close(self) {
        let _ = self.client.clone().close().await;
    }
}

/// A Chrome DevTools Protocol command, sent through chromedriver's
/// `goog/cdp/execute`: network emulation and the cache switch, which
/// WebDriver itself has no command for.
#[derive(Debug)]
pub struct Cdp {
    pub command: &'static str,
    pub params: serde_json::Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        let session = session_id.unwrap_or_default();
        base_url.join(&format!("session/{session}/goog/cdp/execute"))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        let body = json!({"cmd": self.command, "params": self.params});
        (http::Method::POST, Some(body.to_string()))
    }
}

impl Browser {
    /// Runs a DevTools command in the browser's current page.
    pub async fn cdp(&self, command: &'static str, params: serde_json::Value) {
        self.client
            .issue_cmd(Cdp { command, params })
            .await
            .unwrap_or_else(|e| panic!("{command}: {e}"));
    }
}
