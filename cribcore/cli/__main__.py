"""``python -m cribcore.cli``: the same as the ``cribbage`` command."""

import sys

from .main import main

sys.exit(main())
