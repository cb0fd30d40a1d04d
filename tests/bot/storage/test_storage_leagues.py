"""League storage: leagues, roster and invites, nights by compare-and-set, check-ins, rounds,
results and corrections with an audit log, and ratings computed once per game in order."""

from __future__ import annotations

import asyncio

import pytest

from bot.league.ratings import rate_stored
from bot.storage import FinishedGame, Storage
from bot.storage.leagues import (
    AlreadyCheckedIn,
    AlreadyMember,
    CheckinClosed,
    InviteError,
    LeagueError,
    LeagueNameTaken,
    LeagueRow,
    LeagueSlotTaken,
    LeagueStore,
    NotMember,
    RemovedByAdmin,
    StaleLeague,
)

GUILD, CHANNEL, ADMIN = 1, 10, 100


@pytest.fixture
def db(storage: Storage) -> Storage:
    return storage  # (SQLite; the races below run on both backends)


@pytest.fixture
def store(db: Storage) -> LeagueStore:
    return LeagueStore(db)


async def make_league(
    store: LeagueStore,
    name: str = "Thursday",
    slot: str = "3|20:00|America/New_York",
    channel: int = CHANNEL,
    fmt: str = "rotating",
) -> LeagueRow:
    return await store.rosters.create_league(
        guild_id=GUILD,
        channel_id=channel,
        name=name,
        fmt=fmt,
        ruleset={"name": "standard"},
        settings={"rounds": 2},
        schedule={"weekday": 3},
        slot_key=slot,
        created_by=ADMIN,
    )


async def test_league_names_and_slots_are_unique(store: LeagueStore) -> None:
    league = await make_league(store)
    assert league.status == "active" and league.season == 1
    with pytest.raises(LeagueNameTaken):
        await make_league(store, name="THURSDAY", slot="4|20:00|UTC")
    with pytest.raises(LeagueSlotTaken):
        await make_league(store, name="Other")
    # another channel may meet at the same time
    await make_league(store, name="Other", channel=11)
    assert (await store.rosters.league_named(GUILD, " thursday ")).id == league.id  # type: ignore[union-attr]
    # an archived league frees its name and slot
    league.status = "archived"
    await store.rosters.update_league(league, actor_id=ADMIN, action="archive")
    await make_league(store)


async def test_update_league_is_version_checked_and_audited(store: LeagueStore) -> None:
    league = await make_league(store)
    copy = await store.rosters.get_league(league.id)
    league.settings["rounds"] = 3
    await store.rosters.update_league(
        league, actor_id=ADMIN, action="edit", detail={"rounds": 3}, reason="longer nights"
    )
    assert copy is not None
    copy.status = "paused"
    with pytest.raises(StaleLeague):
        await store.rosters.update_league(copy, actor_id=ADMIN, action="pause")
    log = await store.audit.log(league.id)
    assert [e.action for e in log] == ["edit", "create"]
    assert log[0].reason == "longer nights" and log[0].detail == {"rounds": 3}


async def test_the_scheduled_event_is_bookkeeping_that_never_makes_an_admin_change_stale(
    db_target: str,
) -> None:
    """The bot records the league's Discord event while an admin's change is on its way: both count,
    and the admin's copy (read before the event existed) does not drop it (a second event would follow).
    On PostgreSQL the two really overlap (a pool of connections)."""
    storage = await Storage.open(db_target)
    try:
        await _event_and_admin_change(LeagueStore(storage))
    finally:
        await storage.close()


async def _event_and_admin_change(store: LeagueStore) -> None:
    league = await make_league(store)
    admin_copy = await store.rosters.get_league(league.id)
    assert admin_copy is not None
    admin_copy.status = "paused"
    await asyncio.gather(
        store.rosters.set_league_event(league.id, 701, "2026-12-03"),
        store.rosters.update_league(admin_copy, actor_id=ADMIN, action="pause"),
    )
    fresh = await store.rosters.get_league(league.id)
    assert fresh is not None and fresh.status == "paused"
    assert fresh.settings == {"rounds": 2, "event_id": 701, "event_night": "2026-12-03"}
    assert admin_copy.settings["event_id"] == 701  # the saved copy says what is stored
    # an admin's later change keeps it too, and the bot's next record replaces it
    fresh.settings = {"rounds": 4}
    await store.rosters.update_league(fresh, actor_id=ADMIN, action="edit")
    assert await store.rosters.set_league_event(league.id, 702, "2026-12-10")
    moved = await store.rosters.get_league(league.id)
    assert moved is not None and moved.settings == {"rounds": 4, "event_id": 702, "event_night": "2026-12-10"}
    assert moved.version == fresh.version  # bookkeeping leaves the version alone
    assert [e.action for e in await store.audit.log(league.id)].count("event") == 2
    assert await store.rosters.set_league_event(league.id + 99, 1, None) is False


