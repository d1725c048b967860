"""Pair one round of a TRF file with our Dutch engine and print the JaVaFo pairs list.

The candidate command for ``check_pairing.py`` (shared/tools)::

    python3 tools/check_pairing.py --set validation/pairings-dutch-2026 \\
        --cmd '.venv/bin/python tests/dutch_pair.py {in} {r}'
"""

from __future__ import annotations

import sys
from pathlib import Path

from ranking.dutch import pair_round, pairs_text
from ranking.errors import InputError
from ranking.trf import parse_trf


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: dutch_pair.py FILE.trf ROUND", file=sys.stderr)
        return 2
    path, rnd = argv
    try:
        tournament = parse_trf(Path(path).read_text(encoding="utf-8"), source=path)
        sys.stdout.write(pairs_text(pair_round(tournament, int(rnd))))
    except InputError as error:
        print(error, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
