"""``python -m engine replay HAND.json``, ``python -m engine verify HAND.json`` and
``python -m engine arena ...``."""

from __future__ import annotations

import importlib.util
import json
import sys

USAGE = """usage: python -m engine replay HAND.json   (replay a hand record, print the result as JSON)
       python -m engine verify HAND.json [--seed HEX --salt HEX] [--commitment HEX]
                                         (check a fair deal's reveal against its commitment)
       python -m engine verify-seating NIGHT.json [--seed HEX --salt HEX] [--commitment HEX] [--round N]
                                         (recompute a league night's seating from its revealed seed)
       python -m engine arena ...           (bot matches; see python -m engine arena --help)"""


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0 if args else 2
    cmd, rest = args[0], args[1:]
    if cmd == "replay":
        if len(rest) != 1 or rest[0] in ("-h", "--help"):
            print(
                "usage: python -m engine replay HAND.json   (use - for stdin)",
                file=sys.stdout if rest[:1] in (["-h"], ["--help"]) else sys.stderr,
            )
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
    if cmd == "verify":
        return _verify(rest)
    if cmd == "verify-seating":
        return _verify_seating(rest)
    if cmd == "arena":
        if importlib.util.find_spec("engine.arena") is None:
            print("the arena is not available in this build", file=sys.stderr)
            return 2
        from . import arena

        code = arena.main(rest)
        return int(code or 0)
    print(f"unknown command {cmd!r}\n{USAGE}", file=sys.stderr)
    return 2


def _verify(rest: list[str]) -> int:
    import argparse

    from .record import read_record
    from .verify import verify

    parser = argparse.ArgumentParser(
        prog="python -m engine verify",
        description="Check that a hand was dealt from the seed committed before it: the seed and "
        "salt hash to the commitment, the deal is the one the seed gives, and the "
        "record replays. Prints one line; exit status 0 when everything matches, 1 if not.",
    )
    parser.add_argument("record", help="the hand record (JSON file, - for stdin)")
    parser.add_argument("--seed", help="the revealed seed (default: the record's fair.seed)")
    parser.add_argument("--salt", help="the revealed salt (default: the record's fair.salt)")
    parser.add_argument(
        "--commitment",
        help="the commitment you saw before the hand (full, or its "
        "first 8+ hex digits; default: the record's)",
    )
    args = parser.parse_args(rest)
    from .errors import RecordError

    try:
        record = read_record(args.record)
    except RecordError as e:
        print(f"FAIL: {e}".replace("\n", " "), file=sys.stderr)
        return 1
    verdict = verify(record, seed=args.seed, salt=args.salt, commitment_seen=args.commitment)
    print(verdict.message, file=sys.stdout if verdict.ok else sys.stderr)
    return 0 if verdict.ok else 1


def _verify_seating(rest: list[str]) -> int:
    import argparse

    from .seating_record import verify_night

    parser = argparse.ArgumentParser(
        prog="python -m engine verify-seating",
        description="Recompute a league night's seating from the seed revealed after the night: "
        "the seed and salt hash to the commitment on the check-in post, and each round's tables "
        "are the ones the seed seats. Prints the tables and one verdict line; exit status 0 when "
        "everything matches, 1 if not.",
    )
    parser.add_argument("record", help="the night's seating record (JSON file, - for stdin)")
    parser.add_argument("--seed", help="the revealed seed (default: the record's)")
    parser.add_argument("--salt", help="the revealed salt (default: the record's)")
    parser.add_argument(
        "--commitment", help="the commitment on the check-in post (8+ hex digits; default: the record's)"
    )
    parser.add_argument("--round", type=int, help="only this round (default: every round)")
    args = parser.parse_args(rest)
    try:
        if args.record == "-":
            record = json.load(sys.stdin)
        else:
            with open(args.record, encoding="utf-8") as f:
                record = json.load(f)
    except (OSError, ValueError) as e:
        print(f"FAIL: cannot read {args.record}: {e}".replace("\n", " "), file=sys.stderr)
        return 1
    verdict = verify_night(
        record, seed=args.seed, salt=args.salt, commitment_seen=args.commitment, round_no=args.round
    )
    for line in verdict.lines:
        print(line)
    print(verdict.message, file=sys.stdout if verdict.ok else sys.stderr)
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    sys.exit(main())