async def test_signup_remove_and_sign_up_again(store: LeagueStore) -> None:
    league = await make_league(store)
    await store.rosters.sign_up(league.id, 1)
    with pytest.raises(AlreadyMember, match="already signed up"):
        await store.rosters.sign_up(league.id, 1)
    await store.rosters.remove_member(league.id, 1, actor_id=ADMIN, reason="left the server")
    assert await store.rosters.members(league.id) == []
    with pytest.raises(NotMember):
        await store.rosters.remove_member(league.id, 1, actor_id=ADMIN)
    with pytest.raises(RemovedByAdmin):
        await store.rosters.sign_up(league.id, 1)  # removed by an admin: only an admin brings them back
    await store.rosters.sign_up(league.id, 1, actor_id=ADMIN)
    assert [m.user_id for m in await store.rosters.members(league.id)] == [1]
    await store.rosters.remove_member(league.id, 1, actor_id=1)  # left by themselves: may come back
    await store.rosters.sign_up(league.id, 1)


async def test_team_invite_accept_and_decline(store: LeagueStore) -> None:
    league = await make_league(store, fmt="fixed")
    team = await store.rosters.invite(league.id, 1, 2, "Aces")
    assert team.status == "pending"
    assert [t.name for t in await store.rosters.teams(league.id)] == []
    with pytest.raises(InviteError, match="already on a team"):
        await store.rosters.invite(league.id, 3, 2, "Kings")
    with pytest.raises(InviteError, match="no pending team invite"):
        await store.rosters.answer_invite(league.id, 3, accept=True)
    with pytest.raises(InviteError, match="your own partner"):
        await store.rosters.invite(league.id, 3, 3, "Solo")
    await store.rosters.answer_invite(league.id, 2, accept=True)
    teams = await store.rosters.teams(league.id)
    assert [(t.name, t.members) for t in teams] == [("Aces", [1, 2])]
    # a declined invite dissolves the team and frees the captain
    await store.rosters.invite(league.id, 3, 4, "Kings")
    await store.rosters.answer_invite(league.id, 4, accept=False)
    assert [t.name for t in await store.rosters.teams(league.id)] == ["Aces"]
    assert await store.rosters.member(league.id, 4) is None
    await store.rosters.invite(league.id, 3, 5, "Queens")  # the captain may invite someone else
    with pytest.raises(InviteError, match="already in this league"):
        await store.rosters.invite(league.id, 6, 7, "aces")


async def test_a_team_of_three_is_pending_until_both_partners_accept(store: LeagueStore) -> None:
    league = await make_league(store, fmt="fixed")
    team = await store.rosters.invite(league.id, 1, [2, 3], "Aces")
    assert (team.status, team.members, team.invited) == ("pending", [1, 2, 3], [2, 3])
    # the first acceptance leaves the team pending, waiting for the other partner
    half = await store.rosters.answer_invite(league.id, 2, accept=True)
    assert (half.status, half.invited) == ("pending", [3])
    assert await store.rosters.teams(league.id) == []
    (pending,) = await store.rosters.teams(league.id, statuses=("pending",))
    assert (pending.members, pending.invited) == ([1, 2, 3], [3])
    member = await store.rosters.member(league.id, 3)
    assert member is not None and member.status == "invited"
    with pytest.raises(InviteError, match="no pending team invite"):
        await store.rosters.answer_invite(league.id, 2, accept=True)  # already accepted
    done = await store.rosters.answer_invite(league.id, 3, accept=True)
    assert (done.status, done.invited) == ("active", [])
    (active,) = await store.rosters.teams(league.id)
    assert (active.name, active.members, active.invited) == ("Aces", [1, 2, 3], [])
    assert sorted(m.user_id for m in await store.rosters.members(league.id)) == [1, 2, 3]


