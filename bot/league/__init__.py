"""League nights: weekly leagues with check-in, seating, rounds, standings, seasons and ratings.

Pure rules: ``schedule``, ``seating``, ``standings``, ``ratings``, ``settings``, ``text`` (no Discord,
no database). ``service`` runs the nights from storage behind a gateway; ``discord_io`` and ``tables``
are that gateway over discord.py and the table service. See docs/BOT_MAP.md.
"""
