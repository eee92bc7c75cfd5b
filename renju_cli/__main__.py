"""``python -m renju_cli`` runs the command line."""

from renju_cli.cli import main

if __name__ == "__main__":
    main()
