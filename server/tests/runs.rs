//! Deployments run by real ansible-runner and kolla-ansible (SEMANTICS §15,
//! docs/deployers.md "Running a deployment"), against real `mosaic serve`
//! processes: the command line of every action as kolla-ansible's own
//! script writes it, kolla's syntax check of the exported bundles, kolla's
//! own gather-facts over a local connection, Mosaic's test playbooks giving
//! hosts every outcome, a cancel that leaves nothing running, a server
//! killed mid-run and started again, a runner lost while it was down, and
//! the stream read by a reader that joins, drops and resumes.
//!
//! Only plays that change nothing run on this machine (facts, checks,
//! `sleep`, `debug`). They need the deployer's virtual environment: `make
//! runs` makes it and runs them (`cargo test` leaves them out).

mod support;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use mosaic_core::run::action::kolla_invocation;
use mosaic_core::run::{Action, Connection, Paths, command_line};
use serde_json::{Value, json};
use support::runner::{real, with_playbooks};
use support::serve::{Server, start_with};

const NEEDS: &str = "needs the deployer's virtual environment: make runs";

fn server(venv: &Path) -> Server {
    start_with(&["--deployer-venv", venv.to_str().unwrap()], Some("info"))
}

/// An environment of the bundled release with `nodes` (name, role), their
/// ports declared: its id.
fn environment(server: &Server, nodes: &[(&str, &str)]) -> i64 {
    let release = server.api("/api/v1/releases")[0]["id"].clone();
    let body = json!({"name": "lab", "release_id": release, "components": [
        "hypervisor:libvirt:kvm", "network:neutron:core:ml2", "network:neutron:ml2:vlan",
        "network:neutron:ml2:ovs", "storage:block:backend:lvm"]});
    let env = server.expect("POST", "/api/v1/clusters", Some(&body))["id"]
        .as_i64()
        .unwrap();
    let interfaces = json!({"interfaces": [
        {"name": "eth0", "networks": ["fuelweb_admin"]},
        {"name": "eth1", "networks": ["public", "management", "storage"]},
        {"name": "eth2", "networks": ["private"]}]});
    for (name, role) in nodes {
        let body = json!({"name": name, "roles": [role], "interfaces": interfaces});
        server.expect(
            "POST",
            &format!("/api/v1/clusters/{env}/nodes"),
            Some(&body),
        );
    }
    env
}

fn start(server: &Server, env: i64, body: Value) -> i64 {
    let path = format!("/api/v1/clusters/{env}/deployers/kolla-ansible/runs");
    let (status, run) = server.call("POST", &path, Some(&body));
    assert_eq!(status, 202, "{run}");
    run["id"].as_i64().unwrap()
}

