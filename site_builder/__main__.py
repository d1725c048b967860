"""``python -m site_builder`` is the site's command line (``site_builder.cli``)."""

from site_builder.cli import main

raise SystemExit(main())
