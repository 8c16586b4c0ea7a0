"""`python -m local dev` is `waitgate dev`."""

import sys

from local.cli import main

sys.exit(main())
