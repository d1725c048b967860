"""``python -m ranking`` is the ``tiebreak`` command."""

from tiebreak.cli import main

raise SystemExit(main())