async def test_a_decline_dissolves_a_team_of_three(store: LeagueStore) -> None:
    league = await make_league(store, fmt="fixed")
    await store.rosters.invite(league.id, 1, [2, 3], "Aces")
    await store.rosters.answer_invite(league.id, 2, accept=True)
    gone = await store.rosters.answer_invite(league.id, 3, accept=False)
    assert (gone.status, gone.members) == ("removed", [1, 2, 3])
    assert await store.rosters.teams(league.id, statuses=("active", "pending")) == []
    # the captain and the partner who had accepted stay signed up without a team; the decliner is off
    left = {
        m.user_id: (m.status, m.team_id) for m in await store.rosters.members(league.id, include_invited=True)
    }
    assert left == {1: ("active", None), 2: ("active", None)}
    # a decline before anyone accepted takes the other invitee off the roster too
    await store.rosters.invite(league.id, 4, [5, 6], "Kings")
    dissolved = await store.rosters.answer_invite(league.id, 6, accept=False)
    assert dissolved.invited == [5]  # who was still waiting: they are told
    assert (
        await store.rosters.member(league.id, 5) is None and await store.rosters.member(league.id, 6) is None
    )
    with pytest.raises(InviteError, match="no pending team invite"):
        await store.rosters.answer_invite(league.id, 5, accept=True)
    # everyone is free to form a new team
    await store.rosters.invite(league.id, 1, [2, 5], "Queens")
    assert (await store.rosters.answer_invite(league.id, 5, accept=True)).status == "pending"
    assert (await store.rosters.answer_invite(league.id, 2, accept=True)).status == "active"


async def test_a_team_of_three_refuses_players_already_on_a_team(store: LeagueStore) -> None:
    league = await make_league(store, fmt="fixed")
    await store.rosters.invite(league.id, 1, [2, 3], "Aces")
    for captain, partners, who in [(4, [5, 3], "<@3> is"), (4, [2, 6], "<@2> is"), (1, [7, 8], "You are")]:
        with pytest.raises(InviteError, match=f"{who} already on a team"):
            await store.rosters.invite(league.id, captain, partners, "Kings")
    with pytest.raises(InviteError, match="two different partners"):
        await store.rosters.invite(league.id, 4, [5, 5], "Kings")
    with pytest.raises(InviteError, match="your own partner"):
        await store.rosters.invite(league.id, 4, [5, 4], "Kings")
    # nothing was written by the refusals: 4, 5 and 6 are free, Kings is free
    assert (
        await store.rosters.member(league.id, 4) is None and await store.rosters.member(league.id, 5) is None
    )
    team = await store.rosters.invite(league.id, 4, [5, 6], "Kings")
    assert team.members == [4, 5, 6]
    # an admin removing a member of a team of three dissolves it, like a pair
    await store.rosters.answer_invite(league.id, 2, accept=True)
    await store.rosters.answer_invite(league.id, 3, accept=True)
    await store.rosters.remove_member(league.id, 3, actor_id=ADMIN, reason="gone")
    assert [t.name for t in await store.rosters.teams(league.id, statuses=("active", "pending"))] == ["Kings"]
    assert sorted(m.user_id for m in await store.rosters.members(league.id)) == [1, 2, 4]  # 3 is off
    # the dissolved team still lists who played for it (its games stay its own in the standings)
    (gone,) = await store.rosters.teams(league.id, statuses=("removed",))
    assert (gone.name, gone.members) == ("Aces", [1, 2, 3])
    # the two left are free to form a new team
    again = await store.rosters.invite(league.id, 1, [2, 9], "Aces")
    assert again.members == [1, 2, 9]


async def test_night_transitions_fire_once(store: LeagueStore) -> None:
    league = await make_league(store)
    night = await store.nights.ensure_night(league.id, 1, 1, "2026-10-22", 2000, 1000)
    again = await store.nights.ensure_night(league.id, 1, 1, "2026-10-22", 2100, 1100)
    assert again.id == night.id and again.starts_at == 2100  # a scheduled night follows a re-time
    results = await asyncio.gather(
        *(store.nights.transition(night.id, ["scheduled"], "checkin") for _ in range(5))
    )
    assert sum(r is not None for r in results) == 1
    assert (await store.nights.get_night(night.id)).status == "checkin"  # type: ignore[union-attr]
    # under way: ensure_night does not move it any more
    moved = await store.nights.ensure_night(league.id, 1, 1, "2026-10-22", 9999, 9000)
    assert moved.starts_at == 2100 and moved.status == "checkin"
    assert [n.id for n in await store.nights.open_nights()] == [night.id]


