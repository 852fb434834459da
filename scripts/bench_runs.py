"""The phases of scripts/bench-runs.sh (deployment runs at scale), and the
stand-in driver its history and sse phases run.

    bench_runs.py ingest|history|sse      (BENCH_BASE, BENCH_TOKEN, BENCH_DATA, BENCH_VENV)
    bench_runs.py play VENV STEP_DIR      (the stand-in: VENV/events.jsonl into STEP_DIR)
"""

import datetime
import http.client
import json
import os
import statistics
import sys
import threading
import time
import urllib.parse


def play(venv, step):
    """Writes the prepared events into the step's events file (all at once,
    or over VENV/pace seconds), then driver.done."""
    pace = float(open(os.path.join(venv, "pace")).read()) if os.path.exists(os.path.join(venv, "pace")) else 0
    with open(os.path.join(venv, "events.jsonl")) as source:
        lines = source.readlines()
    with open(os.path.join(step, "events.jsonl"), "a") as out:
        if pace == 0:
            out.writelines(lines)
        else:
            chunk = max(1, len(lines) // int(pace * 10))
            for i in range(0, len(lines), chunk):
                out.writelines(lines[i:i + chunk])
                out.flush()
                time.sleep(0.1)
    with open(os.path.join(step, "driver.done.tmp"), "w") as done:
        done.write('{"rc": 0, "canceled": false}')
    os.rename(os.path.join(step, "driver.done.tmp"), os.path.join(step, "driver.done"))


class Api:
    def __init__(self):
        url = urllib.parse.urlparse(os.environ["BENCH_BASE"])
        self.host, self.port = url.hostname, url.port
        self.auth = {"Authorization": "Bearer " + os.environ["BENCH_TOKEN"]}
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=600)

    def call(self, method, path, body=None, content_type="application/json", accept=None):
        headers = dict(self.auth)
        if body is not None:
            headers["Content-Type"] = content_type
        if accept:
            headers["Accept"] = accept
        start = time.perf_counter()
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        raw = response.read()
        took = (time.perf_counter() - start) * 1000
        if response.status >= 300:
            sys.exit(f"{method} {path}: {response.status} {raw[:400]!r}")
        return took, raw

    def json(self, method, path, body=None):
        return json.loads(self.call(method, path, body)[1])


def environment(api, n):
    """An environment of n nodes (three controllers, the rest computes),
    its management and storage networks wide enough for all: its id."""
    release = api.json("GET", "/api/v1/releases")[0]["name"]
    lines = [f"release_name: {json.dumps(release)}", "mode: ha_compact", "nodes:"]
    for i in range(1, n + 1):
        role = "controller" if i <= 3 else "compute"
        lines.append(f"  - {{id: {i}, name: node-{i}, roles: [{role}]}}")
    _, raw = api.call("POST", f"/api/v1/clusters/import?name=bench-{n}", "\n".join(lines) + "\n", "application/yaml")
    cluster = json.loads(raw)["id"]
    config = api.json("GET", f"/api/v1/clusters/{cluster}/network_configuration/neutron")
    cidrs = {"management": "10.0.0.0/16", "storage": "10.1.0.0/16"}
    change = [{"id": net["id"], "cidr": cidrs[net["name"]]} for net in config["networks"] if net["name"] in cidrs]
    api.call("PUT", f"/api/v1/clusters/{cluster}/network_configuration/neutron", json.dumps({"networks": change}))
    return cluster


def run_to_end(api, cluster, body, limit=3600):
    run = api.json("POST", f"/api/v1/clusters/{cluster}/deployers/kolla-ansible/runs", json.dumps(body))
    deadline = time.time() + limit
    while time.time() < deadline:
        run = api.json("GET", f"/api/v1/runs/{run['id']}")
        if run["status"] in ("successful", "failed", "canceled", "error"):
            return run
        time.sleep(0.05)
    sys.exit(f"run {run['id']} did not end")


def ended_at(run):
    return datetime.datetime.fromisoformat(run["finished_at"].replace("Z", "+00:00")).timestamp()


def runner_end(run):
    """When the runner of the run's last step wrote driver.done."""
    step = run["steps"][-1]
    path = os.path.join(os.environ["BENCH_DATA"], "runs", str(run["id"]), "steps", f"{step['index']}-{step['action']}", "driver.done")
    return os.stat(path).st_mtime


def result(counter, host, task, status="ok"):
    event = {"ok": "runner_on_ok", "failed": "runner_on_failed"}[status]
    data = {"host": host, "play": "Bench", "task": task, "role": "bench",
            "start": "2026-12-07T10:00:00+00:00", "end": "2026-12-07T10:00:01+00:00",
            "res": {"changed": counter % 3 == 0, "msg": "boom"}}
    return json.dumps({"counter": counter, "event": event, "stdout": f"{status}: [{host}]",
                       "created": "2026-12-07T10:00:01+00:00", "event_data": data}) + "\n"


def prepare(venv, hosts, tasks, pace):
    """The stand-in's events: per task its start, then each host's result
    (one in a hundred failed), and the stats."""
    counter = 0
    with open(os.path.join(venv, "events.jsonl"), "w") as out:
        for t in range(1, tasks + 1):
            counter += 1
            out.write(json.dumps({"counter": counter, "event": "playbook_on_task_start",
                                  "event_data": {"task": f"Task {t}", "play": "Bench"}}) + "\n")
            for h in range(1, hosts + 1):
                counter += 1
                out.write(result(counter, f"node-{h}", f"Task {t}", "failed" if (t * hosts + h) % 100 == 0 else "ok"))
        counter += 1
        out.write(json.dumps({"counter": counter, "event": "playbook_on_stats",
                              "event_data": {"ok": {f"node-{h}": tasks for h in range(1, hosts + 1)}}}) + "\n")
    with open(os.path.join(venv, "pace"), "w") as out:
        out.write(str(pace))
    return counter


