"""Settings of the load benchmark: the production settings, plus the bare view's URL.

Everything comes from `trainer.settings` (so from the same environment variables as production);
only the URL configuration differs, adding `/bench/bare/` (bench/load/urls.py) in front of the
application's URLs without touching them.
"""

from trainer.settings import *  # noqa: F403

ROOT_URLCONF = "bench.load.urls"