async def test_check_in_rules(store: LeagueStore) -> None:
    league = await make_league(store)
    night = await store.nights.ensure_night(league.id, 1, 1, "2026-10-22", 2000, 1000)
    with pytest.raises(CheckinClosed, match="not open yet"):
        await store.nights.check_in(night.id, 1)
    await store.nights.transition(night.id, ["scheduled"], "checkin")
    assert await store.nights.check_in(night.id, 1) is None
    with pytest.raises(AlreadyCheckedIn):
        await store.nights.check_in(night.id, 1)
    assert await store.nights.check_in(night.id, 1, "out") == "in"
    assert await store.nights.check_in(night.id, 2) is None
    assert await store.nights.checkins(night.id) == {1: "out", 2: "in"}
    await store.nights.transition(night.id, ["checkin"], "playing")
    with pytest.raises(CheckinClosed, match="closed"):
        await store.nights.check_in(night.id, 3)
    # an admin re-opens check-in during the night: late arrivals join the next round
    await store.nights.transition(night.id, ["playing"], "playing", data={"late_checkin": True})
    await store.nights.check_in(night.id, 3)


async def test_rounds_seat_once_and_results_are_recorded_once(store: LeagueStore) -> None:
    league = await make_league(store)
    night = await store.nights.ensure_night(league.id, 1, 1, "2026-10-22", 2000, 1000)
    await store.nights.transition(night.id, ["scheduled"], "checkin")
    sides: list[list[list[int | None]]] = [[[1, 2], [3, 4]], [[5, 6], [7, None]]]
    seated = await asyncio.gather(
        store.rounds.start_round(night.id, 1, tables=sides, byes=[8], ends_at=5000),
        store.rounds.start_round(night.id, 1, tables=sides, byes=[8], ends_at=5000),
    )
    assert sum(s is not None for s in seated) == 1
    tables = await store.rounds.round_tables(night.id, 1)
    assert [t.players for t in tables] == [[1, 2, 3, 4], [5, 6, 7]]
    assert await store.rounds.byes(night.id) == [(1, 8)]
    assert await store.rounds.busy_players([1, 8, 9]) == {1: league.id}
    await store.rounds.link_table(tables[0].id, channel_id=555, table_id=None)  # type: ignore[arg-type]
    assert await store.rounds.record_result(
        tables[0].id, scores=[500, 300], bags=[2, 1], winner_side=0, complete=True
    )
    assert not await store.rounds.record_result(
        tables[0].id, scores=[0, 0], bags=[0, 0], winner_side=1, complete=True
    )
    assert await store.rounds.record_result(
        tables[1].id, scores=[220, 240], bags=[0, 3], winner_side=None, complete=False
    )
    results = await store.rounds.night_results(night.id)
    assert [(r.scores, r.winner_side, r.complete) for r in results] == [
        ([500, 300], 0, True),
        ([220, 240], None, False),
    ]
    assert await store.rounds.finish_round(night.id, 1) and not await store.rounds.finish_round(night.id, 1)
    assert await store.rounds.busy_players([1]) == {}
    # round 2 may only follow round 1
    assert await store.rounds.start_round(night.id, 3, tables=sides) is None
    assert await store.rounds.start_round(night.id, 2, tables=sides) is not None


