"""League nights: the pure parts (schedule, seating, standings, ratings).

Nothing here touches Discord, asyncio or the database; the league service wires these to storage
and the table machinery.
"""
