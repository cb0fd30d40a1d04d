"""The league service: runs league nights from the database, whatever restarts in between.

Everything a night does is driven by ``tick()``: it looks at the stored leagues and nights and does
what is due (open check-in, start the night, call time on a round, record results that finished
while the bot was down, seat the next round, close the night). Each step is a compare-and-set on
the stored night or round, so a step runs once even when two ticks (or a tick and a game-finished
callback) race, and a restart simply resumes at the next tick.

Discord and the table machinery are behind :class:`LeagueGateway`; the cog calls the public
methods and answers :class:`LeagueRefusal` messages ephemerally.

The service is put together from one module per job, each a layer over the one below:
``core`` (state, stored settings, the scheduled event) -> ``checkin`` -> ``results`` (standings
and posts) -> ``rounds`` (seating, tables, results) -> ``nights`` (the tick loop) -> ``admin``;
``signup`` (members and teams) sits on ``core``.
"""

from __future__ import annotations

from .admin import AdminMixin
from .gateway import TICK_SECONDS, LeagueGateway, LeagueRefusal, NightView, TableOutcome, seating_label
from .signup import SignupMixin

__all__ = [
    "TICK_SECONDS",
    "LeagueGateway",
    "LeagueRefusal",
    "LeagueService",
    "NightView",
    "TableOutcome",
    "seating_label",
]


class LeagueService(AdminMixin, SignupMixin):
    """Runs every league of the bot: the scheduler, the commands of players and admins."""