async def test_correct_result_and_substitute_are_audited(store: LeagueStore) -> None:
    league = await make_league(store)
    night = await store.nights.ensure_night(league.id, 1, 1, "2026-10-22", 2000, 1000)
    await store.nights.transition(night.id, ["scheduled"], "checkin")
    (table,) = await store.rounds.start_round(night.id, 1, tables=[[[1, 2], [3, 4]]])  # type: ignore[misc]
    sub = await store.rounds.substitute(
        table.id, 4, 9, league_id=league.id, actor_id=ADMIN, reason="4 had to leave"
    )
    assert sub.sides == [[1, 2], [3, 9]]
    await store.rounds.record_result(table.id, scores=[500, 300], bags=[0, 0], winner_side=0, complete=True)
    fixed = await store.rounds.correct_result(
        table.id,
        league_id=league.id,
        scores=[300, 500],
        winner_side=1,
        actor_id=ADMIN,
        reason="scores swapped",
    )
    assert fixed.corrected and fixed.winner_side == 1 and fixed.sides == [[1, 2], [3, 9]]
    log = await store.audit.log(league.id, actions=["correct", "sub"])
    assert [e.action for e in log] == ["correct", "sub"]
    assert log[0].detail["before"]["scores"] == [500, 300] and log[0].reason == "scores swapped"


async def _finished_game(
    db: Storage,
    channel: int,
    players: list[tuple[int | None, int]],
    winner: int,
    finished_at: int,
    scores: tuple[int, int] = (500, 200),
) -> None:
    row = await db.tables.create(GUILD, channel, 1, {})
    row.status = "finished"
    game = FinishedGame(
        table_id=row.id,
        guild_id=GUILD,
        channel_id=channel,
        game_no=1,
        ruleset={"name": "standard"},
        hands=5,
        winner_side=winner,
        started_at=finished_at - 600,
        finished_at=finished_at,
        sides=[
            {"seats": [0, 2], "score": scores[0], "bags": 0},
            {"seats": [1, 3], "score": scores[1], "bags": 0},
        ],
        players=[
            {"seat": i, "side": side, "user_id": uid, "is_bot": uid is None, "name": f"p{uid}"}
            for i, (uid, side) in enumerate(players)
        ],
    )
    await db.tables.save(row, game=game)


async def test_existing_games_are_rated_once_in_order(db: Storage, store: LeagueStore) -> None:
    # 1 and 3 partner against 2 and 4; stored out of id order: the older game is rated first
    await _finished_game(db, 20, [(1, 0), (2, 1), (3, 0), (4, 1)], winner=0, finished_at=2000)
    await _finished_game(db, 21, [(1, 0), (2, 1), (3, 0), (4, 1)], winner=1, finished_at=1000)
    # one human with bots: looked at, not rated
    await _finished_game(db, 22, [(5, 0), (None, 1), (None, 0), (None, 1)], winner=0, finished_at=3000)
    assert await store.ratings.rate_pending_games(rate_stored) == 3
    assert await store.ratings.rate_pending_games(rate_stored) == 0  # never twice
    r = await store.ratings.get(GUILD)
    assert set(r) == {1, 2, 3, 4} and all(x.games == 2 for x in r.values())
    # lost then won (1, 3) ends above won then lost (2, 4): the later result weighs more
    assert r[1].mu > r[2].mu and r[1].mu == r[3].mu
    board = await store.ratings.leaderboard(GUILD)
    assert [row.user_id for row in board][:2] == [1, 3] and board[0].rank == 1
    assert await store.ratings.count(GUILD) == 4


async def test_rating_two_callers_at_once_rates_each_game_once(db: Storage, store: LeagueStore) -> None:
    for i in range(3):
        await _finished_game(db, 30 + i, [(1, 0), (2, 1), (3, 0), (4, 1)], winner=0, finished_at=1000 + i)
    await asyncio.gather(
        store.ratings.rate_pending_games(rate_stored), LeagueStore(db).ratings.rate_pending_games(rate_stored)
    )
    assert all(x.games == 3 for x in (await store.ratings.get(GUILD)).values())


async def test_game_for_table(db: Storage, store: LeagueStore) -> None:
    await _finished_game(
        db, 40, [(1, 0), (2, 1), (3, 0), (4, 1)], winner=1, finished_at=1000, scores=(310, 520)
    )
    row = await db.tables.latest_in(40)
    assert row is not None
    got = await store.rounds.game_for_table(row.id)
    assert got is not None and got["scores"] == [310, 520] and got["winner_side"] == 1
    other = await db.tables.create(GUILD, 41, 1, {})
    assert await store.rounds.game_for_table(other.id) is None


