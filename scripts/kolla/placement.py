#!/usr/bin/env python3
"""Where kolla-ansible's own logic puts every service of an exported environment.

Run with the Python of the virtual environment scripts/kolla/venv.sh makes
(kolla-ansible and ansible-core installed there):

    VENV/bin/python scripts/kolla/placement.py EXPORT_DIR

EXPORT_DIR holds what `mosaic env export ENV --to kolla-ansible -o DIR`
writes (`inventory`, `globals.yml`). Nothing of kolla-ansible is copied
into Mosaic: the plays, the service definitions and the filters are read
from the installed package when this runs.

1. kolla-ansible's site.yml (and the playbooks it imports) is read. Its
   "Group hosts based on configuration" play is run as it is; then, for
   every play of site.yml that applies a role, a play with the same hosts
   applies a stand-in for the role: the role's own defaults and vars,
   kolla's own grouping tasks of its tasks/main.yml (`add_host`,
   `group_by`: MariaDB's shard groups), and one task that asks kolla's
   filter `select_services_enabled_and_mapped_to_host` for the role's
   `*_services`, as the role's deploy tasks do.
2. ansible-playbook runs it as kolla-ansible runs a deploy (`-i inventory
   -e @globals.yml -e @passwords.yml -e CONFIG_DIR=… -e
   kolla_action=deploy`), with kolla's own playbook variables
   (group_vars/all.yml) and filter plugins, the passwords made by kolla's
   own kolla-genpwd, connection local, and each host's facts given
   through Ansible's JSON fact cache (no host is contacted: the plays
   gather no facts and run controller-side tasks only).
3. Every key of globals.yml is looked up among the variables the series
   defines: group_vars/all.yml and every role's defaults.

It prints JSON: {"services": {NAME: {"role", "hosts": [...], "group":
[hosts of the service's group, in order]}}, "unknown_globals": [...]}.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
KOLLA = os.path.join(sys.prefix, "share", "kolla-ansible")
ANSIBLE_DIR = os.path.join(KOLLA, "ansible")
GROUPING_PLAY = "Group hosts based on configuration"

# What kolla's filter reads of a service definition: whether it is enabled,
# and the group (or the expression) that maps it to hosts.
FILTER_KEYS = ("container_name", "enabled", "group", "host_in_groups")

# The probe a stand-in role runs: kolla's filter over the role's service
# definitions, and for each service it selects the hosts of its group in
# order (kolla bootstraps a clustered service on its group's first host).
PROBE_TASK = {
    "name": "mosaic-probe",
    "debug": {
        "msg": {
            "mosaic_probe": True,
            "role": "{{ mosaic_probe_role }}",
            "placed": (
                "{% set out = {} %}"
                "{% for name, service in (mosaic_probe_services"
                " | select_services_enabled_and_mapped_to_host).items() %}"
                "{% set _ = out.update({name: (groups[service.group] | default([]))"
                " if service.group is defined else []}) %}"
                "{% endfor %}{{ out }}"
            ),
        }
    },
}


def load(path):
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def plays(playbook):
    """The plays of `playbook`, imported playbooks expanded in place."""
    for play in load(os.path.join(ANSIBLE_DIR, playbook)) or []:
        if "import_playbook" in play:
            yield from plays(play["import_playbook"])
        else:
            yield play


def role_invocations(play):
    """The roles `play` applies whole: (name, vars) of its `roles:` and of
    its `import_role`/`include_role` tasks without `tasks_from`."""
    for role in play.get("roles") or []:
        if isinstance(role, str):
            yield role, {}
        else:
            params = {k: v for k, v in role.items() if k not in ("role", "name", "tags", "when")}
            params.update(role.get("vars") or {})
            params.pop("vars", None)
            yield role.get("role") or role["name"], params
    for task in play.get("tasks") or []:
        for key in ("import_role", "include_role", "ansible.builtin.import_role",
                    "ansible.builtin.include_role"):
            spec = task.get(key)
            if spec and spec.get("tasks_from", "main") in ("main", "main.yml"):
                yield spec["name"], dict(task.get("vars") or {})


def services(role):
    """The role's service definitions (every `*_services` map of its
    defaults), each cut to what kolla's filter reads."""
    defaults = load(os.path.join(ANSIBLE_DIR, "roles", role, "defaults", "main.yml")) or {}
    out = {}
    for name, value in defaults.items():
        if not (name.endswith("_services") and isinstance(value, dict)):
            continue
        for service, definition in value.items():
            if isinstance(definition, dict) and "enabled" in definition:
                out[service] = {k: definition[k] for k in FILTER_KEYS if k in definition}
    return out


