"""The version of cribcore, as a constant: reading it loads nothing else (``cribbage --version`` is instant).
A test checks it against the installed package's metadata, which pyproject.toml sets."""

__all__ = ["VERSION"]

VERSION = "0.2.0.dev0"
