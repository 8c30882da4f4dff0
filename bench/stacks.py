"""Where a request's CPU goes: a py-spy profile of bench/practice.py, summarised per request type.

Record, then summarise (py-spy lives in bench/load/.venv, which bench/load/run.py creates):

    bench/load/.venv/bin/py-spy record --gil --rate 250 --subprocesses --format raw \\
        --output var/profile.txt -- .venv/bin/python bench/practice.py --database postgres
    .venv/bin/python bench/stacks.py var/profile.txt

`--gil` keeps only samples holding the GIL: Python's CPU, without waits (and without SQLite's
and psycopg's C code, which release it).

Only samples inside a timed request count (under `Recorder.__call__`, not the warm-up's
`Warming.__call__`); the request type is the line of bench/practice.py that sent it. For each
type: the share of its samples that have a given part of the code on the stack (so the shares
overlap and do not add up to 100%).
"""

import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

BENCH = Path(__file__).resolve().parent / "practice.py"

VIEWS = (
    r"^(practice|answer|rate) \(trainer/practice/views|^home \(trainer/dashboard/views"
    r"|^bare \(bench/load/urls"
)
# (label, pattern matched against one frame "function (file:line)"); inclusive.
PARTS = [
    ("session: load", r"^SessionStore\.load |^SessionBase\._get_session "),
    ("session: save", r"^SessionStore\.save |^SessionBase\.save "),
    ("user: load (auth.get_user)", r"^get_user \(django/contrib/auth/__init__"),
    ("mock check (MockInProgressMiddleware)", r"^MockInProgressMiddleware\.process_view "),
    ("connection: open, close, health check", r"^close_old_connections |\.connect |\.is_usable "),
    ("context processors", r"^RequestContext\.bind_template "),
    ("  roles", r"^roles \(trainer/context_processors"),
    ("  csrf / csp / messages", r"^(csrf|csp|messages) \(django/"),
    ("template rendering", r"^Template\.render \(django/template/base"),
    ("  {% url %}", r"^URLNode\.render "),
    ("  prose filter", r"^prose \(trainer/practice/templatetags"),
    ("ORM, any (django/db/)", r"\(django/db/"),
    ("  SQL compile (SQLCompiler.as_sql)", r"^SQLCompiler\.as_sql "),
    ("  query building (QuerySet.filter etc.)", r"^(QuerySet\._filter_or_exclude|Query\.add_q) "),
    ("  execute (cursor.execute)", r"^CursorWrapper\._execute |^CursorWrapper\.execute "),
    ("  model instances (Model.__init__, from_db)", r"^Model\.(__init__|from_db) "),
    ("  transaction (atomic)", r"^Atomic\.__(enter|exit)__ "),
    ("draw + grade (problems/engine)", r"\(problems/engine/"),
    ("scheduling (trainer/srs)", r"\(trainer/srs/"),
    ("cache calls (session, rate limit)", r"\(django/core/cache/"),
    ("the view function", VIEWS),
]
HANDLER = r"^ClientHandler\.__call__ "


def request_lines():
    """{line number in bench/practice.py: request name} for each `record(...)` call."""
    names = {
        "PRACTICE[0]": "GET /practice/",
        "PRACTICE[1]": "POST answer",
        "PRACTICE[2]": "POST rate",
        "DASHBOARD": "GET / (dashboard)",
        "BARE": "GET /bench/bare/",
    }
    lines = {}
    for number, line in enumerate(BENCH.read_text().splitlines(), start=1):
        found = re.search(r"record\((PRACTICE\[\d\]|DASHBOARD|BARE)", line)
        if found:
            lines[number] = names[found.group(1)]
    return lines


def main(path):
    lines = request_lines()
    totals = Counter()
    parts = defaultdict(Counter)
    outside_handler = Counter()
    patterns = [(label, re.compile(pattern)) for label, pattern in PARTS]
    handler = re.compile(HANDLER)
    for row in Path(path).read_text().splitlines():
        stack, _, count = row.rpartition(" ")
        frames = stack.split(";")
        if not any(frame.startswith("Recorder.__call__ (practice.py") for frame in frames):
            continue
        if any(frame.startswith("Warming.__call__ (practice.py") for frame in frames):
            continue
        caller = next((f for f in frames if f.startswith("one_round (practice.py:")), None)
        name = lines.get(int(caller.rsplit(":", 1)[1].rstrip(")"))) if caller else None
        if name is None:
            continue
        count = int(count)
        totals[name] += count
        if not any(handler.search(frame) for frame in frames):
            outside_handler[name] += count
        for label, pattern in patterns:
            if any(pattern.search(frame) for frame in frames):
                parts[name][label] += count
    names = [name for name in lines.values() if totals[name]]
    names = list(dict.fromkeys(names))
    print(f"{'':<44}" + "".join(f"{name.split(' (')[0]:>16}" for name in names))
    print(f"{'samples':<44}" + "".join(f"{totals[name]:>16}" for name in names))
    for label, _ in PARTS:
        cells = "".join(f"{100 * parts[name][label] / totals[name]:>15.0f}%" for name in names)
        print(f"{label:<44}{cells}")
    cells = "".join(f"{100 * outside_handler[name] / totals[name]:>15.0f}%" for name in names)
    print(f"{'test client, outside the handler':<44}{cells}")


if __name__ == "__main__":
    main(sys.argv[1])
