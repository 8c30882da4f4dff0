"""Load benchmark (issue 10): the practice loop under rising concurrency, against the bare floor.

Run from the repository root, on demand (it is not part of `make test`; about 15 minutes):

    .venv/bin/python bench/load/run.py

It needs PostgreSQL at 127.0.0.1:5432 (user postgres, trust auth) and uses Redis at
127.0.0.1:6379 (database 14, or --redis-url) as production's cache when it answers. It then:

1. creates the bench's own environment `bench/load/.venv` from bench/load/requirements.txt if
   missing (locust and py-spy stay out of the application's dependencies);
2. creates a fresh database `trainer_load`, migrates it, loads the real bank and seeds 200
   learners with history (bench/load/seed.py);
3. collects the static files into a temporary STATIC_ROOT and starts gunicorn with production
   settings (2 sync workers, chosen with --compare-workers; --preload as in production; DEBUG=0,
   a random SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL; SSL redirect and secure cookies off, since
   the test speaks plain HTTP on loopback) and DJANGO_SETTINGS_MODULE=bench.load.settings, which
   only adds the bare view `/bench/bare/` to the application's URLs;
4. warms the workers up (connections open, caches filled), then for each concurrency step
   (1, 2, 4, 8, 16, 32 clients) runs the practice loop and then the bare view, each in its own
   locust process (bench/load/locustfile.py), measuring a fixed window once every client is
   logged in; meanwhile it samples /proc for the CPU time of the server (gunicorn), the database
   (this database's backends and PostgreSQL's background processes), the load generator, and
   everything else on the machine;
5. prints one table and the verdict on the targets (zero errors; practice requests/s at least
   20% of the bare view's requests/s at the same concurrency; p99 of every practice request under
   150 ms at 8 clients: issue 18's restatement of issue 10's), writes every number to
   bench/load/results/, stops the server and drops the database. The exit status is 1 if a
   target is missed.

Options: --workers/--threads for gunicorn, --steps, --measure, --generator-cpus and
--server-cpus (taskset CPU lists), --compare-workers 2,3,4,6 (a short sweep at 16 clients to
choose the worker count), --profile N (py-spy records the workers during the practice step at N
clients; its numbers are then not comparable), --reuse-database, --keep-database.
"""

import argparse
import json
import math
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "bench" / "load"
BENCH_VENV = HERE / ".venv"
RESULTS = HERE / "results"
MIN_DUE_CARDS = 5
APP_BIN = Path(sys.executable).parent
# The seeded learners' shared password: a throwaway, in a database that is dropped after the run.
PASSWORD = "load test pass phrase"  # noqa: S105
PRACTICE_REQUESTS = ("GET /practice/", "POST answer", "POST rate")
BARE_REQUEST = "GET /bench/bare/"
TARGET_RATIO = 0.20
TARGET_P99_MS = 150.0
TARGET_P99_CLIENTS = 8
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", default="1,2,4,8,16,32", help="concurrent clients per step")
    parser.add_argument("--measure", type=float, default=40, help="seconds measured per step")
    parser.add_argument("--settle", type=float, default=3, help="seconds after log-in, unmeasured")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=1, help="threads per worker (gthread)")
    parser.add_argument("--learners", type=int, default=200)
    parser.add_argument("--database", default="trainer_load")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--generator-cpus", default="", help="taskset list for locust, e.g. 1")
    parser.add_argument("--server-cpus", default="", help="taskset list for gunicorn, e.g. 0")
    parser.add_argument("--compare-workers", default="", help="e.g. 2,3,4,5: sweep, then exit")
    parser.add_argument("--profile", type=int, default=0, help="py-spy the step at N clients")
    parser.add_argument("--reuse-database", action="store_true", help="skip create and seed")
    parser.add_argument("--keep-database", action="store_true")
    options = parser.parse_args()
    steps = [int(clients) for clients in options.steps.split(",")]

    ensure_bench_venv()
    RESULTS.mkdir(exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="trainer-load-"))
    env = app_environment(options, workdir)
    print(machine_line(), flush=True)
    if not options.reuse_database:
        create_database(options.database)
        run([APP_BIN / "python", HERE / "seed.py", str(options.learners), PASSWORD], env)
    run([APP_BIN / "python", ROOT / "manage.py", "collectstatic", "--no-input", "-v0"], env)
    learners = learners_with_questions(options.database)
    print(f"{len(learners)} learners with {MIN_DUE_CARDS} or more cards due: the clients' log-ins")
    sampler = CpuSampler(options.database)
    sampler.start()
    try:
        if options.compare_workers:
            compare_workers(options, env, workdir, learners, sampler)
            return 0
        server = Server(options.workers, options.threads, options, env, workdir)
        try:
            rows = measure_steps(options, steps, server, workdir, learners, sampler)
        finally:
            server.stop()
        server_errors = server.log_errors()
    finally:
        sampler.stop()
        if not options.keep_database:
            drop_database(options.database)
        shutil.rmtree(workdir, ignore_errors=True)
    print_table(rows, options, server_errors)
    verdict = judge(rows, server_errors)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    record = {
        "date": stamp,
        "machine": machine_line(),
        "options": vars(options),
        "rows": rows,
        "server_errors": server_errors,
        "verdict": verdict,
    }
    (RESULTS / f"load-{stamp}.json").write_text(json.dumps(record, indent=1))
    print(f"numbers written to {(RESULTS / f'load-{stamp}.json').relative_to(ROOT)}")
    return 0 if all(verdict.values()) else 1


