"""Entry point of the frozen app: the same `killbox` command as the console script."""

from desktop.app import main

if __name__ == "__main__":
    raise SystemExit(main())
