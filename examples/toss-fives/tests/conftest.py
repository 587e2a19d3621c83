"""Run from a checkout without installing the plugin: its module is one folder up. cribcore's fixtures
for plugin authors are named here, before a test module imports `cribcore.testing` (named in a test
module that imports it, pytest warns that it cannot rewrite its assertions)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

pytest_plugins = ["cribcore.testing"]
