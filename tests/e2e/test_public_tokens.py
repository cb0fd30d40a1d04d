"""A click on the table's live message lends the publisher its token: the public message is then
redrawn through the interaction route (not counted by Discord's global limit), never with a hand,
and the player's panel goes to an ephemeral follow-up. Only Discord is fake."""

from __future__ import annotations

from fakediscord import RecordedRequest
from tests.e2e.harness import Spades

CHANNEL_EDIT = "/channels/{channel_id}/messages/{message_id}"
TOKEN_EDIT = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"


def by_token(q: RecordedRequest, token: str) -> bool:
    """An edit of ``@original`` through the interaction token ``token``."""
    return q.route == TOKEN_EDIT and q.params.get("webhook_token") == token


async def test_a_click_on_the_live_message_redraws_it_through_its_token_with_no_bot_token_request(
    spades: Spades,
) -> None:
    fake = spades.fake
    async with spades.running(speed=20):
        alice = spades.users["alice"]
        await spades.open_table(alice)
        r = await spades.slash(alice, "spades start", fill=True)
        assert r.error is None, r.error
        # the bots bid until her turn; the table message names her (she has not moved yet, so it is
        # not a version from before a move of hers)
        await spades.wait_for(lambda: spades.acting_humans() == [alice], what="her turn")
        await spades.settle()  # the bots wait for her: nothing changes until she acts
        live = spades.live()
        before = live.content
        start = len(fake.requests)

        r = await fake.click(alice, live, label="My hand")
        # a deferred update of the public message (left as it was), the panel in an ephemeral follow-up
        assert r.type == 6 and r.message is live and live.content == before
        panel = await spades.panel_of(r)
        assert panel.ephemeral and panel.buttons
        token = r.record.token

        # she acts from her panel: the live message follows, through her click's token
        seen = len(live.history)
        await spades.decide(alice, panel)
        await spades.wait_for(lambda: len(live.history) > seen, what="the live message redrawn")
        window = fake.requests[start:]
        through_token = [q for q in window if by_token(q, token)]
        assert through_token and through_token[0].status == 200
        first = window.index(through_token[0])
        # up to that redraw the bot token was not used at all: the click and the public redraw were free
        assert [q for q in window[: first + 1] if q.bot_token] == []
        assert not [q for q in window[:first] if q.route == CHANNEL_EDIT]
        assert through_token[0].json["content"].startswith("♠ **Spades**")
        await spades.check_public()  # no version of the public message shows a card still held

        # the panel is still hers alone, refreshed in its own ephemeral message as the bots play
        assert await spades.wait_turn() == [alice]  # (her panel, opened again, says it is her turn)
        await spades.settle()
        assert panel.ephemeral
        public_edits = [q for q in fake.requests[start:] if by_token(q, token)]
        # the click's token wrote nothing but the table's public view (no panel, no hand)
        assert all(q.json["content"].startswith("♠ **Spades**") for q in public_edits)
        assert all(":c:" not in str(q.json.get("components")) for q in public_edits)
        # the buttons did not change: the redraws send the text alone (cheaper), the buttons stay
        assert all("components" not in q.json for q in public_edits)
        assert live.buttons[0].get("label") == "My hand"
        await spades.check_public()
    assert fake.rate_limit_hits == []