def grouping_tasks(role):
    """The tasks of the role's tasks/main.yml that only make groups."""
    path = os.path.join(ANSIBLE_DIR, "roles", role, "tasks", "main.yml")
    if not os.path.exists(path):
        return []
    return [
        task
        for task in load(path) or []
        if any(k in task for k in ("add_host", "group_by", "ansible.builtin.add_host",
                                   "ansible.builtin.group_by"))
    ]


def stand_in(work, role, definitions):
    """roles/ROLE in `work`: kolla's defaults and vars, the grouping tasks
    and the probe; the parameters its plays pass it."""
    path = os.path.join(work, "roles", role)
    os.makedirs(os.path.join(path, "tasks"), exist_ok=True)
    for part in ("defaults", "vars"):
        source = os.path.join(ANSIBLE_DIR, "roles", role, part)
        if os.path.isdir(source):
            os.symlink(source, os.path.join(path, part))
    tasks = grouping_tasks(role) + [PROBE_TASK]
    with open(os.path.join(path, "tasks", "main.yml"), "w", encoding="utf-8") as f:
        yaml.safe_dump(tasks, f, sort_keys=False)
    return {"mosaic_probe_role": role, "mosaic_probe_services": definitions}


def playbook(work):
    """The playbook: kolla's grouping play, then a probing play for each
    play of site.yml that applies a role with services."""
    out = []
    made = {}
    for play in plays("site.yml"):
        if play.get("name") == GROUPING_PLAY:
            out.append(play)
            continue
        for role, params in role_invocations(play):
            if not os.path.isdir(os.path.join(ANSIBLE_DIR, "roles", role)):
                continue
            if role not in made:
                found = services(role)
                made[role] = stand_in(work, role, found) if found else None
            if made[role] is None:
                continue
            out.append({
                "name": f"mosaic-probe {play.get('name', role)}",
                "hosts": play["hosts"],
                "gather_facts": False,
                "roles": [{"role": role, **params, **made[role]}],
            })
    if not any(p.get("name") == GROUPING_PLAY for p in out):
        sys.exit(f"kolla-placement: site.yml has no play named '{GROUPING_PLAY}'")
    return out


def inventory_hosts(export):
    """Every host of the exported inventory with its variables (what
    `ansible-inventory --list` says)."""
    listed = subprocess.run(
        [os.path.join(sys.prefix, "bin", "ansible-inventory"), "-i",
         os.path.join(export, "inventory"), "--list"],
        check=True, capture_output=True, text=True,
    )
    return json.loads(listed.stdout)["_meta"]["hostvars"]


def facts(host, hostvars):
    """The facts a deploy's fact gathering would give `host`: its name,
    Ubuntu (kolla_base_distro), and every interface its variables name,
    with its ansible_host address."""
    address = hostvars.get("ansible_host", "127.0.0.1")
    interfaces = sorted({
        part
        for key, value in hostvars.items()
        if key.endswith("_interface") and isinstance(value, str)
        for part in value.split(",")
    } | {"eth0", "lo"})
    out = {
        "ansible_hostname": host.split(".")[0],
        "ansible_nodename": host,
        "ansible_fqdn": host,
        "ansible_distribution": "Ubuntu",
        "ansible_distribution_release": "jammy",
        "ansible_distribution_version": "22.04",
        "ansible_distribution_major_version": "22",
        "ansible_os_family": "Debian",
        "ansible_system": "Linux",
        "ansible_architecture": "x86_64",
        "ansible_kernel": "5.15.0",
        "ansible_memtotal_mb": 65536,
        "ansible_processor_vcpus": 16,
        "ansible_processor_count": 1,
        "ansible_processor_cores": 16,
        "ansible_interfaces": interfaces,
        "ansible_default_ipv4": {"address": address, "interface": interfaces[0]},
        "ansible_all_ipv4_addresses": [address],
        "ansible_local": {},
    }
    for name in interfaces:
        out["ansible_" + name.replace("-", "_")] = {
            "device": name,
            "active": True,
            "ipv4": {"address": address, "netmask": "255.255.255.0"},
        }
    return out


