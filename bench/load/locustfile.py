"""Locust users of the load benchmark: learners in the practice loop, and the bare view.

Run by bench/load/run.py, one locust process per step (`locust -f locustfile.py --headless
PracticeLearner` or `BareClient`), with its parameters in environment variables:

    BENCH_USERS      concurrent clients of this step
    BENCH_LEARNERS   usernames to log in as, comma-separated (one per PracticeLearner)
    BENCH_PASSWORD   their password
    BENCH_SETTLE     seconds to wait once every client is ready (logged in) before measuring
    BENCH_MEASURE    seconds to measure; then the step stops itself
    BENCH_OUT        where to write the step's samples (JSON)

Clients have no think time: each sends its next request as soon as the previous one is answered,
so N clients keep N requests in flight (a closed loop), and throughput at rising N shows where
the server saturates.

A practice learner logs in once (the CSRF token from the login form), then loops: GET /practice/
(the question: its attempt id, part names and CSRF token), POST the answers as htmx does (the result
partial, with the rating form), POST one of the ratings the result offers as a plain form (302 back
to /practice/, which the next GET follows). The answers are plausible numbers, not the keys (nothing
reveals a key before grading); grading, recording and scheduling run the same for any answer, and a
wrong answer also runs misconception matching. An SM-2 card answered wrongly is re-drilled the same
day, so a learner never runs out of questions. A response without what the next request needs is a
failure. The bare client only GETs /bench/bare/.
"""

import json
import os
import random
import re
import time

import gevent
from locust import FastHttpUser, constant, events, task

USERS = int(os.environ.get("BENCH_USERS", "1"))
LEARNERS = [name for name in os.environ.get("BENCH_LEARNERS", "").split(",") if name]
PASSWORD = os.environ.get("BENCH_PASSWORD", "")
SETTLE = float(os.environ.get("BENCH_SETTLE", "3"))
MEASURE = float(os.environ.get("BENCH_MEASURE", "40"))
OUT = os.environ.get("BENCH_OUT", "samples.json")
READY_TIMEOUT = 120  # [s] for every client to log in

CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
ANSWER_ACTION = re.compile(r'action="/practice/attempts/(\d+)/answer/"')
PART_FIELD = re.compile(r'name="part-([^"]+)"')
TAG = re.compile(r"<[^>]+>")
RATE_ACTION = re.compile(r'action="/practice/reviews/(\d+)/rate/"')
# The rating buttons of a result: Again, Hard, Good, Easy, and "Next card" without a rating (value
# ""). Easy is disabled after an answer with a wrong part: the server refuses it, and the graded
# card would stay on /practice/ until rated.
RATING_BUTTON = re.compile(r'<button type="submit" name="rating" value="(\d?)"([^>]*)>')


class Step:
    """What this process measures: when every client was ready, the window, the samples."""

    assigned = 0
    ready = 0
    ready_at = None
    window = None
    samples = []  # (end time [s since epoch], request name, response time [ms], ok)
    iterations = []  # end times of completed practice loops
    cpu_warnings = 0
    failures = {}  # request name or "exception": count, over the whole step


@events.request.add_listener
def record(name, response_time, exception, **kwargs):
    Step.samples.append((time.time(), name, response_time, exception is None))
    if exception is not None:
        Step.failures[name] = Step.failures.get(name, 0) + 1


@events.user_error.add_listener
def note_exception(user_instance, exception, tb, **kwargs):
    Step.failures["exception"] = Step.failures.get("exception", 0) + 1


@events.cpu_warning.add_listener
def note_cpu_warning(**kwargs):
    Step.cpu_warnings += 1


@events.test_start.add_listener
def start_window(environment, **kwargs):
    gevent.spawn(_measure, environment)


def _measure(environment):
    deadline = time.time() + READY_TIMEOUT
    while Step.ready < USERS and time.time() < deadline:
        gevent.sleep(0.05)
    Step.ready_at = time.time()
    gevent.sleep(SETTLE)
    start = time.time()
    gevent.sleep(MEASURE)
    Step.window = (start, time.time())
    environment.runner.quit()


