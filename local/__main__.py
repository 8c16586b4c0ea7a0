"""`python -m local dev` is `waitgate dev`."""

import sys

from local.cli.main import main

sys.exit(main())
