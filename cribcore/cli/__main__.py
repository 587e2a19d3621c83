"""``python -m cribcore.cli``: the same as the ``cribbage`` command."""

import sys

from .entry import main

sys.exit(main())
