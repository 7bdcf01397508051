"""The web inspector (`pagemem ui`, and `/ui` under `pagemem serve`)."""

from pagemem.ui.app import create_ui

__all__ = ["create_ui"]
