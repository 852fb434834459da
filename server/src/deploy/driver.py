"""Mosaic's runner driver: runs one step of a deployment through
ansible-runner and leaves nothing of it running.

    python driver.py STEP_DIR ARGV_JSON

Mosaic starts it in a process group of its own, with a clean environment,
and reads what it writes under STEP_DIR:
  events.jsonl           every job event, in order, one JSON per line
                         (ansible-runner's event_handler: the events of
                         job_events/, as they are made)
  artifacts/runner/...   ansible-runner's artifacts (status, rc, stdout)
  driver.done            the exit code, written last

SIGTERM cancels: ansible-runner stops the playbook (its cancel_callback),
then every process left under this one is killed. The driver is a child
subreaper, so processes that daemonized stay its descendants.
"""

import ctypes
import json
import os
import signal
import sys
import time

import ansible_runner
import psutil

PR_SET_CHILD_SUBREAPER = 36
canceled = False


def on_term(signum, frame):
    global canceled
    canceled = True


def kill_descendants():
    """Kills every process under this one, and reaps them."""
    for _ in range(20):
        children = psutil.Process().children(recursive=True)
        if not children:
            return
        for child in children:
            try:
                child.kill()
            except psutil.NoSuchProcess:
                pass
        psutil.wait_procs(children, timeout=0.5)


def main():
    step_dir, argv = sys.argv[1], json.loads(sys.argv[2])
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except Exception:
        pass
    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)
    events = open(os.path.join(step_dir, "events.jsonl"), "a", encoding="utf-8")

    def on_event(event):
        events.write(json.dumps(event) + "\n")
        events.flush()
        return True

    rc = 254
    try:
        _, _, rc = ansible_runner.interface.run_command(
            argv[0],
            argv[1:],
            private_data_dir=step_dir,
            ident="runner",
            host_cwd=step_dir,
            quiet=True,
            event_handler=on_event,
            cancel_callback=lambda: canceled,
            settings={"pexpect_timeout": 1},
        )
    finally:
        events.close()
        kill_descendants()
        if canceled:
            rc = 254
        with open(os.path.join(step_dir, "driver.done.tmp"), "w") as done:
            done.write(json.dumps({"rc": rc, "canceled": canceled, "at": time.time()}))
        os.rename(os.path.join(step_dir, "driver.done.tmp"), os.path.join(step_dir, "driver.done"))
    return rc if isinstance(rc, int) else 1


if __name__ == "__main__":
    sys.exit(main())
