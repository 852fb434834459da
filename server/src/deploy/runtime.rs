//! Where a deployer runs from: the virtual environment its release's
//! `runtime` pins (kolla-ansible, ansible-core, ansible-runner and PyPI's
//! `ansible` with the collections kolla-ansible needs), made by `mosaic
//! deployer install` under the data directory and found there by `mosaic
//! serve` (or named with `--deployer-venv`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, bail};
use mosaic_core::deployer::Runtime;
use sha2::{Digest, Sha256};

/// A deployer's virtual environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Venv {
    pub dir: PathBuf,
}

/// The file written last into a virtual environment made whole.
const COMPLETE: &str = ".mosaic-complete";

impl Venv {
    pub fn python(&self) -> PathBuf {
        self.dir.join("bin/python")
    }

    pub fn bin(&self) -> PathBuf {
        self.dir.join("bin")
    }

    /// kolla-ansible's `ansible/` directory (its playbooks).
    pub fn playbooks(&self) -> PathBuf {
        self.dir.join("share/kolla-ansible/ansible")
    }

    pub fn genpwd(&self) -> PathBuf {
        self.dir.join("bin/kolla-genpwd")
    }

    /// kolla-ansible's example `passwords.yml` (every key, no value).
    pub fn example_passwords(&self) -> PathBuf {
        self.dir
            .join("share/kolla-ansible/etc_examples/kolla/passwords.yml")
    }

    /// Why it cannot run a deployment, if it cannot.
    pub fn problem(&self) -> Option<String> {
        let needed = [
            self.python(),
            self.playbooks().join("site.yml"),
            self.genpwd(),
        ];
        let missing: Vec<String> = needed
            .iter()
            .filter(|p| !p.exists())
            .map(|p| p.display().to_string())
            .collect();
        if !missing.is_empty() {
            return Some(format!(
                "{} has no {}",
                self.dir.display(),
                missing.join(", ")
            ));
        }
        let runner = std::fs::read_dir(self.dir.join("lib"))
            .ok()
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .any(|d| d.path().join("site-packages/ansible_runner").is_dir());
        (!runner).then(|| format!("{} has no ansible-runner", self.dir.display()))
    }
}

/// The directory `runtime`'s virtual environment has under `data_dir`:
/// named by the deployer and a digest of its pins, so that other pins make
/// another.
pub fn venv_dir(data_dir: &Path, deployer: &str, runtime: &Runtime) -> PathBuf {
    let digest = Sha256::digest(runtime.requirements.join("\n").as_bytes());
    let key = hex::encode(&digest[..6]);
    let series = runtime.pinned(deployer).unwrap_or("unpinned");
    data_dir
        .join("deployers")
        .join(deployer)
        .join(format!("{deployer}-{series}-{key}"))
}

/// The virtual environment a run of `deployer` uses: the one named with
/// `--deployer-venv`, else the one `mosaic deployer install` made for
/// `runtime`. Why not, when there is none that works.
pub fn find(
    given: Option<&Path>,
    data_dir: &Path,
    deployer: &str,
    runtime: Option<&Runtime>,
) -> Result<Venv, String> {
    if let Some(dir) = given {
        let venv = Venv {
            dir: dir.to_path_buf(),
        };
        return match venv.problem() {
            None => Ok(venv),
            Some(problem) => Err(format!("--deployer-venv: {problem}")),
        };
    }
    let Some(runtime) = runtime else {
        return Err(format!(
            "the release pins no runtime for {deployer}: start `mosaic serve` with --deployer-venv DIR"
        ));
    };
    let dir = venv_dir(data_dir, deployer, runtime);
    if !dir.join(COMPLETE).is_file() {
        return Err(format!(
            "{deployer} is not installed on this server: run `mosaic deployer install {deployer} --data-dir {}` (it makes {} from PyPI)",
            data_dir.display(),
            dir.display()
        ));
    }
    let venv = Venv { dir };
    venv.problem().map_or(Ok(venv), Err)
}

