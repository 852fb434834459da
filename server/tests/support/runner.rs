//! Virtual environments for the deployment tests. `stand_in`: no Python at
//! all — its `bin/python` is a shell script that plays a step's driver
//! (it writes the events the test gives and `driver.done` with the exit
//! code it is told), so the API's runs are tested on SQLite and
//! PostgreSQL in milliseconds. `real` and `with_playbooks`: the virtual
//! environment `mosaic deployer install` made (`make deployer-venv`), as
//! it is or with Mosaic's own test playbooks in place of kolla-ansible's.

use std::path::{Path, PathBuf};

/// What the stand-in's step does: how long it takes, its exit code, the
/// job events (one JSON per line) it writes first.
#[derive(Debug, Clone, Default)]
pub struct Behaviour {
    pub seconds: u32,
    pub rc: i32,
    pub events: Vec<String>,
    /// The facts it gathers: (host, the jsonfile fact cache's file), kept
    /// where ansible-runner keeps them.
    pub facts: Vec<(String, String)>,
}

const STAND_IN: &str = r#"#!/bin/sh
# Mosaic's tests' stand-in for a step's driver: `python driver.py STEP_DIR ARGV`.
venv=$(cd "$(dirname "$0")/.." && pwd)
step="$2"
[ -f "$venv/events.jsonl" ] && cat "$venv/events.jsonl" >> "$step/events.jsonl"
if [ -d "$venv/fact_cache" ]; then
  mkdir -p "$step/artifacts/runner"
  cp -r "$venv/fact_cache" "$step/artifacts/runner/fact_cache"
fi
seconds=$(cat "$venv/seconds" 2>/dev/null || echo 0)
[ "$seconds" != 0 ] && sleep "$seconds"
rc=$(cat "$venv/rc" 2>/dev/null || echo 0)
printf '{"rc": %s, "canceled": false}' "$rc" > "$step/driver.done.tmp"
mv "$step/driver.done.tmp" "$step/driver.done"
exit "$rc"
"#;

/// The secret the stand-in's `passwords.yml` holds.
pub const PASSWORD: &str = "St4nd-1n-Passw0rd-Value";

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn executable(path: &Path, text: &str) {
    write(path, text);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A stand-in virtual environment under `dir`.
pub fn stand_in(dir: &Path) -> PathBuf {
    let venv = dir.join("stand-in-venv");
    executable(&venv.join("bin/python"), STAND_IN);
    executable(&venv.join("bin/kolla-genpwd"), "#!/bin/sh\nexit 0\n");
    std::fs::create_dir_all(venv.join("lib/python3/site-packages/ansible_runner")).unwrap();
    let example = format!("database_password: {PASSWORD}\nkeystone_admin_password:\n");
    write(
        &venv.join("share/kolla-ansible/etc_examples/kolla/passwords.yml"),
        &example,
    );
    let playbooks = venv.join("share/kolla-ansible/ansible");
    for (name, plays) in [
        ("site.yml", 3),
        ("kolla-host.yml", 1),
        ("gather-facts.yml", 1),
        ("post-deploy.yml", 1),
    ] {
        write(&playbooks.join(name), &"- hosts: all\n".repeat(plays));
    }
    behave(&venv, &Behaviour::default());
    venv
}

/// Makes the stand-in at `venv` behave as `behaviour` says from its next
/// step on.
pub fn behave(venv: &Path, behaviour: &Behaviour) {
    write(&venv.join("seconds"), &behaviour.seconds.to_string());
    write(&venv.join("rc"), &behaviour.rc.to_string());
    let events: String = behaviour.events.iter().map(|e| format!("{e}\n")).collect();
    write(&venv.join("events.jsonl"), &events);
    let cache = venv.join("fact_cache");
    let _ = std::fs::remove_dir_all(&cache);
    for (host, facts) in &behaviour.facts {
        write(&cache.join(host), facts);
    }
}

/// The virtual environment `mosaic deployer install kolla-ansible` made
/// for the bundled release (`make deployer-venv`), from
/// `MOSAIC_DEPLOYER_VENV`.
pub fn real() -> PathBuf {
    let venv = std::env::var_os("MOSAIC_DEPLOYER_VENV")
        .map(PathBuf::from)
        .expect("MOSAIC_DEPLOYER_VENV names the deployer's virtual environment (make deployer-venv prints it)");
    assert!(
        venv.join("bin/kolla-ansible").is_file(),
        "{} is no kolla-ansible virtual environment",
        venv.display()
    );
    venv
}

/// A virtual environment under `dir` that is the real one with `playbooks`
/// (name, text) in place of kolla-ansible's: its interpreter, packages and
/// tools, but Mosaic's own test playbooks, which change nothing on this
/// machine.
pub fn with_playbooks(dir: &Path, playbooks: &[(&str, &str)]) -> PathBuf {
    let real = real();
    let venv = dir.join("test-venv");
    std::fs::create_dir_all(venv.join("bin")).unwrap();
    std::fs::copy(real.join("pyvenv.cfg"), venv.join("pyvenv.cfg")).unwrap();
    for entry in std::fs::read_dir(real.join("bin")).unwrap() {
        let entry = entry.unwrap();
        std::os::unix::fs::symlink(entry.path(), venv.join("bin").join(entry.file_name())).unwrap();
    }
    std::os::unix::fs::symlink(real.join("lib"), venv.join("lib")).unwrap();
    let share = venv.join("share/kolla-ansible");
    std::fs::create_dir_all(&share).unwrap();
    std::os::unix::fs::symlink(
        real.join("share/kolla-ansible/etc_examples"),
        share.join("etc_examples"),
    )
    .unwrap();
    for (name, text) in playbooks {
        write(&share.join("ansible").join(name), text);
    }
    venv
}