# Environment, database, server.


def ensure_bench_venv():
    if (BENCH_VENV / "bin" / "locust").exists():
        return
    print("creating bench/load/.venv (locust, py-spy)", flush=True)
    subprocess.run([sys.executable, "-m", "venv", BENCH_VENV], check=True)
    subprocess.run(
        [BENCH_VENV / "bin" / "pip", "install", "--quiet", "--disable-pip-version-check", "-r"]
        + [HERE / "requirements.txt"],
        check=True,
    )


def redis_reachable():
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def app_environment(options, workdir):
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_", "REDIS_", "SECURE_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="bench.load.settings",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{options.database}",
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        STATIC_ROOT=str(workdir / "static"),
        # A client without think time stands for many learners: the per-learner answer limit
        # (30 a minute) is raised so that it never refuses, but its check still runs each time.
        ANSWER_RATE_LIMIT="100000000",
        PYTHONDONTWRITEBYTECODE="1",
    )
    if redis_reachable():
        env["REDIS_URL"] = options.redis_url
    else:
        print("Redis is not reachable: the cache is per process (LocMemCache)")
    return env


def run(command, env):
    subprocess.run([str(part) for part in command], env=env, cwd=ROOT, check=True)


def admin_connection():
    return psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True)


def create_database(name):
    with admin_connection() as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def drop_database(name):
    with admin_connection() as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def learners_with_questions(database):
    """Learners with cards due now, the most first (the load generator needs a question at every
    GET). At least MIN_DUE_CARDS: a client answers a learner's cards a hundred times in a step, and
    the queue pauses a card answered twice in a row when no other card is due (the review loop
    never shows one card three times running), which the client would count as a failure."""
    with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{database}") as connection:
        rows = connection.execute(
            "SELECT u.username FROM auth_user u JOIN practice_card c ON c.user_id = u.id "
            "WHERE c.due_at <= now() GROUP BY u.username HAVING count(*) >= %s "
            "ORDER BY count(*) DESC, u.username",
            (MIN_DUE_CARDS,),
        ).fetchall()
    return [username for (username,) in rows]


