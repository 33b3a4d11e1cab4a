"""`python -m toolgen` runs the command line."""

from toolgen.cli import main

if __name__ == "__main__":
    main()
