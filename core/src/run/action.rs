//! kolla-ansible's actions a run is made of, and the exact command line
//! kolla-ansible's own script (`tools/kolla-ansible`, series 18) runs for
//! each: Mosaic starts `ansible-playbook` with that argv through
//! ansible-runner, so that a run does what `kolla-ansible ACTION` would.

use serde::{Deserialize, Serialize};

use super::status::Connection;

/// One kolla-ansible command a run may be made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    BootstrapServers,
    Prechecks,
    Pull,
    Deploy,
    PostDeploy,
    Reconfigure,
    GatherFacts,
}

impl Action {
    pub const ALL: [Action; 7] = [
        Action::BootstrapServers,
        Action::Prechecks,
        Action::Pull,
        Action::Deploy,
        Action::PostDeploy,
        Action::Reconfigure,
        Action::GatherFacts,
    ];

    /// What a first run of an environment does, in order.
    pub const FIRST_RUN: [Action; 5] = [
        Action::BootstrapServers,
        Action::Prechecks,
        Action::Pull,
        Action::Deploy,
        Action::PostDeploy,
    ];

    /// kolla-ansible's name of the command.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::BootstrapServers => "bootstrap-servers",
            Action::Prechecks => "prechecks",
            Action::Pull => "pull",
            Action::Deploy => "deploy",
            Action::PostDeploy => "post-deploy",
            Action::Reconfigure => "reconfigure",
            Action::GatherFacts => "gather-facts",
        }
    }

    pub fn parse(text: &str) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.as_str() == text)
    }

    /// The playbook the script runs, relative to kolla-ansible's
    /// `ansible/` directory.
    pub fn playbook(self) -> &'static str {
        match self {
            Action::BootstrapServers => "kolla-host.yml",
            Action::GatherFacts => "gather-facts.yml",
            Action::PostDeploy => "post-deploy.yml",
            Action::Prechecks | Action::Pull | Action::Deploy | Action::Reconfigure => "site.yml",
        }
    }

    /// The extra options the script adds for the command, after the
    /// user's own (`-e kolla_action=…`; reconfigure's `kolla_serial` is
    /// the script's `ANSIBLE_SERIAL`, 0 unless set).
    fn action_options(self) -> &'static [&'static str] {
        match self {
            Action::BootstrapServers => &["-e", "kolla_action=bootstrap-servers"],
            Action::Prechecks => &["-e", "kolla_action=precheck"],
            Action::Pull => &["-e", "kolla_action=pull"],
            Action::Deploy => &["-e", "kolla_action=deploy"],
            Action::Reconfigure => &["-e", "kolla_action=reconfigure", "-e", "kolla_serial=0"],
            Action::PostDeploy | Action::GatherFacts => &[],
        }
    }

    /// Whether a run of it deploys (changes hosts, so nodes follow it):
    /// every action but gathering facts and checking.
    pub fn deploys(self) -> bool {
        !matches!(self, Action::GatherFacts | Action::Prechecks)
    }
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a step's files are, as absolute paths on the Mosaic host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paths {
    /// kolla-ansible's `ansible/` directory (the script's
    /// `$BASEDIR/ansible`).
    pub playbooks: String,
    /// The run's configuration directory (`--configdir`: `globals.yml`,
    /// `config/`).
    pub config_dir: String,
    /// The environment's `passwords.yml` (`--passwords`).
    pub passwords: String,
    /// The run's inventory (`-i`).
    pub inventory: String,
}

/// The `ansible-playbook` argv kolla-ansible's script runs for
/// `kolla-ansible ACTION --configdir C --passwords P -i INVENTORY
/// [--limit L] [-e ansible_connection=local]`: `-e @C/globals.yml -e @P
/// -e CONFIG_DIR=C`, the user's options in the order given, the action's
/// own, the playbook, `--inventory`. The script splits its command on
/// white space; paths with none give the same words.
pub fn command_line(
    action: Action,
    paths: &Paths,
    limit: &[String],
    connection: Connection,
) -> Vec<String> {
    let mut argv: Vec<String> = vec![
        "ansible-playbook".into(),
        "-e".into(),
        format!("@{}/globals.yml", paths.config_dir),
        "-e".into(),
        format!("@{}", paths.passwords),
        "-e".into(),
        format!("CONFIG_DIR={}", paths.config_dir),
    ];
    if !limit.is_empty() {
        argv.push("--limit".into());
        argv.push(limit.join(","));
    }
    if connection == Connection::Local {
        argv.push("-e".into());
        argv.push("ansible_connection=local".into());
    }
    argv.extend(action.action_options().iter().map(|o| (*o).to_owned()));
    argv.push(format!("{}/{}", paths.playbooks, action.playbook()));
    argv.push("--inventory".into());
    argv.push(paths.inventory.clone());
    argv
}

