"""``python -m pagesift_ui`` runs the command line."""

from __future__ import annotations

import sys

from pagesift_ui.cli import main

sys.exit(main())
