"""The ``cribbage`` command line (see `cribcore.cli.main`). It holds no rules of its own: every command
drives the engine, the scorers or the records, and only parses, narrates and draws."""