/// The `kolla-ansible` invocation [`command_line`] is the argv of (what
/// an operator would type; the test runs it against the real script).
pub fn kolla_invocation(
    action: Action,
    paths: &Paths,
    limit: &[String],
    connection: Connection,
) -> Vec<String> {
    let mut argv: Vec<String> = vec![
        "kolla-ansible".into(),
        action.as_str().into(),
        "--configdir".into(),
        paths.config_dir.clone(),
        "--passwords".into(),
        paths.passwords.clone(),
        "-i".into(),
        paths.inventory.clone(),
    ];
    if !limit.is_empty() {
        argv.push("--limit".into());
        argv.push(limit.join(","));
    }
    if connection == Connection::Local {
        argv.push("-e".into());
        argv.push("ansible_connection=local".into());
    }
    argv
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths() -> Paths {
        Paths {
            playbooks: "/v/share/kolla-ansible/ansible".into(),
            config_dir: "/d/runs/7/files".into(),
            passwords: "/d/environments/3/kolla-ansible/passwords.yml".into(),
            inventory: "/d/runs/7/files/inventory".into(),
        }
    }

    #[test]
    fn deploy_is_site_yml_with_its_kolla_action() {
        let argv = command_line(Action::Deploy, &paths(), &[], Connection::Ssh);
        assert_eq!(
            argv.join(" "),
            "ansible-playbook -e @/d/runs/7/files/globals.yml \
             -e @/d/environments/3/kolla-ansible/passwords.yml -e CONFIG_DIR=/d/runs/7/files \
             -e kolla_action=deploy /v/share/kolla-ansible/ansible/site.yml \
             --inventory /d/runs/7/files/inventory"
        );
    }

    #[test]
    fn a_limit_and_a_local_connection_come_before_the_actions_options() {
        let limit = ["cmp-3".to_owned(), "ctl-1".to_owned()];
        let argv = command_line(Action::Reconfigure, &paths(), &limit, Connection::Local);
        let tail: Vec<&str> = argv[7..].iter().map(String::as_str).collect();
        assert_eq!(
            tail,
            [
                "--limit",
                "cmp-3,ctl-1",
                "-e",
                "ansible_connection=local",
                "-e",
                "kolla_action=reconfigure",
                "-e",
                "kolla_serial=0",
                "/v/share/kolla-ansible/ansible/site.yml",
                "--inventory",
                "/d/runs/7/files/inventory"
            ]
        );
    }

    #[test]
    fn each_action_has_its_playbook() {
        for (action, playbook, kolla_action) in [
            (
                Action::BootstrapServers,
                "kolla-host.yml",
                Some("bootstrap-servers"),
            ),
            (Action::Prechecks, "site.yml", Some("precheck")),
            (Action::Pull, "site.yml", Some("pull")),
            (Action::Deploy, "site.yml", Some("deploy")),
            (Action::PostDeploy, "post-deploy.yml", None),
            (Action::Reconfigure, "site.yml", Some("reconfigure")),
            (Action::GatherFacts, "gather-facts.yml", None),
        ] {
            let argv = command_line(action, &paths(), &[], Connection::Ssh);
            assert!(argv[argv.len() - 3].ends_with(playbook), "{action}");
            let named = argv.iter().find_map(|a| a.strip_prefix("kolla_action="));
            assert_eq!(named, kolla_action, "{action}");
            assert_eq!(Action::parse(action.as_str()), Some(action));
        }
    }

    #[test]
    fn only_facts_and_checks_deploy_nothing() {
        let quiet: Vec<Action> = Action::ALL.into_iter().filter(|a| !a.deploys()).collect();
        assert_eq!(quiet, [Action::Prechecks, Action::GatherFacts]);
    }
}
