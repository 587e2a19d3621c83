"""Sphinx configuration of cribcore's documentation: the Markdown guides in this folder (MyST) and the
API reference generated from the docstrings (autodoc).

Build it with ``pip install -e '.[docs]'`` and ``python -m sphinx -W -b html docs OUT``.
"""

from __future__ import annotations

from typing import Any

from cribcore.version import VERSION

project = "cribcore"
author = "the cribcore maintainers"
copyright = "the cribcore maintainers, MIT licence"
release = VERSION
version = ".".join(VERSION.split(".")[:2])

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.viewcode"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
# Sphinx keeps the page name "search" for its own search page: the guide search.md is play-search.
exclude_patterns = ["OUT", "_build", "**/.venv", "search.md"]

# Docstrings write `Name` for a name of the API: link it where it is documented, plain text otherwise.
default_role = "py:obj"
# Every name a module exports (its __all__), in the order of the source; new names appear unasked.
autodoc_default_options = {
    "members": True,
    "undoc-members": True,
    "member-order": "bysource",
    "show-inheritance": True,
}
autodoc_typehints = "signature"
autodoc_class_signature = "mixed"
autodoc_preserve_defaults = True
python_use_unqualified_type_names = True

# The guides link to files of the repository (examples, sources) that are not pages of this site.
myst_heading_anchors = 3
suppress_warnings = ["myst.xref_missing"]

html_theme = "furo"
html_title = f"cribcore {release}"


def _play_search_links(app: object, docname: str, source: list[str]) -> None:
    """Links to the guide search.md lead to its page, play-search (the guides link it by file)."""
    source[0] = source[0].replace("](search.md", "](play-search.md")


def setup(app: Any) -> None:
    app.connect("source-read", _play_search_links)
