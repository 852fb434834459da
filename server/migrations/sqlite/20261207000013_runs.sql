-- Deployments (SEMANTICS §15): runs of kolla-ansible actions through
-- ansible-runner, their steps, their events in order, the history (one row
-- per task and host, Fuel's deployment_history), a summary per host, and
-- the nodes whose status follows a run; an environment's status and a
-- node's error type. Times are Unix milliseconds.
ALTER TABLE clusters ADD COLUMN status TEXT NOT NULL DEFAULT 'new';
ALTER TABLE nodes ADD COLUMN error_type TEXT;

CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    cluster_id INTEGER NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
    deployer TEXT NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    connection TEXT NOT NULL,
    -- 1 when a step deploys (the environment is frozen while it runs).
    deploys INTEGER NOT NULL,
    -- JSON: the nodes whose status follows the run, and for "deploy
    -- changes" what differed.
    nodes TEXT NOT NULL,
    changes TEXT,
    -- JSON: `mosaic_core::run::Snapshot`, the files deployed, and their
    -- digests alone (path → SHA-256) for the run's answer.
    snapshot TEXT NOT NULL,
    digests TEXT NOT NULL,
    plays_started INTEGER NOT NULL DEFAULT 0,
    plays_total INTEGER NOT NULL,
    last_seq INTEGER NOT NULL DEFAULT 0,
    message TEXT,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    finished_at INTEGER,
    -- The deployer's virtual environment it runs with.
    venv TEXT NOT NULL,
    -- Supervision: which server process drives it and when it last said
    -- so; the runner of its current step (process id, on which host).
    supervisor TEXT,
    heartbeat_at INTEGER,
    runner_pid INTEGER,
    runner_host TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0
);
-- One run at a time per environment, whichever server starts it.
CREATE UNIQUE INDEX runs_one_active ON runs (cluster_id) WHERE finished_at IS NULL;
CREATE INDEX runs_of_cluster ON runs (cluster_id, id);

CREATE TABLE run_steps (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    limit_hosts TEXT NOT NULL,
    status TEXT NOT NULL,
    argv TEXT NOT NULL,
    rc INTEGER,
    plays INTEGER NOT NULL,
    -- How far into the step's events file its events were stored (bytes).
    events_offset INTEGER NOT NULL DEFAULT 0,
    started_at INTEGER,
    finished_at INTEGER,
    PRIMARY KEY (run_id, idx)
);

CREATE TABLE run_events (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    -- `mosaic_core::run::RunEvent` as JSON.
    body TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);

CREATE TABLE run_history (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    task_name TEXT NOT NULL,
    node_id INTEGER,
    host TEXT NOT NULL,
    status TEXT NOT NULL,
    time_start TEXT,
    time_end TEXT,
    play TEXT,
    role TEXT,
    step TEXT NOT NULL,
    message TEXT,
    PRIMARY KEY (run_id, seq)
);
CREATE INDEX run_history_node ON run_history (run_id, node_id, seq);

CREATE TABLE run_hosts (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    host TEXT NOT NULL,
    node_id INTEGER,
    ok INTEGER NOT NULL,
    changed INTEGER NOT NULL,
    failures INTEGER NOT NULL,
    unreachable INTEGER NOT NULL,
    skipped INTEGER NOT NULL,
    ignored INTEGER NOT NULL,
    rescued INTEGER NOT NULL,
    current_task TEXT,
    PRIMARY KEY (run_id, host)
);

CREATE TABLE run_nodes (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    node_id INTEGER NOT NULL,
    host TEXT NOT NULL,
    status_before TEXT NOT NULL,
    -- JSON array: its pending roles when the run started (those it deploys).
    pending_roles TEXT NOT NULL,
    PRIMARY KEY (run_id, node_id)
);
