"""cribcore's built-in profiles: the ``*.toml`` files beside this module, installed as ``cribcore_profiles``.

`cribcore.profiles` finds them with `importlib.resources`, so they are found from any directory.
"""