/// The Python version `python` is (`3.11`).
fn python_version(python: &Path) -> anyhow::Result<String> {
    let output = Command::new(python)
        .args(["-c", "import sys; print('%d.%d' % sys.version_info[:2])"])
        .output()
        .with_context(|| format!("cannot run {}", python.display()))?;
    if !output.status.success() {
        bail!(
            "{} does not run: {}",
            python.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

/// How `mosaic deployer install` installs.
#[derive(Debug, Clone)]
pub struct Install<'a> {
    pub data_dir: &'a Path,
    pub deployer: &'a str,
    pub runtime: &'a Runtime,
    pub python: &'a Path,
    /// pip's package index (its own configuration's without it).
    pub index_url: Option<&'a str>,
}

/// Makes the virtual environment of `install.runtime` (when missing),
/// writing a line per step to `out`; its directory.
pub fn install(install: &Install<'_>, out: &mut dyn Write) -> anyhow::Result<PathBuf> {
    let dir = venv_dir(install.data_dir, install.deployer, install.runtime);
    if dir.join(COMPLETE).is_file() {
        writeln!(
            out,
            "deployer: {} is installed: {}",
            install.deployer,
            dir.display()
        )?;
        return Ok(dir);
    }
    let version = python_version(install.python)?;
    if !install.runtime.python.contains(&version) {
        bail!(
            "{} is Python {version}; {} runs on Python {} (name another with --python)",
            install.python.display(),
            install.deployer,
            install.runtime.python.join(", ")
        );
    }
    let started = Instant::now();
    if dir.exists() {
        writeln!(out, "deployer: removing an unfinished {}", dir.display())?;
        std::fs::remove_dir_all(&dir)?;
    }
    let made = make(install, &dir, &version, out);
    if let Err(e) = made {
        let _ = std::fs::remove_dir_all(&dir);
        return Err(e);
    }
    writeln!(
        out,
        "deployer: made in {} s: {}",
        started.elapsed().as_secs(),
        dir.display()
    )?;
    Ok(dir)
}

fn make(
    install: &Install<'_>,
    dir: &Path,
    version: &str,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir.parent().unwrap_or(dir))?;
    writeln!(
        out,
        "deployer: making a virtual environment with Python {version} at {}",
        dir.display()
    )?;
    run(Command::new(install.python).args(["-m", "venv"]).arg(dir))?;
    let requirements = dir.join("mosaic-requirements.txt");
    std::fs::write(
        &requirements,
        install.runtime.requirements.join("\n") + "\n",
    )?;
    writeln!(
        out,
        "deployer: installing {} pinned packages (pip, {})",
        install.runtime.requirements.len(),
        install.index_url.unwrap_or("its configured index")
    )?;
    let mut pip = Command::new(dir.join("bin/python"));
    pip.args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--no-input",
        "--no-deps",
    ]);
    if let Some(index) = install.index_url {
        pip.args(["--index-url", index]);
    }
    run(pip.arg("--requirement").arg(&requirements))?;
    writeln!(
        out,
        "deployer: checking that every dependency is there (pip check)"
    )?;
    run(Command::new(dir.join("bin/python")).args([
        "-m",
        "pip",
        "check",
        "--disable-pip-version-check",
    ]))?;
    let venv = Venv {
        dir: dir.to_path_buf(),
    };
    if let Some(problem) = venv.problem() {
        bail!("the virtual environment is not whole: {problem}");
    }
    std::fs::write(dir.join(COMPLETE), format!("python {version}\n"))?;
    Ok(())
}

/// Runs `command`, its output kept for the error when it fails.
fn run(command: &mut Command) -> anyhow::Result<()> {
    let output = command
        .output()
        .with_context(|| format!("cannot run {command:?}"))?;
    if !output.status.success() {
        bail!(
            "{command:?} failed ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime(pins: &[&str]) -> Runtime {
        Runtime {
            python: vec!["3.11".into()],
            requirements: pins.iter().map(|p| (*p).to_owned()).collect(),
        }
    }

    #[test]
    fn other_pins_are_another_directory() {
        let data = Path::new("/d");
        let a = venv_dir(
            data,
            "kolla-ansible",
            &runtime(&["kolla-ansible==18.8.0", "x==1"]),
        );
        let b = venv_dir(
            data,
            "kolla-ansible",
            &runtime(&["kolla-ansible==18.8.0", "x==2"]),
        );
        assert_ne!(a, b);
        let shown = a.display().to_string();
        assert!(
            shown.starts_with("/d/deployers/kolla-ansible/kolla-ansible-18.8.0-"),
            "{shown}"
        );
    }

    #[test]
    fn a_missing_environment_says_what_to_run() {
        let data = tempfile::tempdir().unwrap();
        let r = runtime(&["kolla-ansible==18.8.0"]);
        let why = find(None, data.path(), "kolla-ansible", Some(&r)).unwrap_err();
        assert!(
            why.contains("mosaic deployer install kolla-ansible"),
            "{why}"
        );
        let why = find(Some(data.path()), data.path(), "kolla-ansible", Some(&r)).unwrap_err();
        assert!(why.starts_with("--deployer-venv:"), "{why}");
    }
}