def passwords(work):
    """kolla's passwords.yml example filled by kolla's own kolla-genpwd:
    the one scripts/kolla/venv.sh made beside the virtual environment (its
    RSA keys take seconds), or a new one."""
    made = os.path.join(sys.prefix, "mosaic-passwords.yml")
    if os.path.exists(made):
        return made
    path = os.path.join(work, "passwords.yml")
    shutil.copy(os.path.join(KOLLA, "etc_examples", "kolla", "passwords.yml"), path)
    subprocess.run([os.path.join(sys.prefix, "bin", "kolla-genpwd"), "-p", path],
                   check=True, capture_output=True)
    return path


def unknown_globals(export):
    """globals.yml's keys that no variable of the series defines."""
    known = set(load(os.path.join(ANSIBLE_DIR, "group_vars", "all.yml")) or {})
    roles = os.path.join(ANSIBLE_DIR, "roles")
    for role in os.listdir(roles):
        defaults = os.path.join(roles, role, "defaults", "main.yml")
        if os.path.exists(defaults):
            known |= set(load(defaults) or {})
    given = load(os.path.join(export, "globals.yml")) or {}
    return sorted(k for k in given if k not in known)


def run(export, work):
    for part in ("group_vars", "filter_plugins", "action_plugins", "library", "module_utils"):
        os.symlink(os.path.join(ANSIBLE_DIR, part), os.path.join(work, part))
    cache = os.path.join(work, "facts")
    os.makedirs(cache)
    for host, hostvars in inventory_hosts(export).items():
        with open(os.path.join(cache, host), "w", encoding="utf-8") as f:
            json.dump(facts(host, hostvars), f)
    with open(os.path.join(work, "site.yml"), "w", encoding="utf-8") as f:
        yaml.safe_dump(playbook(work), f, sort_keys=False)
    env = dict(
        os.environ,
        ANSIBLE_STDOUT_CALLBACK="mosaic_probe",
        ANSIBLE_CALLBACK_PLUGINS=os.path.join(HERE, "callback_plugins"),
        ANSIBLE_CALLBACKS_ENABLED=os.environ.get("MOSAIC_KOLLA_CALLBACKS", ""),
        ANSIBLE_GATHERING="explicit",
        ANSIBLE_CACHE_PLUGIN="jsonfile",
        ANSIBLE_CACHE_PLUGIN_CONNECTION=cache,
        ANSIBLE_CACHE_PLUGIN_TIMEOUT="0",
        ANSIBLE_HOST_KEY_CHECKING="False",
        ANSIBLE_RETRY_FILES_ENABLED="False",
        ANSIBLE_LOCAL_TEMP=os.path.join(work, "tmp"),
        ANSIBLE_HOME=os.path.join(work, "home"),
        ANSIBLE_FORKS="8",
    )
    env.pop("ANSIBLE_CONFIG", None)
    result = subprocess.run(
        [os.path.join(sys.prefix, "bin", "ansible-playbook"),
         "-i", os.path.join(export, "inventory"),
         "-e", "@" + os.path.join(export, "globals.yml"),
         "-e", "@" + passwords(work),
         "-e", "CONFIG_DIR=" + export,
         "-e", "kolla_action=deploy",
         "-e", "ansible_connection=local",
         os.path.join(work, "site.yml")],
        cwd=work, env=env, capture_output=True, text=True,
    )
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        sys.exit(f"kolla-placement: ansible-playbook failed ({result.returncode}):\n"
                 f"{result.stdout}\n{result.stderr}")
    return report, result


def placement(report, result):
    """The hosts each service landed on, and its group's hosts in order,
    from the probes' reports; any failure ends the run with its message."""
    failures = [f"{f['play']} / {f['task']} on {f['host']} ({f['what']}): {f['msg']}"
                for f in report["failures"]]
    if failures or result.returncode != 0:
        sys.exit("kolla-placement: kolla's plays failed:\n" + "\n".join(failures)
                 + ("\n" + result.stderr if result.stderr else ""))
    services = {}
    for probe in report["probes"]:
        placed = probe["placed"]
        if isinstance(placed, str):
            placed = yaml.safe_load(placed)
        for name, group in placed.items():
            entry = services.setdefault(name, {"role": probe["role"], "hosts": [],
                                               "group": group})
            if probe["host"] not in entry["hosts"]:
                entry["hosts"].append(probe["host"])
    return services


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: kolla-placement.py EXPORT_DIR")
    export = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="kolla-placement-") as work:
        report, result = run(export, work)
        services = placement(report, result)
    for entry in services.values():
        entry["hosts"].sort()
    json.dump({"services": dict(sorted(services.items())),
               "unknown_globals": unknown_globals(export)}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
