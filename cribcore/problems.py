"""The failures a command line must recognise before anything heavy is loaded: a plugin's hook that
failed, and the warning that a record is replayed under other plugin versions. They live here, with no
imports, so that ``cribbage`` can catch them without loading the plugin manager or the records (its
commands start at once); `cribcore.pluginmanager` and `cribcore.records` export them too."""

from __future__ import annotations

__all__ = ["PackagedProfileWarning", "PluginError", "PluginVersionWarning"]


class PluginError(Exception):
    """A plugin's hook failed in a game: it raised, or returned a result of the wrong type.

    The message is one line naming the plugin, the hook and the error; `plugin`, `hook` and `error`
    hold them apart. The game's state may be half-changed by the action that was being applied.
    """

    def __init__(self, plugin: str, hook: str, error: str) -> None:
        super().__init__(f"plugin {plugin!r}: {hook} {error}")
        self.plugin = plugin
        self.hook = hook
        self.error = error

    def __reduce__(self) -> tuple[type[PluginError], tuple[str, str, str]]:
        # So that it crosses process boundaries (``cribbage simulate`` runs games in workers).
        return (type(self), (self.plugin, self.hook, self.error))


class PluginVersionWarning(UserWarning):
    """A record is replayed under other versions of its plugins than it was played with."""


class PackagedProfileWarning(UserWarning):
    """A profile an installed package ships cannot be used: a built-in profile has its name, several
    packages register it, or it does not load (`cribcore.packaged_profiles`)."""
