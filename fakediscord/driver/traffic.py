"""What the bot sent: its requests (by route, and their peak rate) and the violations recorded."""

from __future__ import annotations

from ..records import RecordedRequest, Violation
from ..state import FakeState


class Traffic:
    """``requests_to``, ``peak_rate``, ``take_violations``."""

    def __init__(self, state: FakeState) -> None:
        self.state = state

    def requests_to(self, method: str, route: str) -> list[RecordedRequest]:
        """Recorded requests for a route template (``/channels/{channel_id}/messages``) or path."""
        return [r for r in self.state.requests if r.method == method.upper() and route in (r.route, r.path)]

    def peak_rate(self, method: str, route: str, window: float, *, per: str | None = "channel_id") -> int:
        """Most requests to ``route`` inside any ``window`` seconds (per value of the ``per`` route
        parameter, e.g. per channel as Discord buckets message edits; ``None``: all together).

        Discord does not publish its limits, but e.g. 5 message edits per 5 s per channel is what bots
        meet in practice: ``assert fake.peak_rate("PATCH", EDIT, 5.0) <= 5`` keeps a bot under it.
        """
        groups: dict[str | None, list[float]] = {}
        for r in self.requests_to(method, route):
            groups.setdefault(r.params.get(per) if per else None, []).append(r.at)
        best = 0
        for times in groups.values():
            times.sort()
            start = 0
            for end, t in enumerate(times):
                while start <= end and t - times[start] >= window:
                    start += 1
                best = max(best, end - start + 1)
        return best

    def take_violations(self) -> list[Violation]:
        """Return and clear the recorded violations (for tests that provoke them on purpose)."""
        taken, self.state.violations = self.state.violations, []
        return taken
