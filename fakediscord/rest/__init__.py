"""The fake's REST API: the aiohttp app and its request pipeline (``app``: route matching, body
reading, faults, rate limits, Discord's error shape), the checks handlers share (``checks``), and one
module of handlers per kind of resource. ``FakeDiscord`` (``fake.py``) lists every route."""
