"""``python -m ranking`` is the ``tiebreak`` command."""

from ranking.cli import main

raise SystemExit(main())
