"""The one cache type: fresh for its TTL, then due but kept until put again."""

from __future__ import annotations

from bot.cache import TTLCache


def test_fresh_then_due_but_kept() -> None:
    now = [0.0]
    cache: TTLCache[str, int] = TTLCache(10.0, timer=lambda: now[0])
    assert cache.get("a") is None and cache.get("a", 5) == 5 and cache.due(["a"]) == ["a"]
    cache.put("a", 1)
    now[0] = 10.0
    assert cache.fresh("a") and cache.due(["a", "b", "b"]) == ["b"]
    now[0] = 10.5
    assert not cache.fresh("a") and "a" in cache and cache.get("a") == 1
    assert cache.due(["a"]) == ["a"]
    cache.update({"a": 2, "c": 3})
    assert cache.fresh("a") and cache.get("a") == 2 and sorted(cache) == ["a", "c"] and len(cache) == 2
    assert cache.pop("a") == 2 and "a" not in cache and cache.pop("a") is None
