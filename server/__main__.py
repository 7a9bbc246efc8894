"""``python -m server`` runs the ``vvw`` command line."""

import sys

from server.cli import main

sys.exit(main())