@events.quitting.add_listener
def write_samples(environment, **kwargs):
    start, end = Step.window or (0.0, 0.0)
    with open(OUT, "w") as out:
        json.dump(
            {
                "users": USERS,
                "ready": Step.ready,
                "ready_at": Step.ready_at,
                "window": [start, end],
                "samples": [sample for sample in Step.samples if start <= sample[0] < end],
                "iterations": [at for at in Step.iterations if start <= at < end],
                "logins": [sample for sample in Step.samples if sample[1] == "POST login"],
                "cpu_warnings": Step.cpu_warnings,
                "failures": Step.failures,
            },
            out,
        )


def said(html):
    """What the page told the learner, shortened, for the failure report: the run keeps no
    response bodies."""
    card = html.split('id="card"', 1)[-1].partition(">")[2] if 'id="card"' in html else html
    text = " ".join(TAG.sub(" ", card).split())
    return text[:160]


def plausible_number():
    """A number like the ones learners type: three significant figures, 1 to 10,000.

    Not below 1: a part that asks for a percentage refuses 0.109 as a fraction typed by mistake
    ("type 10.9 or 10.9%"), records nothing and offers no rating."""
    value = float(f"{10 ** random.uniform(0, 4):.3g}")
    return f"{value:g}"


class PracticeLearner(FastHttpUser):
    wait_time = constant(0)

    def on_start(self):
        self.username = LEARNERS[Step.assigned % len(LEARNERS)] if LEARNERS else ""
        Step.assigned += 1
        self.origin = self.host.rstrip("/")
        with self.client.get("/accounts/login/", name="GET login", catch_response=True) as page:
            token = CSRF_FIELD.search(page.text or "")
            if page.status_code != 200 or token is None:
                page.failure(f"login form: status {page.status_code}, no CSRF token")
                return
        form = {
            "csrfmiddlewaretoken": token.group(1),
            "username": self.username,
            "password": PASSWORD,
            "next": "/practice/",
        }
        with self.client.post(
            "/accounts/login/",
            data=form,
            name="POST login",
            headers={"Origin": self.origin},
            allow_redirects=False,
            catch_response=True,
        ) as response:
            if response.status_code != 302:
                response.failure(f"log-in of {self.username}: status {response.status_code}")
                return
        Step.ready += 1

    @task
    def practise(self):
        with self.client.get("/practice/", name="GET /practice/", catch_response=True) as page:
            html = page.text or ""
            attempt = ANSWER_ACTION.search(html)
            token = CSRF_FIELD.search(html)
            parts = PART_FIELD.findall(html)
            if page.status_code != 200 or attempt is None or token is None or not parts:
                page.failure(
                    f"no question for {self.username}: status {page.status_code}: {said(html)}"
                )
                return
        token = token.group(1)
        answers = {f"part-{part}": plausible_number() for part in parts}
        with self.client.post(
            f"/practice/attempts/{attempt.group(1)}/answer/",
            data={"csrfmiddlewaretoken": token, **answers},
            name="POST answer",
            headers={"HX-Request": "true", "X-CSRFToken": token, "Origin": self.origin},
            catch_response=True,
        ) as result:
            review = RATE_ACTION.search(result.text or "")
            ratings = [
                value
                for value, attributes in RATING_BUTTON.findall(result.text or "")
                if "disabled" not in attributes
            ]
            if result.status_code != 200 or review is None or not ratings:
                result.failure(
                    f"no result for {self.username}: status {result.status_code}: "
                    f"{said(result.text or '')}"
                )
                return
        with self.client.post(
            f"/practice/reviews/{review.group(1)}/rate/",
            data={"csrfmiddlewaretoken": token, "rating": random.choice(ratings)},
            name="POST rate",
            headers={"Origin": self.origin},
            allow_redirects=False,
            catch_response=True,
        ) as rated:
            if rated.status_code != 302 or rated.headers.get("Location") != "/practice/":
                rated.failure(f"rating of {self.username}: status {rated.status_code}")
                return
        Step.iterations.append(time.time())


class BareClient(FastHttpUser):
    wait_time = constant(0)

    def on_start(self):
        Step.ready += 1

    @task
    def bare(self):
        with self.client.get("/bench/bare/", name="GET /bench/bare/", catch_response=True) as r:
            if r.status_code != 200 or r.content != b"ok\n":
                r.failure(f"bare view: status {r.status_code}")
