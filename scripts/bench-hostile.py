#!/usr/bin/env python3
"""Hostile uploads against a real `mosaic serve`: how long each answer takes
and how much memory the server needs at its peak (docs/benchmarks.md).

    cargo build --release -p mosaic-server
    scripts/bench-hostile.py [--mosaic target/release/mosaic] [--inflate-gib 4]

Starts the server on a free port with a fresh SQLite database, creates an
admin token with the CLI, uploads each archive, prints one line per case
(status, seconds, the error's message) and the server's peak resident memory
(VmHWM) before and after. Exits 1 when an answer is a 5xx, slower than a
second, or the peak is above 300 MiB.
"""

import argparse
import io
import json
import os
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "server/tests/fixtures/plugins/v5-example")
LIMIT_SECONDS = 1.0
LIMIT_MIB = 300


class Zeros(io.RawIOBase):
    """`size` zero bytes, produced as they are read (never all in memory)."""

    def __init__(self, size):
        self.left = size

    def readable(self):
        return True

    def readinto(self, buffer):
        n = min(len(buffer), self.left)
        buffer[:n] = bytes(n)
        self.left -= n
        return n


def example_files():
    """The v5 example package: (path inside the archive, bytes)."""
    for dirpath, _, names in os.walk(EXAMPLE):
        for name in sorted(names):
            full = os.path.join(dirpath, name)
            inside = os.path.join("pkg", os.path.relpath(full, EXAMPLE))
            with open(full, "rb") as f:
                yield inside, f.read()


def zip_bomb(size):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for path, data in example_files():
            z.writestr(path, data)
        with z.open("pkg/repositories/blob.bin", "w", force_zip64=True) as f:
            chunk = bytes(1 << 24)
            for _ in range(size // len(chunk)):
                f.write(chunk)
    return out.getvalue()


def gzip_bomb(size, parts=1):
    """`parts` members of zeros adding up to `size`: one member declares
    its size in its header; many small ones are only caught by counting
    what the decompressor produces."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz", compresslevel=1) as tar:
        for path, data in example_files():
            info = tarfile.TarInfo(path)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        for i in range(parts):
            info = tarfile.TarInfo("pkg/repositories/blob%d.bin" % i)
            info.size = size // parts
            tar.addfile(info, Zeros(info.size))
    return out.getvalue()


def glob_bomb():
    """A `*_path` glob that backtracks exponentially in a naive matcher,
    against 200 long names that almost match."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        def add(path, data):
            info = tarfile.TarInfo(path)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))

        for path, data in example_files():
            if path == "pkg/metadata.yaml":
                pattern = "deployment_scripts/" + "*a" * 40 + "b.yaml"
                data += ('\nnode_roles_path: "%s"\n' % pattern).encode()
            add(path, data)
        for i in range(200):
            add("pkg/deployment_scripts/%s%d.yaml" % ("a" * 120, i), b"{}\n")
    return out.getvalue()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def peak_mib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def upload(base, token, body, content_type):
    request = urllib.request.Request(
        base + "/api/v1/plugins",
        data=body,
        method="POST",
        headers={"Authorization": "Bearer " + token, "Content-Type": content_type},
    )
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            status, text = answer.status, answer.read()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read()
    seconds = time.monotonic() - started
    try:
        message = json.loads(text)["error"]["message"]
    except (ValueError, KeyError, TypeError):
        message = text[:120].decode(errors="replace")
    return status, seconds, message


def start(mosaic, data_dir, port):
    server = subprocess.Popen(
        [mosaic, "serve", "--bind", "127.0.0.1:%d" % port, "--data-dir", data_dir,
         "--dist", os.path.join(data_dir, "no-app")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env=dict(os.environ, MOSAIC_LOG="warn"),
    )
    for line in server.stdout:
        if line.startswith("mosaic: listening on"):
            return server
    raise SystemExit("mosaic serve did not start")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mosaic", default=os.path.join(ROOT, "target/release/mosaic"))
    parser.add_argument("--inflate-gib", type=int, default=4,
                        help="what the zip and gzip bombs inflate to")
    args = parser.parse_args()
    size = args.inflate_gib << 30
    cases = [
        ("zip bomb (%d GiB of zeros in a valid package)" % args.inflate_gib,
         zip_bomb(size), "application/zip"),
        ("gzip bomb (%d GiB of zeros in a valid package)" % args.inflate_gib,
         gzip_bomb(size), "application/gzip"),
        ("gzip bomb (the same in 64 members)",
         gzip_bomb(size, 64), "application/gzip"),
        ("glob bomb (40 stars, 200 near-misses)", glob_bomb(), "application/gzip"),
    ]
    failed = False
    with tempfile.TemporaryDirectory() as data_dir:
        port = free_port()
        server = start(args.mosaic, data_dir, port)
        try:
            token = subprocess.run(
                [args.mosaic, "token", "create", "--role", "admin", "--data-dir", data_dir],
                check=True, capture_output=True, text=True).stdout.strip()
            print("server peak RSS after start: %.0f MiB" % peak_mib(server.pid))
            for name, body, content_type in cases:
                status, seconds, message = upload(
                    "http://127.0.0.1:%d" % port, token, body, content_type)
                print("%-48s %6d bytes  %d in %.3f s  %s"
                      % (name, len(body), status, seconds, message[:100]))
                failed |= status >= 500 or seconds > LIMIT_SECONDS
            peak = peak_mib(server.pid)
            print("server peak RSS after the uploads: %.0f MiB" % peak)
            failed |= peak > LIMIT_MIB
        finally:
            server.terminate()
            server.wait()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
