"""cribcore's built-in profiles (the ``*.toml`` files beside this module), installed as ``cribcore_profiles``."""

from pathlib import Path

DIRECTORY = Path(__file__).resolve().parent
"""Where the built-in profile files are, in a checkout or an installed wheel alike."""
