"""A private answer that names a button of the public table names it as the table labels it (the
table's language), while the rest of the answer is in the reader's language (issue 32)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.clicks import PANEL_ONLY
from bot.i18n import N_, ButtonName, _, buttons_in, gettext, names_buttons, render
from bot.safe import _text


def test_a_button_is_named_in_the_public_language_inside_a_private_text() -> None:
    assert names_buttons(PANEL_ONLY) and not names_buttons(_("Done."))
    polish_label = gettext("pl", "My hand")
    assert polish_label != "My hand"
    assert f"**{polish_label}**" in render(PANEL_ONLY, "pl")  # no public language known: the reader's
    with buttons_in("en"):
        text = render(PANEL_ONLY, "pl")
    assert "**My hand**" in text and text.startswith("Karty")
    assert render(PANEL_ONLY, "pl") == render(PANEL_ONLY, "pl")  # the block leaves nothing behind
    assert f"**{polish_label}**" in render(PANEL_ONLY, "pl")


async def test_an_ephemeral_answer_names_the_tables_button_as_the_table_shows_it() -> None:
    async def public_language(interaction: Any) -> str:
        return "cs"

    interaction = SimpleNamespace(
        id=1, locale="pl", guild_locale="en-US", client=SimpleNamespace(public_language=public_language)
    )
    msg = _("The game hasn't started yet: the host presses **%(button)s**.", button=ButtonName(N_("Start")))
    text = await _text(interaction, msg, ephemeral=True)  # type: ignore[arg-type]
    assert text is not None
    assert f"**{gettext('cs', 'Start')}**" in text and text.startswith("Gra jeszcze")
