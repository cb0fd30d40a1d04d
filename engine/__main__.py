"""``python -m engine replay HAND.json`` and ``python -m engine arena ...``."""

from __future__ import annotations

import importlib.util
import json
import sys

USAGE = """usage: python -m engine replay HAND.json   (replay a hand record, print the result as JSON)
       python -m engine arena ...           (bot matches; see python -m engine arena --help)"""


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0 if args else 2
    cmd, rest = args[0], args[1:]
    if cmd == "replay":
        if len(rest) != 1 or rest[0] in ("-h", "--help"):
            print("usage: python -m engine replay HAND.json   (use - for stdin)",
                  file=sys.stdout if rest[:1] in (["-h"], ["--help"]) else sys.stderr)
            return 0 if rest[:1] in (["-h"], ["--help"]) else 2
        from .errors import RecordError
        from .record import replay_file

        try:
            result = replay_file(rest[0])
        except RecordError as e:
            print(str(e).replace("\n", " "), file=sys.stderr)
            return 1
        print(json.dumps(result))
        return 0
    if cmd == "arena":
        if importlib.util.find_spec("engine.arena") is None:
            print("the arena is not available in this build", file=sys.stderr)
            return 2
        from . import arena

        code = arena.main(rest)
        return int(code or 0)
    print(f"unknown command {cmd!r}\n{USAGE}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
