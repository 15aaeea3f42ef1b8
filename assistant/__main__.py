"""`python -m assistant …` → the same command line as the `assistant` script."""

from assistant.cli import main

main()
