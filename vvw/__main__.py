"""``python -m vvw`` runs the ``vvw`` command line (how ``vvw match`` starts built-in bots)."""

import sys

from vvw.entry import main

sys.exit(main())
