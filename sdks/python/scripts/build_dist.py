#!/usr/bin/env python3
"""Builds the sdist, then the wheel from that sdist, offline, into --outdir.

    python3 scripts/build_dist.py --outdir /tmp/dist

A minimal PEP 517 front end (the work of ``python -m build --no-isolation``, which Debian's python3
lacks unless python3-build is installed): it calls the build backend pyproject.toml names, which
must be importable already (setuptools and wheel: python3-setuptools, python3-wheel), so nothing is
downloaded. Each hook runs in a copy of the project in a temporary folder, because setuptools
writes build/ and *.egg-info next to the sources; the wheel is built from the unpacked sdist, as an
installer given the sdist would build it, which also proves the sdist is complete. Prints the two
file names.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
# What an sdist is made from: the rest (tests, scripts, caches) stays out of the copy.
SOURCES = ["pyproject.toml", "README.md", "src"]

HOOK = """
import importlib, json, sys
backend = importlib.import_module(sys.argv[1])
name = getattr(backend, sys.argv[2])(sys.argv[3])
print("\\n" + json.dumps(name))
"""


def backend_name(pyproject: Path) -> str:
    text = pyproject.read_text(encoding="utf-8")
    match = re.search(r'^build-backend\s*=\s*"([^"]+)"', text, re.MULTILINE)
    if not match:
        raise SystemExit("pyproject.toml names no build-backend")
    return match.group(1)


def call_hook(source: Path, backend: str, hook: str, outdir: Path) -> str:
    """Runs one backend hook in a fresh interpreter (as PEP 517 front ends do) in ``source``."""
    done = subprocess.run(
        [sys.executable, "-c", HOOK, backend, hook, str(outdir)],
        cwd=source,
        capture_output=True,
        text=True,
        env={"PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin:/bin", "SOURCE_DATE_EPOCH": "1700000000"},
    )
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"{hook} failed")
    return json.loads(done.stdout.strip().splitlines()[-1])


def copy_sources(target: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")
    for name in SOURCES:
        source = PROJECT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=ignore)
        else:
            shutil.copy2(source, target / name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outdir", type=Path, required=True)
    args = parser.parse_args()
    outdir = args.outdir.resolve()
    outdir.mkdir(parents=True, exist_ok=True)
    backend = backend_name(PROJECT / "pyproject.toml")
    with tempfile.TemporaryDirectory(prefix="casino-gaming-build-") as scratch:
        tree = Path(scratch) / "tree"
        tree.mkdir()
        copy_sources(tree)
        sdist = call_hook(tree, backend, "build_sdist", outdir)
        unpacked = Path(scratch) / "unpacked"
        with tarfile.open(outdir / sdist) as archive:
            members = archive.getmembers()
            if any(member.name.startswith(("/", "..")) or ".." in Path(member.name).parts for member in members):
                raise SystemExit("the sdist holds a path outside its folder")
            archive.extractall(unpacked)
        (root,) = list(unpacked.iterdir())
        wheel = call_hook(root, backend, "build_wheel", outdir)
    print(sdist)
    print(wheel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
