"""Python's bytecode caches for the test run, also where ``PYTHONDONTWRITEBYTECODE`` is set (some
CI images and containers set it). Without them every test process rewrites and compiles every test
module again (~9 CPU-seconds each to collect the suite), and every bot, sandbox and search-worker
process the tests start compiles the project again: measured on 2 cores, the suite's CPU time is
~10 % lower with them. Loaded first (``-p tests.bytecode`` in ``addopts``), so the caches cover
everything imported after it; processes the tests start inherit the setting. The caches go to
``__pycache__/`` (ignored by git), as with Python's default."""

import os
import sys

sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
