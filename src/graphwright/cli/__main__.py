"""`python -m graphwright.cli`: the `graphwright` command."""

import sys

from graphwright.cli import main

sys.exit(main())
