"""``python -m kopt``: the kopt command."""
from .cli import main

main()
