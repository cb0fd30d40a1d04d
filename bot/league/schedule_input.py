"""What a user types for a league's schedule, read or refused: an IANA time zone (and suggestions
for an autocomplete box), a wall-clock time, a weekday, a date, a season's length in weeks.

A refusal is a ``ScheduleError`` whose message says what is allowed; ``bot.league.schedule`` raises
it too, for a schedule that does not hold together. Pure: no I/O beyond the zone database.
"""

from __future__ import annotations

import re
from datetime import date, time
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.i18n import N_, Msg, Text, _, join

from .errors import LeagueInputError

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
# the weekdays' names in a sentence (the same words as the /league create choices)
_WEEKDAY_NAMES = (
    N_("Monday"),
    N_("Tuesday"),
    N_("Wednesday"),
    N_("Thursday"),
    N_("Friday"),
    N_("Saturday"),
    N_("Sunday"),
)


def weekday_name(weekday: int) -> Msg:
    return Msg(_WEEKDAY_NAMES[weekday])


MAX_WEEKS = 52


class ScheduleError(LeagueInputError):
    """A schedule input a user typed is not valid; the message says what is allowed."""


@lru_cache(maxsize=1)
def _zone_names() -> tuple[str, ...]:
    # the "posix/" and "right/" copies and bare abbreviations are noise in an autocomplete list
    return tuple(
        sorted(
            z
            for z in available_timezones()
            if not z.startswith(("posix/", "right/", "Etc/GMT")) and ("/" in z or z == "UTC")
        )
    )


def parse_zone(name: str) -> ZoneInfo:
    """The IANA zone for ``name`` (case-insensitive); ScheduleError with suggestions otherwise."""
    text = (name or "").strip()
    if not text:
        raise ScheduleError(_("Give a time zone such as America/New_York or Europe/London."), "zone_missing")
    lookup = {z.lower(): z for z in _zone_names()}
    canonical = lookup.get(text.lower().replace(" ", "_"))
    if canonical is None:
        hints = zone_suggestions(text, limit=3)
        refusal: Text = _(
            "`%(zone)s` is not an IANA time zone (like America/New_York or Europe/Berlin).", zone=text[:60]
        )
        if hints:
            refusal = join(refusal, _("Did you mean %(zones)s?", zones=", ".join(hints)))
        raise ScheduleError(refusal, "zone_unknown")
    try:
        return ZoneInfo(canonical)
    except ZoneInfoNotFoundError:  # pragma: no cover - listed but unreadable
        raise ScheduleError(
            _("The time zone %(zone)s is not available on this server.", zone=canonical), "zone_unavailable"
        ) from None


#: zones by how many players are likely to use them (the first suggestions, and the order of
#: equally good matches: "Lon" offers Europe/London before Arctic/Longyearbyen)
COMMON_ZONES: tuple[str, ...] = (
    "America/New_York", "America/Chicago", "America/Los_Angeles", "America/Denver", "Europe/London",
    "Europe/Berlin", "Europe/Paris", "America/Toronto", "America/Sao_Paulo", "America/Mexico_City",
    "Europe/Madrid", "Europe/Rome", "Europe/Warsaw", "Europe/Moscow", "Asia/Kolkata", "Asia/Tokyo",
    "Australia/Sydney", "America/Phoenix", "America/Vancouver", "Europe/Amsterdam", "Europe/Istanbul",
    "Asia/Manila", "Asia/Jakarta", "Asia/Singapore", "Asia/Shanghai", "Asia/Seoul", "Europe/Prague",
    "Europe/Kyiv", "Europe/Stockholm", "Europe/Dublin", "Europe/Lisbon", "Europe/Brussels",
    "Europe/Vienna", "Europe/Zurich", "Europe/Budapest", "Europe/Bucharest", "Europe/Athens",
    "Europe/Helsinki", "Europe/Oslo", "Europe/Copenhagen", "America/Argentina/Buenos_Aires",
    "America/Bogota", "America/Lima", "America/Santiago", "America/Halifax", "America/Anchorage",
    "Pacific/Honolulu", "Australia/Melbourne", "Australia/Brisbane", "Australia/Perth",
    "Australia/Adelaide", "Pacific/Auckland", "Asia/Dubai", "Asia/Karachi", "Asia/Dhaka",
    "Asia/Bangkok", "Asia/Ho_Chi_Minh", "Asia/Hong_Kong", "Asia/Taipei", "Africa/Lagos",
    "Africa/Cairo", "Africa/Johannesburg", "Africa/Nairobi", "Asia/Yekaterinburg",
    "Asia/Novosibirsk", "Asia/Vladivostok", "Europe/Minsk", "Asia/Almaty", "UTC",
)  # fmt: skip

