"""The local sandbox: the real bot against a stand-in Discord (``fakediscord``) with a web page.

``python -m bot`` without a token (or with ``--sandbox``) runs it; see ``bot/sandbox/server.py``.
"""