/// Run `id` once it ended (within `limit`).
fn ended(server: &Server, id: i64, limit: Duration) -> Value {
    let deadline = Instant::now() + limit;
    loop {
        let run = server.api(&format!("/api/v1/runs/{id}"));
        let status = run["status"].as_str().unwrap_or_default();
        if ["successful", "failed", "canceled", "error"].contains(&status) {
            return run;
        }
        assert!(
            Instant::now() < deadline,
            "run {id} did not end in {limit:?}: {run:#}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Waits until run `id` has an event `event` (for task `task`, if named).
fn wait_for_event(server: &Server, id: i64, event: &str, task: Option<&str>) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let events = server.api(&format!("/api/v1/runs/{id}/events?limit=10000"));
        let found = events
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["event"] == event && task.is_none_or(|t| e["task"] == t));
        if found {
            return;
        }
        assert!(Instant::now() < deadline, "no {event} in run {id}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn seqs(server: &Server, id: i64) -> Vec<i64> {
    server
        .api(&format!("/api/v1/runs/{id}/events?limit=10000"))
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_i64().unwrap())
        .collect()
}

/// A directory of `bin/ansible-playbook` that writes its arguments, a line
/// each, to `$MOSAIC_RECORD`.
fn recorder(dir: &Path) -> PathBuf {
    let bin = dir.join("recorder");
    std::fs::create_dir_all(&bin).unwrap();
    let script = bin.join("ansible-playbook");
    std::fs::write(
        &script,
        "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$MOSAIC_RECORD\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

/// The `ansible-playbook` arguments kolla-ansible's own script runs for
/// `invocation` (`kolla-ansible …`), read by the recorder.
fn kolla_runs(venv: &Path, recorder: &Path, invocation: &[String]) -> Vec<String> {
    let record = recorder.join("record");
    let _ = std::fs::remove_file(&record);
    let path = format!(
        "{}:{}:/usr/bin:/bin",
        recorder.display(),
        venv.join("bin").display()
    );
    let out = Command::new(venv.join("bin/kolla-ansible"))
        .args(&invocation[1..])
        .env_clear()
        .env("PATH", path)
        .env("VIRTUAL_ENV", venv)
        .env("HOME", std::env::var_os("HOME").unwrap_or_default())
        .env("MOSAIC_RECORD", &record)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{invocation:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(&record)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
#[ignore = "needs the deployer's virtual environment: make runs"]
fn kolla_ansibles_own_script_runs_the_command_line_mosaic_runs_for_every_action() {
    let _ = NEEDS;
    let venv = real();
    let dir = tempfile::tempdir().unwrap();
    let recorder = recorder(dir.path());
    let config = dir.path().join("runs/7/files");
    let paths = Paths {
        playbooks: venv
            .join("share/kolla-ansible/ansible")
            .display()
            .to_string(),
        config_dir: config.display().to_string(),
        passwords: dir
            .path()
            .join("environments/3/kolla-ansible/passwords.yml")
            .display()
            .to_string(),
        inventory: config.join("inventory").display().to_string(),
    };
    let limit = ["ctl-1".to_owned(), "cmp-2".to_owned()];
    let cases = Action::ALL.iter().flat_map(|a| {
        [
            (*a, &limit[..0], Connection::Ssh),
            (*a, &limit[..], Connection::Local),
        ]
    });
    for (action, limit, connection) in cases {
        let ours = command_line(action, &paths, limit, connection);
        let theirs = kolla_runs(
            &venv,
            &recorder,
            &kolla_invocation(action, &paths, limit, connection),
        );
        assert_eq!(ours[0], "ansible-playbook");
        assert_eq!(ours[1..], theirs[..], "{action} {limit:?} {connection:?}");
    }
}

/// kolla-ansible's `passwords.yml` filled by its `kolla-genpwd` under `dir`.
fn passwords(venv: &Path, dir: &Path) -> PathBuf {
    let file = dir.join("passwords.yml");
    std::fs::copy(
        venv.join("share/kolla-ansible/etc_examples/kolla/passwords.yml"),
        &file,
    )
    .unwrap();
    let out = Command::new(venv.join("bin/kolla-genpwd"))
        .arg("-p")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    file
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
#[ignore = "needs the deployer's virtual environment: make runs"]
fn kollas_syntax_check_takes_every_exported_bundle_with_mosaics_command_line() {
    let venv = real();
    let dir = tempfile::tempdir().unwrap();
    let passwords = passwords(&venv, dir.path());
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kolla");
    for case in [
        "vlan-lvm-ceilometer",
        "tun-ceph-ironic",
        "own-rabbitmq-role",
    ] {
        let config = dir.path().join(case);
        copy_tree(&fixtures.join(case), &config);
        let paths = Paths {
            playbooks: venv
                .join("share/kolla-ansible/ansible")
                .display()
                .to_string(),
            config_dir: config.display().to_string(),
            passwords: passwords.display().to_string(),
            inventory: config.join("inventory").display().to_string(),
        };
        let argv = command_line(Action::Deploy, &paths, &[], Connection::Ssh);
        let out = Command::new(venv.join("bin/ansible-playbook"))
            .args(&argv[1..])
            .arg("--syntax-check")
            .env(
                "PATH",
                format!("{}:/usr/bin:/bin", venv.join("bin").display()),
            )
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{case}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
#[ignore = "needs the deployer's virtual environment: make runs"]
fn kollas_gather_facts_runs_on_an_exported_environment_over_a_local_connection() {
    let venv = real();
    let server = server(&venv);
    environment(
        &server,
        &[
            ("ctl-1", "controller"),
            ("cmp-1", "compute"),
            ("cinder-1", "cinder"),
        ],
    );
    let (code, out, err) = server.run(&[
        "env",
        "deploy",
        "lab",
        "--action",
        "gather-facts",
        "--connection",
        "local",
        "--follow",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("== step 1/1: gather-facts") && out.contains("run 1 successful"),
        "{out}"
    );
    let run = server.api("/api/v1/runs/1");
    assert_eq!(run["status"], "successful");
    let nodes = server.api("/api/v1/clusters/1/nodes");
    let history = server.api("/api/v1/runs/1/history?tasks=Gather%20facts");
    let mut facts: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for row in history.as_array().unwrap() {
        facts
            .entry(row["host"].as_str().unwrap().to_owned())
            .or_default()
            .push(row["status"].as_str().unwrap().to_owned());
    }
    for node in nodes.as_array().unwrap() {
        assert_eq!(facts[node["name"].as_str().unwrap()], ["ok"], "{facts:?}");
        assert_eq!(
            node["status"], "discover",
            "gathering facts deploys nothing"
        );
        // ansible-runner kept each host's facts where Mosaic reads them
        // (deploy/found.rs); the three hosts are this one machine, whose
        // MACs cannot be three nodes', so none of it was imported.
        let cached = server
            .dir
            .path()
            .join("runs/1/steps/0-gather-facts/artifacts/runner/fact_cache")
            .join(node["name"].as_str().unwrap());
        assert!(cached.is_file(), "{}", cached.display());
        assert!(node.get("hardware").is_none(), "{node:#}");
    }
    // The step ran what kolla-ansible's script runs for the same files.
    let argv: Vec<String> = serde_json::from_value(run["steps"][0]["argv"].clone()).unwrap();
    let after = |flag: &str| {
        argv.iter()
            .skip_while(|a| *a != flag)
            .nth(1)
            .unwrap()
            .clone()
    };
    let config_dir = argv
        .iter()
        .find_map(|a| a.strip_prefix("CONFIG_DIR="))
        .unwrap()
        .to_owned();
    let paths = Paths {
        playbooks: Path::new(
            argv.iter()
                .find(|a| a.ends_with("gather-facts.yml"))
                .unwrap(),
        )
        .parent()
        .unwrap()
        .display()
        .to_string(),
        config_dir,
        passwords: argv
            .iter()
            .filter_map(|a| a.strip_prefix('@'))
            .nth(1)
            .unwrap()
            .to_owned(),
        inventory: after("--inventory"),
    };
    let recorder = recorder(server.dir.path());
    let theirs = kolla_runs(
        &venv,
        &recorder,
        &kolla_invocation(Action::GatherFacts, &paths, &[], Connection::Local),
    );
    assert_eq!(argv[1..], theirs[..]);
    no_password_leaves(&server);
}

/// kolla-genpwd's passwords of environment 1 stay in the data directory:
/// in no answer of run 1, stored event, kept output, line of the server's
/// log or byte of its database.
fn no_password_leaves(server: &Server) {
    let passwords = server
        .dir
        .path()
        .join("environments/1/kolla-ansible/passwords.yml");
    let text = std::fs::read_to_string(&passwords).unwrap();
    let secrets: Vec<String> = mosaic_core::run::secret::password_values(&text)
        .unwrap()
        .into_iter()
        .filter(|s| s.len() >= 8)
        .collect();
    assert!(secrets.len() > 50, "kolla-genpwd filled passwords.yml");
    let mut said = String::new();
    for path in [
        "/api/v1/runs/1",
        "/api/v1/runs/1/events?limit=10000",
        "/api/v1/runs/1/history",
        "/api/v1/runs/1/hosts",
        "/api/v1/clusters/1/deployers/kolla-ansible",
    ] {
        said.push_str(&server.api(path).to_string());
    }
    let kept = |file: &str| std::fs::read_to_string(server.dir.path().join(file)).unwrap();
    said.push_str(&kept("runs/1/stdout"));
    said.push_str(&kept("log.txt"));
    // The database and its write-ahead log, which holds the newest pages.
    let mut database = std::fs::read(server.dir.path().join("mosaic.db")).unwrap();
    database.extend(std::fs::read(server.dir.path().join("mosaic.db-wal")).unwrap_or_default());
    for secret in &secrets {
        assert!(
            !said.contains(secret.as_str()),
            "a password in an answer, the output or the log"
        );
        let stored = database
            .windows(secret.len())
            .any(|w| w == secret.as_bytes());
        assert!(!stored, "a password in the database");
    }
}

/// Mosaic's playbook that gives each host of the environment below one
/// outcome (ansible-runner's `host_status` fixture, made again).
const OUTCOMES: &str = r#"
- name: Outcomes on this machine
  hosts: ok-host:changed-host:ignored-host:rescued-host:failed-host
  connection: local
  gather_facts: false
  tasks:
    - name: Every host is ok here
      ansible.builtin.debug:
        msg: ok
    - name: Changed
      ansible.builtin.command: "true"
      when: inventory_hostname == 'changed-host'
    - name: Ignored failure
      ansible.builtin.fail:
        msg: ignored
      ignore_errors: true
      when: inventory_hostname == 'ignored-host'
    - name: Rescued
      when: inventory_hostname == 'rescued-host'
      block:
        - name: Fails inside a block
          ansible.builtin.fail:
            msg: to be rescued
      rescue:
        - name: The rescue
          ansible.builtin.debug:
            msg: rescued
    - name: Failed
      ansible.builtin.fail:
        msg: this host fails
      when: inventory_hostname == 'failed-host'
- name: A host nobody answers for
  hosts: unreachable-host
  gather_facts: false
  vars:
    ansible_connection: ssh
    ansible_host: 127.0.0.1
    ansible_port: 1
  tasks:
    - name: Unreachable
      ansible.builtin.ping:
"#;

#[test]
#[ignore = "needs the deployer's virtual environment: make runs"]
fn hosts_get_every_outcome_and_the_history_and_summary_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let venv = with_playbooks(dir.path(), &[("site.yml", OUTCOMES)]);
    let server = server(&venv);
    let hosts = [
        "ok-host",
        "changed-host",
        "ignored-host",
        "rescued-host",
        "unreachable-host",
        "failed-host",
    ];
    let env = environment(
        &server,
        &hosts.map(|h| {
            (
                h,
                if h == "ok-host" {
                    "controller"
                } else {
                    "compute"
                },
            )
        }),
    );
    let id = start(&server, env, json!({"actions": ["deploy"]}));
    let run = ended(&server, id, Duration::from_secs(120));
    assert_eq!(run["status"], "failed", "{run:#}");
    assert_eq!(
        run["steps"][0]["rc"], 4,
        "Ansible's exit code for unreachable hosts"
    );
    let message = run["message"].as_str().unwrap();
    assert!(
        message.contains("failed-host") && message.contains("unreachable-host"),
        "{message}"
    );

    let history = server.api(&format!("/api/v1/runs/{id}/history"));
    let of = |host: &str, task: &str| -> String {
        history
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["host"] == host && r["task_name"] == task)
            .map(|r| r["status"].as_str().unwrap().to_owned())
            .unwrap_or_default()
    };
    assert_eq!(of("ok-host", "Every host is ok here"), "ok");
    assert_eq!(of("changed-host", "Changed"), "changed");
    assert_eq!(of("ok-host", "Changed"), "skipped");
    assert_eq!(of("ignored-host", "Ignored failure"), "ignored");
    assert_eq!(of("rescued-host", "Fails inside a block"), "rescued");
    assert_eq!(of("failed-host", "Failed"), "failed");
    assert_eq!(of("unreachable-host", "Unreachable"), "unreachable");

    // The summary is Ansible's own stats.
    let events = server.api(&format!("/api/v1/runs/{id}/events?limit=10000"));
    let stats = events
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["event"] == "playbook_on_stats")
        .unwrap()["data"]
        .clone();
    let summary = server.api(&format!("/api/v1/runs/{id}/hosts"));
    for host in hosts {
        let row = summary
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["host"] == host)
            .unwrap();
        for (ours, theirs) in [
            ("ok", "ok"),
            ("changed", "changed"),
            ("failures", "failures"),
            ("unreachable", "dark"),
            ("skipped", "skipped"),
            ("ignored", "ignored"),
            ("rescued", "rescued"),
        ] {
            let expected = stats[theirs][host].as_u64().unwrap_or(0);
            assert_eq!(
                row[ours].as_u64().unwrap(),
                expected,
                "{host} {ours}: {row}"
            );
        }
    }
    // Every step ran: the hosts that failed are in error, the others ready.
    for node in server
        .api(&format!("/api/v1/clusters/{env}/nodes"))
        .as_array()
        .unwrap()
    {
        let bad = ["failed-host", "unreachable-host"].contains(&node["name"].as_str().unwrap());
        assert_eq!(
            node["status"],
            if bad { "error" } else { "ready" },
            "{node}"
        );
    }
    assert_eq!(
        server.api(&format!("/api/v1/clusters/{env}"))["status"],
        "error"
    );
}

/// A server with Mosaic's `playbook` as kolla's `site.yml`, an
/// environment of `nodes`, and a run of `deploy` started on it.
struct Deploying {
    _dir: tempfile::TempDir,
    server: Server,
    env: i64,
    id: i64,
}

fn deploying(playbook: &str, nodes: &[(&str, &str)]) -> Deploying {
    let dir = tempfile::tempdir().unwrap();
    let venv = with_playbooks(dir.path(), &[("site.yml", playbook)]);
    let server = server(&venv);
    let env = environment(&server, nodes);
    let id = start(&server, env, json!({"actions": ["deploy"]}));
    Deploying {
        _dir: dir,
        server,
        env,
        id,
    }
}

const SLEEP: &str = r#"
- name: A long task
  hosts: baremetal
  connection: local
  gather_facts: false
  tasks:
    - name: Sleep
      ansible.builtin.command: sleep 300
"#;

#[test]
#[ignore = "needs the deployer's virtual environment: make runs"]
fn a_canceled_run_stops_within_seconds_and_leaves_nothing_running() {
    let Deploying {
        _dir, server, id, ..
    } = deploying(SLEEP, &[("ctl-1", "controller"), ("cmp-1", "compute")]);
    wait_for_event(&server, id, "runner_on_start", Some("Sleep"));
    let marker = mosaic_server::deploy::run_marker(id, server.dir.path());
    assert!(
        !mosaic_server::deploy::processes_of(&marker).is_empty(),
        "the run's processes are found"
    );
    let asked = Instant::now();
    let (status, _) = server.call("POST", &format!("/api/v1/runs/{id}/cancel"), None);
    assert_eq!(status, 202);
    let run = ended(&server, id, Duration::from_secs(10));
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "{:?}",
        asked.elapsed()
    );
    assert_eq!(run["status"], "canceled");
    assert_eq!(
        mosaic_server::deploy::processes_of(&marker),
        Vec::<i64>::new(),
        "nothing of the run is left"
    );
    let (code, out, _) = server.run(&["run", "show", &id.to_string()]);
    assert_eq!(code, 0);
    assert!(out.contains("canceled"), "{out}");
}

const SLOW: &str = r#"
- name: Slow and steady
  hosts: baremetal
  connection: local
  gather_facts: false
  tasks:
    - {name: One, ansible.builtin.command: sleep 1}
    - {name: Two, ansible.builtin.command: sleep 1}
    - {name: Three, ansible.builtin.command: sleep 1}
    - {name: Four, ansible.builtin.command: sleep 1}
    - {name: Five, ansible.builtin.command: sleep 1}
    - {name: Six, ansible.builtin.command: sleep 1}
"#;

#[test]
#[ignore = "needs the deployer's virtual environment: make runs"]
fn a_server_killed_mid_run_takes_it_up_again_when_it_starts() {
    let Deploying {
        _dir,
        mut server,
        env,
        id,
    } = deploying(SLOW, &[("ctl-1", "controller"), ("cmp-1", "compute")]);
    wait_for_event(&server, id, "runner_on_ok", Some("One"));
    server.kill();
    std::thread::sleep(Duration::from_secs(2));
    server.restart();
    let run = ended(&server, id, Duration::from_secs(90));
    assert_eq!(run["status"], "successful", "{run:#}");
    let seqs = seqs(&server, id);
    assert_eq!(
        seqs,
        (1..=seqs.len() as i64).collect::<Vec<_>>(),
        "no event lost or stored twice"
    );
    let history = server.api(&format!("/api/v1/runs/{id}/history"));
    assert_eq!(
        history.as_array().unwrap().len(),
        6 * 2,
        "each task on each host once"
    );
    let statuses: Vec<Value> = server
        .api(&format!("/api/v1/clusters/{env}/nodes"))
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["status"].clone())
        .collect();
    assert_eq!(statuses, [json!("ready"), json!("ready")]);
}

#[test]
#[ignore = "needs the deployer's virtual environment: make runs"]
fn a_runner_lost_while_the_server_was_down_ends_its_run_in_error() {
    let Deploying {
        _dir,
        mut server,
        env,
        id,
    } = deploying(SLEEP, &[("ctl-1", "controller")]);
    wait_for_event(&server, id, "runner_on_start", Some("Sleep"));
    server.kill();
    let marker = mosaic_server::deploy::run_marker(id, server.dir.path());
    for pid in mosaic_server::deploy::processes_of(&marker) {
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    }
    server.restart();
    let run = ended(&server, id, Duration::from_secs(60));
    assert_eq!(run["status"], "error", "{run:#}");
    assert!(
        run["message"].as_str().unwrap().starts_with("runner lost"),
        "{run:#}"
    );
    let node = &server.api(&format!("/api/v1/clusters/{env}/nodes"))[0];
    assert_eq!(
        (node["status"].as_str(), node["error_type"].as_str()),
        (Some("error"), Some("deploy"))
    );
}

const STEADY: &str = r#"
- name: Many small tasks
  hosts: baremetal
  connection: local
  gather_facts: false
  tasks:
    - {name: A, ansible.builtin.command: sleep 0.3}
    - {name: B, ansible.builtin.command: sleep 0.3}
    - {name: C, ansible.builtin.command: sleep 0.3}
    - {name: D, ansible.builtin.command: sleep 0.3}
    - {name: E, ansible.builtin.command: sleep 0.3}
    - {name: F, ansible.builtin.command: sleep 0.3}
    - {name: G, ansible.builtin.command: sleep 0.3}
    - {name: H, ansible.builtin.command: sleep 0.3}
"#;

/// Reads run `id`'s stream from after `after`, `count` events at most (or
/// to its end): their sequences, and whether the end came.
fn read_some(server: &Server, id: i64, after: i64, count: usize) -> (Vec<i64>, bool) {
    let url = format!("{}/api/v1/runs/{id}/stream", server.url);
    let response = ureq::get(&url)
        .header("authorization", &format!("Bearer {}", server.token))
        .header("last-event-id", &after.to_string())
        .call()
        .unwrap();
    let reader = BufReader::new(
        response
            .into_body()
            .into_with_config()
            .limit(u64::MAX)
            .reader(),
    );
    let mut seqs = Vec::new();
    let mut event_end = false;
    for line in reader.lines() {
        let line = line.unwrap();
        if line == "event: end" {
            event_end = true;
        }
        if let Some(seq) = line.strip_prefix("id: ") {
            seqs.push(seq.parse().unwrap());
            if seqs.len() == count {
                return (seqs, false);
            }
        }
        if event_end && line.is_empty() {
            return (seqs, true);
        }
    }
    (seqs, event_end)
}

#[test]
#[ignore = "needs the deployer's virtual environment: make runs"]
fn a_reader_joining_dropping_and_resuming_sees_every_event_once_and_a_stalled_one_slows_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let venv = with_playbooks(dir.path(), &[("site.yml", STEADY)]);
    let server = server(&venv);
    let env = environment(
        &server,
        &[
            ("ctl-1", "controller"),
            ("cmp-1", "compute"),
            ("cmp-2", "compute"),
        ],
    );
    // A reader that never reads: its socket fills, nothing else waits.
    let mut stalled =
        std::net::TcpStream::connect(server.url.trim_start_matches("http://")).unwrap();
    let id = start(&server, env, json!({"actions": ["deploy"]}));
    write!(
        stalled,
        "GET /api/v1/runs/{id}/stream HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\n\r\n",
        server.url.trim_start_matches("http://"),
        server.token
    )
    .unwrap();
    wait_for_event(&server, id, "runner_on_ok", Some("B"));
    let mut seen = Vec::new();
    let (first, _) = read_some(&server, id, 0, 10);
    seen.extend(&first);
    let mut ended_run = false;
    while !ended_run {
        let (more, end) = read_some(&server, id, *seen.last().unwrap(), 7);
        seen.extend(more);
        ended_run = end;
    }
    let run = ended(&server, id, Duration::from_secs(5));
    assert_eq!(run["status"], "successful");
    assert_eq!(seen, seqs(&server, id), "every event once, in order");
    drop(stalled);
}