class Server:
    """gunicorn with production settings on 127.0.0.1."""

    def __init__(self, workers, threads, options, env, workdir):
        self.workers, self.threads, self.env = workers, threads, env
        self.url = f"http://127.0.0.1:{options.port}"
        self.log = workdir / f"gunicorn-{workers}x{threads}.log"
        self.access_log = workdir / f"access-{workers}x{threads}.log"
        command = [
            str(APP_BIN / "gunicorn"),
            "trainer.wsgi",
            "--preload",  # as docker-compose.yml: published versions compiled before forking
            f"--bind=127.0.0.1:{options.port}",
            f"--workers={workers}",
            f"--access-logfile={self.access_log}",
            f"--error-logfile={self.log}",
        ]
        if threads > 1:
            command += ["--worker-class=gthread", f"--threads={threads}"]
        if options.server_cpus:
            command = ["taskset", "-c", options.server_cpus, *command]
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", options.port)) == 0:
                raise RuntimeError(f"port {options.port} is taken: choose another with --port")
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=log, stderr=log)
        self.wait_ready()

    def wait_ready(self):
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited; see {self.log}:\n{self.log.read_text()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz/", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("gunicorn did not answer /healthz/ within 60 s")

    @property
    def pid(self):
        return self.process.pid

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def log_errors(self):
        """Responses with status 5xx in the access log, and ERROR lines in the server log."""
        statuses = {}
        for line in self.access_log.read_text().splitlines():
            fields = line.split('" ')
            status = fields[1].split()[0] if len(fields) > 1 else "?"
            statuses[status] = statuses.get(status, 0) + 1
        errors = [line for line in self.log.read_text().splitlines() if " ERROR " in line]
        return {
            "statuses": statuses,
            "5xx": sum(count for status, count in statuses.items() if status.startswith("5")),
            "error_lines": len(errors),
            "first_errors": errors[:5],
        }


# CPU accounting from /proc.


def _process_stat(pid):
    """(parent pid, CPU ticks used: user + system) of a process, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return int(fields[1]), int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return None


def _cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


POSTGRES_BACKGROUND = ("checkpointer", "background writer", "walwriter", "autovacuum", "stats")


class CpuSampler(threading.Thread):
    """Every 0.25 s: the machine's CPU ticks (busy, steal, all) and each watched process's ticks.

    Groups: "server" (the gunicorn processes), "database" (backends of this database and
    PostgreSQL's background processes), "generator" (the locust process). The rest of the busy
    time is "other": the operating system and anything else running on this shared machine.
    """

    def __init__(self, database):
        super().__init__(daemon=True)
        self.database = database
        self.server_pid = None
        self.generator_pid = None
        self.samples = []
        self.postgres = {}  # pid: whether it is one of ours (a command line does not change)
        self.lock = threading.Lock()
        self.done = threading.Event()

    def run(self):
        while not self.done.is_set():
            sample = self.sample()
            with self.lock:
                self.samples.append(sample)
            self.done.wait(0.25)

    def stop(self):
        self.done.set()
        self.join()

    def sample(self):
        with open("/proc/stat") as stat:
            ticks = [int(value) for value in stat.readline().split()[1:9]]
        user, nice, system, idle, iowait, irq, softirq, steal = ticks
        groups = {"server": {}, "database": {}, "generator": {}}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            pid = int(entry)
            stat = _process_stat(pid)
            if stat is None:
                continue
            group = self.group_of(pid, stat[0])
            if group is not None:
                groups[group][pid] = stat[1]
        return {
            "time": time.time(),
            "busy": user + nice + system + irq + softirq,
            "steal": steal,
            "all": sum(ticks),
            "groups": groups,
        }

    def group_of(self, pid, parent):
        if pid == self.server_pid or (self.server_pid and parent == self.server_pid):
            return "server"
        if pid == self.generator_pid or (self.generator_pid and parent == self.generator_pid):
            return "generator"
        if pid not in self.postgres:
            command = _cmdline(pid)
            self.postgres[pid] = command.startswith("postgres:") and (
                f" {self.database} " in command
                or any(name in command for name in POSTGRES_BACKGROUND)
            )
        return "database" if self.postgres[pid] else None

    def between(self, start, end):
        """CPU shares over [start, end] in % of the whole machine, and CPU seconds per group."""
        with self.lock:
            samples = list(self.samples)
        first = min(samples, key=lambda sample: abs(sample["time"] - start))
        last = min(samples, key=lambda sample: abs(sample["time"] - end))
        total = last["all"] - first["all"]
        if total <= 0:
            return {}
        shares = {
            "busy": 100 * (last["busy"] - first["busy"]) / total,
            "steal": 100 * (last["steal"] - first["steal"]) / total,
        }
        seconds = {}
        for group, after in last["groups"].items():
            before = first["groups"][group]
            used = sum(value - before.get(pid, 0) for pid, value in after.items())
            shares[group] = 100 * used / total
            seconds[group] = used / CLOCK_TICKS
        shares["other"] = shares["busy"] - sum(shares[group] for group in last["groups"])
        return {"share": shares, "seconds": seconds, "span": last["time"] - first["time"]}


# Steps.


class LearnerPool:
    """Hands out learners so that each logs in once in the whole run (while there are enough)."""

    def __init__(self, names):
        self.names, self.next = names, 0

    def take(self, count):
        taken = [self.names[(self.next + n) % len(self.names)] for n in range(count)]
        self.next += count
        return taken


def run_step(kind, clients, options, server, workdir, pool, sampler, measure=None, quiet=False):
    """One locust process at `clients` concurrent clients; returns the step's numbers."""
    measure = options.measure if measure is None else measure
    out = workdir / f"{kind}-{clients}-{time.time():.0f}.json"
    env = dict(os.environ)
    env.update(
        BENCH_USERS=str(clients),
        BENCH_LEARNERS=",".join(pool.take(clients)) if kind == "practice" else "",
        BENCH_PASSWORD=PASSWORD,
        BENCH_SETTLE=str(options.settle),
        BENCH_MEASURE=str(measure),
        BENCH_OUT=str(out),
    )
    user_class = "PracticeLearner" if kind == "practice" else "BareClient"
    # The run-time bound is a safety net; the locustfile stops the step after its window.
    bound = math.ceil(120 + options.settle + measure + 30)
    command = [
        str(BENCH_VENV / "bin" / "locust"),
        f"--locustfile={HERE / 'locustfile.py'}",
        "--headless",
        f"--host={server.url}",
        f"--users={clients}",
        f"--spawn-rate={clients}",
        f"--run-time={bound}s",
        "--only-summary",
        "--loglevel=WARNING",
        "--exit-code-on-error=0",
        user_class,
    ]
    if options.generator_cpus:
        command = ["taskset", "-c", options.generator_cpus, *command]
    log = workdir / f"locust-{kind}-{clients}.log"
    profiler = None
    with open(log, "wb") as log_file:
        generator = subprocess.Popen(command, env=env, stdout=log_file, stderr=log_file)
        sampler.generator_pid = generator.pid
        if kind == "practice" and options.profile == clients:
            profiler = start_profiler(server, options, measure, clients)
        try:
            generator.wait(timeout=bound + 30)
        except subprocess.TimeoutExpired:
            generator.kill()
            generator.wait()
    if profiler is not None:
        profiler.wait()
    time.sleep(0.5)  # one more CPU sample past the window's end
    sampler.generator_pid = None
    if not out.exists():
        raise RuntimeError(f"the {kind} step at {clients} clients wrote nothing; see {log}")
    step = json.loads(out.read_text())
    row = summarise(kind, clients, step, sampler)
    if row["errors"]:
        lines = [line for line in log.read_text().splitlines() if "rror" in line]
        print(f"  {kind} at {clients} clients failed: " + "\n  ".join(lines[:5]), flush=True)
    if not quiet:
        print(step_line(row), flush=True)
    return row


def start_profiler(server, options, measure, clients):
    output = RESULTS / f"profile-{clients}-clients.txt"
    print(f"py-spy records the workers into {output.relative_to(ROOT)}", flush=True)
    return subprocess.Popen(
        [
            str(BENCH_VENV / "bin" / "py-spy"),
            "record",
            f"--pid={server.pid}",
            "--subprocesses",
            "--format=raw",
            f"--duration={math.ceil(options.settle + measure + 5)}",
            f"--output={output}",
            "--nonblocking",
            "--gil",  # only samples holding the GIL: where the CPU goes, not the waits
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def percentile(values, fraction):
    """Nearest-rank percentile of a sorted list."""
    if not values:
        return float("nan")
    return values[max(0, math.ceil(fraction * len(values)) - 1)]


def summarise(kind, clients, step, sampler):
    start, end = step["window"]
    seconds = end - start
    by_name = {}
    for _, name, elapsed, ok in step["samples"]:
        by_name.setdefault(name, []).append((elapsed, ok))
    latency = {}
    for name, values in by_name.items():
        times = sorted(elapsed for elapsed, _ in values)
        latency[name] = {
            "count": len(values),
            "failures": sum(1 for _, ok in values if not ok),
            "p50": percentile(times, 0.50),
            "p99": percentile(times, 0.99),
        }
    names = PRACTICE_REQUESTS if kind == "practice" else (BARE_REQUEST,)
    requests = sum(latency.get(name, {}).get("count", 0) for name in names)
    cpu = sampler.between(start, end)
    busy_seconds = sum(cpu.get("seconds", {}).get(group, 0) for group in ("server", "database"))
    logins = sorted(elapsed for _, _, elapsed, _ in step["logins"])
    return {
        "kind": kind,
        "clients": clients,
        "ready": step["ready"],
        "window": seconds,
        "requests": requests,
        "requests_per_s": requests / seconds if seconds else 0.0,
        "iterations_per_s": len(step["iterations"]) / seconds if seconds else 0.0,
        "latency": latency,
        "failures": step["failures"],
        "errors": sum(step["failures"].values()) + (clients - step["ready"]),
        "cpu": cpu,
        "server_cpu_ms_per_request": 1000 * busy_seconds / requests if requests else None,
        "login_p50_ms": percentile(logins, 0.5) if logins else None,
        "cpu_warnings": step["cpu_warnings"],
    }


def step_line(row):
    share = row["cpu"].get("share", {})
    parts = [
        f"{row['kind']:<8} {row['clients']:>2} clients  {row['requests_per_s']:7.1f} req/s",
    ]
    if row["kind"] == "practice":
        parts.append(f"{row['iterations_per_s']:6.1f} loops/s")
    for name, numbers in row["latency"].items():
        parts.append(f"{name} p50 {numbers['p50']:.1f} p99 {numbers['p99']:.1f} ms")
    parts.append(f"errors {row['errors']}")
    parts.append(
        "cpu % server {server:.0f} db {database:.0f} generator {generator:.0f} "
        "other {other:.0f} steal {steal:.0f}".format(**share)
        if share
        else "cpu ?"
    )
    return " | ".join(parts)


def warm_up(options, server, workdir, pool, sampler):
    """Not reported: the workers open their database connections and fill their caches (the
    published scenario versions are compiled before they start, trainer/wsgi.py)."""
    for kind, clients, seconds in (("practice", 8, 45), ("bare", 4, 5)):
        row = run_step(kind, clients, options, server, workdir, pool, sampler, seconds, True)
        if row["errors"]:
            print(f"warm-up: {row['errors']} errors in the {kind} step: {row['failures']}")


def measure_steps(options, steps, server, workdir, learners, sampler):
    sampler.server_pid = server.pid
    pool = LearnerPool(learners)
    print(f"gunicorn: {server.workers} workers x {server.threads} threads; warming up", flush=True)
    warm_up(options, server, workdir, pool, sampler)
    rows = []
    for clients in steps:
        for kind in ("practice", "bare"):
            rows.append(run_step(kind, clients, options, server, workdir, pool, sampler))
    return rows


def compare_workers(options, env, workdir, learners, sampler):
    """Practice and bare at 16 clients for each worker count, to choose the count."""
    pool = LearnerPool(learners)
    table = []
    for workers in [int(count) for count in options.compare_workers.split(",")]:
        server = Server(workers, options.threads, options, env, workdir)
        sampler.server_pid = server.pid
        try:
            warm_up(options, server, workdir, pool, sampler)
            for kind in ("practice", "bare"):
                row = run_step(kind, 16, options, server, workdir, pool, sampler)
                table.append((workers, row))
        finally:
            server.stop()
    print("\nworkers  kind      req/s   p50 ms   p99 ms (slowest request type)  errors")
    for workers, row in table:
        p50 = max(numbers["p50"] for numbers in row["latency"].values())
        p99 = max(numbers["p99"] for numbers in row["latency"].values())
        print(
            f"{workers:>7}  {row['kind']:<8} {row['requests_per_s']:6.1f}  {p50:7.1f}  "
            f"{p99:7.1f}{'':>30}{row['errors']:>6}"
        )


# Report.


def machine_line():
    cpu = "?"
    with open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres") as connection:
        server_version = connection.execute("SHOW server_version").fetchone()[0].split()[0]
    import django

    return (
        f"{datetime.now(UTC):%Y-%m-%d}, {os.cpu_count()} cores ({cpu}), "
        f"Python {sys.version.split()[0]}, Django {django.get_version()}, "
        f"PostgreSQL {server_version}, load average {os.getloadavg()[0]:.1f} at the start"
    )


def print_table(rows, options, server_errors):
    print()
    print(
        f"gunicorn {options.workers} workers x {options.threads} threads, "
        f"{options.measure:.0f} s measured per step, clients without think time"
    )
    header = (
        "clients  practice   loops  bare req/s  ratio | p50/p99 ms: GET /practice/  POST answer"
        "   POST rate   bare | errors | CPU % server db gen other steal (practice / bare)"
    )
    print(header)
    by_clients = {}
    for row in rows:
        by_clients.setdefault(row["clients"], {})[row["kind"]] = row
    for clients, pair in by_clients.items():
        practice, bare = pair["practice"], pair["bare"]
        ratio = practice["requests_per_s"] / bare["requests_per_s"]

        def cell(row, name):
            numbers = row["latency"].get(name)
            return f"{numbers['p50']:5.1f}/{numbers['p99']:<6.1f}" if numbers else "     -/-     "

        def cpu(row):
            share = row["cpu"].get("share")
            if not share:
                return "?"
            groups = ("server", "database", "generator", "other", "steal")
            return " ".join(f"{share[group]:3.0f}" for group in groups)

        print(
            f"{clients:>7}  {practice['requests_per_s']:7.1f}  {practice['iterations_per_s']:6.1f}"
            f"  {bare['requests_per_s']:10.1f}  {ratio:5.0%} |  "
            + "  ".join(cell(practice, name) for name in PRACTICE_REQUESTS)
            + f"  {cell(bare, BARE_REQUEST)} | {practice['errors'] + bare['errors']:>6} | "
            f"{cpu(practice)} / {cpu(bare)}"
        )
    print(
        "server CPU per request (gunicorn + database) [ms]: "
        + ", ".join(
            f"{row['kind']} {row['clients']}: {row['server_cpu_ms_per_request']:.2f}"
            for row in rows
            if row["server_cpu_ms_per_request"] is not None
        )
    )
    print(
        f"access log statuses: {server_errors['statuses']}; "
        f"ERROR lines in the server log: {server_errors['error_lines']}"
    )
    for line in server_errors["first_errors"]:
        print("  " + line)


def judge(rows, server_errors):
    by_clients = {}
    for row in rows:
        by_clients.setdefault(row["clients"], {})[row["kind"]] = row
    errors = sum(row["errors"] for row in rows) + server_errors["5xx"]
    ratios = {
        clients: pair["practice"]["requests_per_s"] / pair["bare"]["requests_per_s"]
        for clients, pair in by_clients.items()
    }
    verdict = {"zero errors": errors == 0 and server_errors["error_lines"] == 0}
    verdict[f"practice at least {TARGET_RATIO:.0%} of the floor at every step"] = all(
        ratio >= TARGET_RATIO for ratio in ratios.values()
    )
    at_target = by_clients.get(TARGET_P99_CLIENTS, {}).get("practice")
    if at_target is not None:
        worst = max(at_target["latency"][name]["p99"] for name in PRACTICE_REQUESTS)
        target = f"p99 under {TARGET_P99_MS:.0f} ms at {TARGET_P99_CLIENTS} clients"
        verdict[target] = worst < TARGET_P99_MS
    print()
    print(
        "ratio = practice requests/s (GET /practice/ + POST answer + POST rate) / bare requests/s,"
        " same clients"
    )
    for clients, ratio in ratios.items():
        print(f"  {clients:>2} clients: {ratio:.0%}")
    if at_target is not None:
        print(f"  slowest practice p99 at {TARGET_P99_CLIENTS} clients: {worst:.1f} ms")
    print(f"  errors: {errors} (failed requests + clients not logged in + 5xx in the access log)")
    for name, met in verdict.items():
        print(f"{'MET   ' if met else 'MISSED'} {name}")
    return verdict


if __name__ == "__main__":
    sys.exit(main())