async def test_leaderboard_rating_sort_and_humans_only_wins(db: Storage, store: LeagueStore) -> None:
    from bot.league.ratings import PROVISIONAL_GAMES
    from bot.render.stats import leaderboard_line

    await _finished_game(db, 50, [(1, 0), (2, 1), (3, 0), (4, 1)], winner=0, finished_at=1000)
    await _finished_game(db, 51, [(5, 0), (None, 1), (None, 0), (None, 1)], winner=0, finished_at=2000)
    await store.ratings.rate_pending_games(rate_stored)
    board = await db.stats.leaderboard(GUILD, sort="rating", limit=10, humans_only=True)
    assert [p.user_id for p in board][:2] in ([1, 3], [3, 1])
    assert board[-1].user_id == 5 and board[-1].rating is None  # one human with bots: unrated
    five = next(p for p in board if p.user_id == 5)
    assert (five.games, five.wins, five.not_counted) == (0, 0, 1)  # the bot game is not counted
    everything = await db.stats.leaderboard(GUILD, sort="wins", limit=10, humans_only=False)
    assert next(p for p in everything if p.user_id == 5).wins == 1  # unless asked to
    line = leaderboard_line(board[0], sort="rating", provisional=PROVISIONAL_GAMES)
    assert "rating" in line and "?" in line and "(1 rated game)" in line


async def test_forget_me_removes_league_and_rating_data(db: Storage, store: LeagueStore) -> None:
    league = await make_league(store)
    await store.rosters.sign_up(league.id, 1)
    await _finished_game(db, 60, [(1, 0), (2, 1), (3, 0), (4, 1)], winner=0, finished_at=1000)
    await store.ratings.rate_pending_games(rate_stored)
    assert 1 in await store.ratings.get(GUILD)
    export = await db.history.export(1)  # /spades mydata shows the league side too
    assert export["ratings"][0]["rated_games"] == 1 and export["leagues"][0]["league"] == "Thursday"
    await db.history.forget(1)
    assert 1 not in await store.ratings.get(GUILD) and 2 in await store.ratings.get(GUILD)
    assert await store.rosters.member(league.id, 1) is None
    assert all(e.actor_id != 1 for e in await store.audit.log(league.id))


async def test_forget_me_leaves_no_id_in_past_seatings_or_the_audit_log(
    db: Storage, store: LeagueStore
) -> None:
    gone, stays = 900000000000000009, 900000000000000004
    league = await make_league(store)
    night = await store.nights.ensure_night(league.id, 1, 1, "2026-10-22", 2000, 1000)
    await store.nights.transition(night.id, ["scheduled"], "checkin")
    (table,) = await store.rounds.start_round(night.id, 1, tables=[[[1, 2], [3, stays]]])  # type: ignore[misc]
    await store.rounds.substitute(
        table.id, stays, gone, league_id=league.id, actor_id=ADMIN, reason=f"<@{stays}> left, <@!{gone}> in"
    )
    await store.rounds.finish_round(night.id, 1)
    await db.history.forget(gone)
    after = await store.rounds.league_table(table.id)
    assert after is not None and after.sides == [[1, 2], [3, 0]]
    (sub,) = await store.audit.log(league.id, actions=["sub"])
    assert sub.detail["in"] == 0 and sub.detail["out"] == stays  # what happened stays, who does not
    assert sub.reason is not None and str(gone) not in sub.reason and f"<@{stays}>" in sub.reason


async def test_forget_me_scrubs_both_partners_of_a_team_of_three_invite(
    db: Storage, store: LeagueStore
) -> None:
    gone, stays = 900000000000000019, 900000000000000014
    league = await make_league(store, fmt="fixed")
    await store.rosters.invite(league.id, 1, [stays, gone], "Aces")
    await db.history.forget(gone)
    (invite,) = await store.audit.log(league.id, actions=["invite"])
    assert invite.detail == {"team": "Aces", "partner": stays, "partner2": 0}
    await db.history.forget(stays)
    (invite,) = await store.audit.log(league.id, actions=["invite"])
    assert invite.detail == {"team": "Aces", "partner": 0, "partner2": 0}


