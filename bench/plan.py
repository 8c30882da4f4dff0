"""Time each demo update of /plan/: the htmx request for a page's demo partial.

Run: .venv/bin/python bench/plan.py [repeats]

Target (issue 7): every demo update is one small request under 20 ms median server time. Each
demo's partial (/plan/pages/<n>/demo/ with HX-Request) is requested through the Django test
client as a logged-in learner, with production settings (DEBUG off, so templates are cached),
on a throwaway SQLite test database, after warm-up requests. The client time covers the whole
server side: middleware, the session and user queries, validating the form, the estimator,
the SVG charts and the template. "compute" is the demo alone (form, estimator, charts and
template, no request). Alternating between the default inputs and a changed set, so nothing is
served from a cache of results (there is none, but this makes sure).
"""

import os
import statistics
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "trainer.settings")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-" + "b" * 40)
os.environ.pop("DEBUG", None)
# WhiteNoise warns that collectstatic has not run; the demos serve no static files.
warnings.filterwarnings("ignore", message="No directory at")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.runner import DiscoverRunner  # noqa: E402

from trainer.curriculum import load_curriculum  # noqa: E402
from trainer.plan import demos  # noqa: E402

# A second input set per demo, so successive requests differ.
CHANGED = {
    "ttft_robot": {"model": "llama-3-70b", "gpu": "h200", "weight_format": "fp8"},
    "kv_cache": {"users": "250", "block_size": "32"},
    "batching": {"distribution": "pareto", "batch_size": "64"},
    "prefix_cache": {"replicas": "16"},
    "speculative": {"acceptance_rate": "0.6", "batch_size": "16"},
    "gpu_formats": {"model": "mixtral-8x7b", "batch_size": "64"},
    "roofline": {"phase": "prefill", "tokens": "8192"},
    "cost_metrics": {"hit_rate": "80"},
    "canary_autoscale": {"canary_percent": "1.5"},
    "moe_capacity": {"expert_parallel": "16", "daily_users": "2000000"},
}


def median_and_p95(samples):
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))]


def main(repeats):
    settings.SECURE_SSL_REDIRECT = False
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Not setup_test_environment(): it instruments every template render so that tests can
    # inspect contexts, which is test-client work, not server time.
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    runner = DiscoverRunner(verbosity=0)
    old_config = runner.setup_databases()
    try:
        from django.contrib.auth import get_user_model

        user = get_user_model().objects.create_user("bench", password="bench pass 1")
        client = Client()
        client.force_login(user)
        pages = {page.demo: page.number for page in load_curriculum().pages}
        print(f"{'demo':<18}{'client median':>15}{'p95':>9}{'compute median':>16}   (ms)")
        worst = 0.0
        for key in demos.MODULES:
            url = f"/plan/pages/{pages[key]}/demo/"
            queries = [{}, CHANGED[key]]
            for query in queries * 10:  # warm up: templates, imports, numpy
                assert client.get(url, query, headers={"HX-Request": "true"}).status_code == 200
            requests, computes = [], []
            for index in range(repeats):
                query = queries[index % 2]
                start = time.perf_counter()
                response = client.get(url, query, headers={"HX-Request": "true"})
                requests.append((time.perf_counter() - start) * 1e3)
                assert response.status_code == 200 and b"<data value=" in response.content
                start = time.perf_counter()
                render_to_string("plan/page.html#demo", demos.run(key, query))
                computes.append((time.perf_counter() - start) * 1e3)
            median, p95 = median_and_p95(requests)
            worst = max(worst, median)
            print(f"{key:<18}{median:>15.2f}{p95:>9.2f}{statistics.median(computes):>16.2f}")
        print(f"slowest median {worst:.2f} ms (target < 20 ms); {repeats} requests per demo")
    finally:
        runner.teardown_databases(old_config)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
