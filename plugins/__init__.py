"""cribcore's built-in plugins, installed as the ``cribcore_plugins`` package.

Each module is one plugin, registered in the ``cribcore.plugins`` entry-point group exactly as a
third-party plugin would be (see ``pyproject.toml``), and loaded only when a profile names it.
"""
