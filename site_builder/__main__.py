"""``python -m site_builder`` is the site's command line (``site_builder.cli``)."""

from site_builder.cli import main
from tiebreak.process import no_collection_at_exit

no_collection_at_exit()
raise SystemExit(main())
