"""A client of a Dask cluster, for the work that can be spread over one (`cribbage simulate`, `cribbage
lab`, `cribbage tables build`).

Dask is an optional extra (``pip install 'cribcore[dask]'``) and untyped: it is imported by name, only
when a command is given ``--dask ADDRESS``.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["dask_client", "distributed_module"]


def distributed_module() -> Any:
    """Dask's ``distributed`` module; `ValueError` in one line when it is not installed."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise ValueError("--dask needs Dask's distributed scheduler: pip install 'cribcore[dask]'") from None


def dask_client(address: str) -> Any:
    """A client of the Dask scheduler at ``address`` (not set as the default client); `ValueError` in
    one line when Dask is missing, the address is malformed or nothing answers there."""
    distributed = distributed_module()
    try:
        # Check the address first: a client that fails on a malformed one lingers until it times out.
        scheme, _ = distributed.comm.parse_address(address)
        if scheme != "inproc":
            distributed.comm.get_address_host_port(address)
    except ValueError as exc:
        raise ValueError(f"--dask: not a scheduler address: {address!r} ({exc})") from None
    try:
        return distributed.Client(address, timeout="10s", set_as_default=False)
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
