"""Components (buttons, selects) drawn from a table state they are given; never the service.

One module per job: ``buttons`` (the live table's, the posts', the ephemeral offers'), ``panel``
(a player's private hand panel), ``items`` (the persistent components and their custom ids) and
``registry`` (what a click runs: ``handles``, registered from ``bot.clicks`` and the cogs);
``history`` and ``leaderboard`` (the components of /history, the replays and the leaderboard,
imported from their modules). This package hands
their public names on, so ``bot.views.hand_panel`` and the like keep working.
"""

from bot.views.buttons import (
    HAND_POST_ID,
    LEADERBOARD_ID,
    abandon_view,
    fill_view,
    game_over_view,
    hand_post_view,
    leave_view,
    table_view,
)
from bot.views.items import (
    DYNAMIC_ITEMS,
    TABLE_ACTIONS,
    BidSelect,
    CardButton,
    PanelButton,
    PassSelect,
    TableButton,
    card_id,
)
from bot.views.panel import card_rows, hand_panel
from bot.views.registry import APOLOGY, NOT_READY, handles

__all__ = [
    "APOLOGY",
    "DYNAMIC_ITEMS",
    "HAND_POST_ID",
    "LEADERBOARD_ID",
    "NOT_READY",
    "TABLE_ACTIONS",
    "BidSelect",
    "CardButton",
    "PanelButton",
    "PassSelect",
    "TableButton",
    "abandon_view",
    "card_id",
    "card_rows",
    "fill_view",
    "game_over_view",
    "hand_panel",
    "hand_post_view",
    "handles",
    "leave_view",
    "table_view",
]