async def test_partners_answering_at_once_are_counted_once_on_both_backends(db_target: str) -> None:
    """Two partners accepting at the same moment activate their team of three (neither waits for
    the other forever); an acceptance racing a decline ends in one of the two, never half of each.
    On PostgreSQL the answers really overlap (a pool of connections)."""
    storage = await Storage.open(db_target)
    try:
        store = LeagueStore(storage)
        league = await make_league(store, fmt="fixed")
        for round_no in range(3):
            base = 10 * (round_no + 1)
            await store.rosters.invite(league.id, base, [base + 1, base + 2], f"Team {round_no}")
            answers = await asyncio.gather(
                store.rosters.answer_invite(league.id, base + 1, accept=True),
                store.rosters.answer_invite(league.id, base + 2, accept=True),
            )
            assert sorted(a.status for a in answers) == ["active", "pending"]
        assert len(await store.rosters.teams(league.id)) == 3
        await store.rosters.invite(league.id, 50, [51, 52], "Racing")
        raced = await asyncio.gather(
            store.rosters.answer_invite(league.id, 51, accept=True),
            store.rosters.answer_invite(league.id, 52, accept=False),
            return_exceptions=True,
        )
        left = await store.rosters.teams(league.id, statuses=("active", "pending"))
        assert "Racing" not in [t.name for t in left]  # the decline dissolved it, whichever came first
        assert not any(isinstance(r, Exception) and not isinstance(r, InviteError) for r in raced)
        member = await store.rosters.member(league.id, 51)
        assert member is None or (member.status == "active" and member.team_id is None)
    finally:
        await storage.close()


async def test_a_forfeit_and_rating_again_from_a_game_on_both_backends(db_target: str) -> None:
    """``forfeit_table`` keeps the old result in the audit and refuses a second forfeit;
    ``rerate_from`` puts the ratings back to before the game and rates it and the later ones again
    in order, the forfeit rating the forfeiting side below the other."""
    from bot.league.ratings import RatedGame, SeatResult, rate_games

    storage = await Storage.open(db_target)
    try:
        store = LeagueStore(storage)
        league = await make_league(store)
        night = await store.nights.ensure_night(league.id, 1, 1, "2026-10-22", 2000, 1000)
        await store.nights.transition(night.id, ["scheduled"], "checkin")
        (table,) = await store.rounds.start_round(night.id, 1, tables=[[[1, 3], [2, 4]]])  # type: ignore[misc]
        seats: list[tuple[int | None, int]] = [(1, 0), (2, 1), (3, 0), (4, 1)]
        await _finished_game(storage, 70, seats, winner=0, finished_at=1000, scores=(510, 300))
        await _finished_game(storage, 71, seats, winner=0, finished_at=2000, scores=(500, 420))
        ids = []
        for channel in (70, 71):
            row = await storage.tables.latest_in(channel)
            assert row is not None
            got = await store.rounds.game_for_table(row.id)
            assert got is not None
            ids.append(int(got["game_id"]))
        await store.rounds.record_result(
            table.id, scores=[510, 300], bags=[0, 0], winner_side=0, complete=True, game_id=ids[0]
        )
        await store.ratings.rate_pending_games(rate_stored)
        result, before = await store.rounds.forfeit_table(
            table.id, league_id=league.id, loser_side=0, loser_id=1, actor_id=ADMIN, reason="ineligible"
        )
        assert before.status == "finished"
        assert (result.forfeit_side, result.winner_side, result.scores, result.game_id) == (
            0,
            1,
            [0, 0],
            ids[0],
        )
        with pytest.raises(LeagueError) as again:
            await store.rounds.forfeit_table(
                table.id, league_id=league.id, loser_side=1, loser_id=2, actor_id=ADMIN, reason="twice"
            )
        assert again.value.code == "forfeited"
        (entry,) = await store.audit.log(league.id, actions=["forfeit"])
        assert entry.detail["before"] == {"scores": [510, 300], "bags": [0, 0], "winner": 0}
        assert await store.ratings.rerate_from(rate_stored, ids[0]) == 2
        sides = [[1, 3], [2, 4]]
        expected = rate_games(
            [
                RatedGame([[SeatResult(u) for u in s] for s in sides], [-1, 0], 1),
                RatedGame([[SeatResult(u) for u in s] for s in sides], [500, 420], 0),
            ]
        )
        got_ratings = await store.ratings.get(GUILD)
        for uid, r in expected.items():
            assert got_ratings[uid].mu == pytest.approx(r.mu) and got_ratings[uid].games == 2
        assert await store.ratings.rate_pending_games(rate_stored) == 0
    finally:
        await storage.close()
