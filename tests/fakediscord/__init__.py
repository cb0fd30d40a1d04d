"""Test-only parts of the fake Discord: the pytest fixture (``plugin.py``) and the network guard.

The fake itself ships with the bot as :mod:`bot.sandbox.fake` (the sandbox uses it too); its public
names (``__all__``, defined there once) are re-exported here, so ``from tests.fakediscord import
FakeDiscord`` keeps working.
"""

from bot.sandbox.fake import *  # noqa: F403
from bot.sandbox.fake import __all__ as __all__
