"""The version, read from the one place it is written: pyproject.toml, through the installed
distribution's metadata, or from pyproject.toml itself in a source checkout."""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["__version__"]

DISTRIBUTION = "casino-gaming"


def _from_source_tree() -> "str | None":
    # src/casino_gaming/_version.py -> the project folder holding pyproject.toml.
    pyproject = Path(__file__).resolve().parent.parent.parent / "pyproject.toml"
    try:
        text = pyproject.read_text(encoding="utf-8")
    except OSError:
        return None
    if not re.search(r'^name\s*=\s*"casino-gaming"\s*$', text, re.MULTILINE):
        return None
    match = re.search(r'^version\s*=\s*"([^"]+)"\s*$', text, re.MULTILINE)
    return match.group(1) if match else None


def _from_metadata() -> "str | None":
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover
        return None
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return None


# A source checkout's own pyproject.toml comes first: an older installed copy must not name the
# code being run.
__version__: str = _from_source_tree() or _from_metadata() or "0+unknown"