#: a Discord locale's (or its language's) own zones, suggested before the others
LOCALE_ZONES: dict[str, tuple[str, ...]] = {
    "en-US": ("America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles"),
    "en-GB": ("Europe/London",),
    "pl": ("Europe/Warsaw",),
    "cs": ("Europe/Prague",),
    "ru": ("Europe/Moscow", "Asia/Yekaterinburg", "Asia/Novosibirsk", "Asia/Vladivostok"),
    "uk": ("Europe/Kyiv",),
    "de": ("Europe/Berlin", "Europe/Vienna", "Europe/Zurich"),
    "fr": ("Europe/Paris", "Europe/Brussels"),
    "es-ES": ("Europe/Madrid",),
    "es-419": ("America/Mexico_City", "America/Bogota", "America/Argentina/Buenos_Aires"),
    "pt-BR": ("America/Sao_Paulo",),
    "it": ("Europe/Rome",),
    "nl": ("Europe/Amsterdam", "Europe/Brussels"),
    "sv-SE": ("Europe/Stockholm",),
    "no": ("Europe/Oslo",),
    "da": ("Europe/Copenhagen",),
    "fi": ("Europe/Helsinki",),
    "hu": ("Europe/Budapest",),
    "ro": ("Europe/Bucharest",),
    "el": ("Europe/Athens",),
    "bg": ("Europe/Sofia",),
    "hr": ("Europe/Zagreb",),
    "lt": ("Europe/Vilnius",),
    "tr": ("Europe/Istanbul",),
    "ja": ("Asia/Tokyo",),
    "ko": ("Asia/Seoul",),
    "zh-CN": ("Asia/Shanghai",),
    "zh-TW": ("Asia/Taipei",),
    "hi": ("Asia/Kolkata",),
    "th": ("Asia/Bangkok",),
    "vi": ("Asia/Ho_Chi_Minh",),
    "id": ("Asia/Jakarta",),
}


def _locale_zones(locales: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for loc in locales:
        for key in (loc, loc.split("-", 1)[0]):
            out.extend(z for z in LOCALE_ZONES.get(key, ()) if z not in out)
    return out


def zone_suggestions(text: str, limit: int = 25, *, locales: tuple[str, ...] = ()) -> list[str]:
    """Zone names for an autocomplete box: prefix matches first, then a city starting with the text,
    then names containing it; equally good matches by the reader's ``locales`` (Discord locale
    codes, the reader's first: ``pl`` puts Europe/Warsaw first), then by how common the zone is,
    then by name."""
    names = set(_zone_names())
    preferred = [z for z in _locale_zones(locales) if z in names]
    common = {z: i for i, z in enumerate(z for z in COMMON_ZONES if z in names)}
    mine = {z: i for i, z in enumerate(preferred)}

    def rank(z: str) -> tuple[int, int, str]:
        return (mine.get(z, len(mine)), common.get(z, len(common)), z)

    needle = (text or "").strip().lower().replace(" ", "_")
    if not needle:
        first = [z for z in sorted(set(preferred) | set(common), key=rank) if z != "UTC"]
        return [*first[: max(0, limit - 1)], "UTC"][:limit]  # (UTC always offered)

    def match(z: str) -> int:
        low = z.lower()
        if low.startswith(needle):
            return 0
        if low.rsplit("/", 1)[-1].startswith(needle):
            return 1
        return 2 if needle in low else 3

    found = [(match(z), rank(z), z) for z in names]
    return [z for m, _r, z in sorted(f for f in found if f[0] < 3)][:limit]


_TIME = re.compile(r"^\s*(\d{1,2})(?:[:.h](\d{2}))?\s*([ap])?\.?\s*m?\.?\s*$", re.IGNORECASE)


def parse_time(text: str) -> time:
    """``20:00``, ``8pm``, ``8:30 pm``, ``20h30`` → a local wall-clock time."""
    m = _TIME.match(text or "")
    if not m:
        raise ScheduleError(
            _("`%(text)s` is not a time: write it like 20:00 or 8pm.", text=(text or "")[:40]), "bad_time"
        )
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    ampm = (m.group(3) or "").lower()
    if ampm:
        if not 1 <= hour <= 12:
            raise ScheduleError(_("With am/pm the hour is 1 to 12 (8pm, 11:30am)."), "ampm_hour")
        hour = hour % 12 + (12 if ampm == "p" else 0)
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        raise ScheduleError(_("The hour is 0 to 23 and the minutes 0 to 59 (20:00, 7:30)."), "time_range")
    return time(hour, minute)


def parse_weekday(text: str) -> int:
    """``thursday``/``thu``/``Thurs`` → 3 (Monday is 0)."""
    t = (text or "").strip().lower()
    if len(t) >= 2:
        for i, name in enumerate(WEEKDAYS):
            if name.lower().startswith(t):
                return i
    raise ScheduleError(
        _("`%(text)s` is not a weekday: choose Monday to Sunday.", text=(text or "")[:20]), "bad_weekday"
    )


def parse_date(text: str) -> date:
    """An ISO date, ``2026-12-24``."""
    try:
        return date.fromisoformat((text or "").strip())
    except ValueError:
        raise ScheduleError(
            _("`%(text)s` is not a date: write it as YYYY-MM-DD.", text=(text or "")[:20]), "bad_date"
        ) from None


def check_weeks(weeks: int) -> int:
    if not 1 <= weeks <= MAX_WEEKS:
        raise ScheduleError(
            _("A season is 1 to %(max)s weeks long (you gave %(weeks)s).", max=MAX_WEEKS, weeks=weeks),
            "weeks_range",
        )
    return weeks
