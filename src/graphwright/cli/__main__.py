"""`python -m graphwright.cli`: the `graphwright` command."""

from graphwright.cli import main

main()
