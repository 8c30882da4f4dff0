"""Print the project's pinned requirements from pyproject.toml, one per line (with the dev extras).

`make` feeds them to pip together with requirements.lock, which pins everything they pull in.
"""

import sys
import tomllib
from pathlib import Path

project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())["project"]
lines = list(project["dependencies"])
for extra in sys.argv[1:]:
    lines += project["optional-dependencies"][extra]
print("\n".join(lines))
