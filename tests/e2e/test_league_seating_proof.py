"""Verifiable seating end to end: the check-in post commits to the night's seating seed, every round
is seated from it, the night's results reveal it, and the record `/league-season seating` hands out
recomputes (``engine.seating_record``, ``python -m engine verify-seating``) exactly the tables the
seating posts showed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from engine import fair
from engine.seating_record import reseat, verify_night
from fakediscord import Message, User
from tests.e2e.harness import Spades
from tests.e2e.leagues import (
    LEAGUE,
    advance_to,
    ask,
    checkin_posts,
    create,
    first_start,
    posts_with,
    running,
    stored_leagues,
    stored_night,
)

MENTION = re.compile(r"<@(\d+)>")


async def seating_file(spades: Spades, user: User) -> tuple[str, dict]:
    r = await spades.fake.slash(user, spades.channel, "league-season seating", options={"league": LEAGUE})
    answer = await r.answered()
    assert r.ephemeral
    message: Message | None = r.followups[-1] if r.followups else r.message
    assert message is not None
    (attached,) = message.attachments
    assert attached["filename"] == "seating-spades-thursday-s1-n1.json"
    return answer, json.loads(spades.fake.attachment_bytes(attached).decode())


def posted_tables(post: str) -> list[list[list[int]]]:
    """The tables of a seating post: each table's sides, each side's player ids."""
    tables = []
    for line in post.splitlines():
        if line.startswith("Table "):
            players = line.split(": ", 1)[1]
            tables.append([[int(u) for u in MENTION.findall(side)] for side in players.split(" vs ")])
    return tables


async def test_the_revealed_seed_recomputes_the_posted_tables(spades: Spades, tmp_path: Path) -> None:
    fake = spades.fake
    # nine players at four-seat tables, the leftover sits out: who does is the seed's draw
    players = [fake.add_user(f"v{i}") for i in range(9)]
    async with running(spades, speed=200), stored_leagues(spades) as store:
        assert "is set" in await create(
            spades,
            rounds=2,
            leftover="bye",
            round_minutes=5,
            target=50,
            hand_limit=1,
            weeks=1,
            bid_seconds=15,
            play_seconds=15,
        )
        off = await ask(
            spades, spades.users["admin"], "league admin attendance", league=LEAGUE, no_show="off"
        )
        assert "Saved" in off, off
        for p in players:
            assert "signed up" in await ask(spades, p, "league signup", league=LEAGUE)
        # no night has opened its check-in yet: nothing to hand out (a refusal, privately)
        assert "has no night with a seating record yet" in await ask(
            spades, players[0], "league-season seating", league=LEAGUE
        )
        assert "no seating record for night 4" in await ask(
            spades, players[0], "league-season seating", league=LEAGUE, night=4
        )
        start = await first_start(spades)
        advance_to(spades, start - timedelta(minutes=30))
        await spades.wait_for(lambda: bool(checkin_posts(spades)), what="the check-in post")
        post = checkin_posts(spades)[-1]
        shown = re.search(r"Seating commitment: `([0-9a-f]{16})`", post.content)
        assert shown, post.content
        commitment_seen = shown[1]
        night = await stored_night(spades, 1)
        key = night.data["seating_key"]  # stored as check-in opened, before the post
        assert fair.short(fair.commitment(key["seed"], key["salt"])) == commitment_seen
        for p in players:
            r = await fake.click(p, post, label="Check in")
            await r.answered()
        # before the night is over the record can be had, but not its seed
        answer, early = await seating_file(spades, players[0])
        assert "stays secret until the night is over" in answer
        assert "seed" not in early and "salt" not in early and early["rounds"] == []
        assert early["commitment"].startswith(commitment_seen)

        advance_to(spades, start + timedelta(seconds=1))
        await spades.wait_for(lambda: bool(posts_with(spades, "round 1 of 2")), what="round 1's seating")
    # the bot restarts during round 1: the night's seed and round 1's record are stored, round 2 is
    # seated from the same seed
    async with running(spades, speed=200), stored_leagues(spades) as store:
        await spades.wait_for(lambda: bool(posts_with(spades, "round 2 of 2")), timeout=90, what="round 2")
        await spades.wait_for(lambda: bool(posts_with(spades, "night 1 results")), timeout=90, what="results")
        results = posts_with(spades, "night 1 results")[0].content
        reveal = re.search(r"Seating seed: `([0-9a-f]{64})` \(salt `([0-9a-f]{32})`\)", results)
        assert reveal, results
        seed, salt = reveal[1], reveal[2]

        answer, record = await seating_file(spades, players[3])
        assert "seed included" in answer
        assert (record["seed"], record["salt"]) == (seed, salt)
        assert [e["round"] for e in record["rounds"]] == [1, 2]
        verdict = verify_night(record, seed=seed, salt=salt, commitment_seen=commitment_seen)
        assert verdict.ok, verdict.message

        # the recomputed tables are the ones the seating posts showed, and the ones stored
        night = await stored_night(spades, 1)
        for entry in record["rounds"]:
            rnd = entry["round"]
            (seating_post,) = posts_with(spades, f"night 1, round {rnd} of 2")
            again = reseat(entry, seed)
            recomputed = [[list(side) for side in t.sides] for t in again.tables]
            assert posted_tables(seating_post.content) == recomputed
            stored = await store.rounds.round_tables(night.id, rnd)
            assert [[list(side) for side in t.sides] for t in stored] == recomputed
            assert sorted([*again.seated, *again.byes]) == sorted(p.id for p in players)
            assert len(again.byes) == 1 and f"<@{again.byes[0]}>" in seating_post.content.split("bye")[-1]
        # round 2 avoided round 1's partners: the history in the record says what it avoided
        assert entry["history"]["partners_tonight"]

        # a player's own check, from the command line
        path = tmp_path / "night.json"
        path.write_text(json.dumps(record))
        done = subprocess.run(
            [sys.executable, "-m", "engine", "verify-seating", str(path), "--commitment", commitment_seen],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[-1].startswith(
            f"OK: the seed matches the commitment {commitment_seen}"
        )
        # another seed does not seat these tables
        assert not verify_night(record, seed="0" * 64, salt=salt)
    assert fake.take_violations() == []
