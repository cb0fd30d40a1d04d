"""Live Spades tables: store, commands, turn clock, publisher; ``service`` wires them.

Map: docs/BOT_MAP.md.
"""