def ingest(api, misses):
    hosts, tasks = int(os.environ.get("BENCH_HOSTS", "500")), int(os.environ.get("BENCH_TASKS", "20"))
    cluster = environment(api, hosts)
    started = time.time()
    run = run_to_end(api, cluster, {"actions": ["deploy"]})
    lag = ended_at(run) - runner_end(run)
    events = run["last_seq"]
    print(f"ingest: {hosts} hosts x {tasks} tasks, real ansible-runner: run {run['status']} in "
          f"{time.time() - started:.0f} s, {events} events stored; stored {lag:.2f} s after the runner's end")
    if lag > 2:
        misses.append(f"a run of {hosts} x {tasks} stored within 2 s of the runner's end ({lag:.2f} s)")


def history(api, misses):
    hosts, tasks = 1000, 200
    events = prepare(os.environ["BENCH_VENV"], hosts, tasks, 0)
    cluster = environment(api, hosts)
    run = run_to_end(api, cluster, {"actions": ["deploy"]})
    lag = ended_at(run) - runner_end(run)
    print(f"history: {events} events ({hosts} nodes x {tasks} tasks) written at once, stored "
          f"{lag:.2f} s after the runner's end")
    rid = run["id"]
    node = api.json("GET", f"/api/v1/clusters/{cluster}/nodes")[500]["id"]
    cases = [
        ("first page (1,000 rows)", "offset=0&limit=1000"),
        ("a middle page", "offset=100000&limit=1000"),
        ("the last page", "offset=199000&limit=1000"),
        ("one node (200 rows)", f"nodes={node}"),
        ("failed rows (1 %)", "statuses=failed&limit=1000"),
        ("one task (1,000 rows)", "tasks=Task%20150&limit=1000"),
    ]
    for name, query in cases:
        times = [api.call("GET", f"/api/v1/runs/{rid}/history?{query}")[0] for _ in range(5)]
        median = statistics.median(times)
        print(f"history page, {name}: median {median:.0f} ms, slowest {max(times):.0f} ms")
        if median > 200:
            misses.append(f"history page {name} <= 200 ms ({median:.0f} ms)")
    took, raw = api.call("GET", f"/api/v1/runs/{rid}/history", accept="text/csv")
    rows = raw.count(b"\n") - 1
    print(f"history as CSV: {rows} rows, {len(raw) / 1e6:.1f} MB streamed in {took:.0f} ms")
    if rows != hosts * tasks:
        misses.append(f"the CSV has every row ({rows} of {hosts * tasks})")


def reader(base, token, rid, out):
    url = urllib.parse.urlparse(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
    conn.request("GET", f"/api/v1/runs/{rid}/stream", headers={"Authorization": "Bearer " + token})
    response = conn.getresponse()
    seqs, end = [], None
    while True:
        line = response.fp.readline()
        if not line:
            break
        if line.startswith(b"id: "):
            seqs.append(int(line[4:]))
        if line.startswith(b"event: end"):
            end = time.time()
            break
    out.append((seqs, end))


def sse(api, misses):
    hosts, tasks, readers = 500, 40, 50
    venv = os.environ["BENCH_VENV"]
    prepare(venv, hosts, tasks, 10)
    cluster = environment(api, hosts)
    quiet = run_to_end(api, cluster, {"actions": ["gather-facts"]})
    quiet_lag = ended_at(quiet) - runner_end(quiet)
    run = api.json("POST", f"/api/v1/clusters/{cluster}/deployers/kolla-ansible/runs", json.dumps({"actions": ["gather-facts"]}))
    results, threads = [], []
    for _ in range(readers):
        thread = threading.Thread(target=reader, args=(os.environ["BENCH_BASE"], os.environ["BENCH_TOKEN"], run["id"], results))
        thread.start()
        threads.append(thread)
    for thread in threads:
        thread.join()
    run = api.json("GET", f"/api/v1/runs/{run['id']}")
    lag = ended_at(run) - runner_end(run)
    expected = list(range(1, run["last_seq"] + 1))
    whole = sum(1 for seqs, _ in results if seqs == expected)
    last = max(end for _, end in results) - ended_at(run)
    print(f"sse: {readers} readers of {run['last_seq']} events paced over 10 s: {whole} saw every event once; "
          f"the last saw the end {last:.2f} s after the run's; stored {lag:.2f} s after the runner's end "
          f"(no reader: {quiet_lag:.2f} s)")
    if whole != readers:
        misses.append(f"every reader sees every event once ({whole} of {readers})")
    if lag > 2:
        misses.append(f"50 readers do not hold the run back (stored {lag:.2f} s after the runner's end)")


def main():
    if sys.argv[1] == "play":
        play(sys.argv[2], sys.argv[3])
        return
    api, misses = Api(), []
    {"ingest": ingest, "history": history, "sse": sse}[sys.argv[1]](api, misses)
    if misses:
        sys.exit("missed: " + "; ".join(misses))


if __name__ == "__main__":
    main()
