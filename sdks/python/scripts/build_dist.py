#!/usr/bin/env python3
"""Builds the sdist, then the wheel from that sdist, offline, into --outdir.

    python3 scripts/build_dist.py --outdir /tmp/dist

A minimal PEP 517 front end (the work of ``python -m build --no-isolation``, which Debian's python3
lacks unless python3-build is installed): it calls the build backend pyproject.toml names, which
must be importable already (setuptools and wheel: python3-setuptools, python3-wheel), so nothing is
downloaded. Each hook runs in a copy of the project in a temporary folder, because setuptools
writes build/ and *.egg-info next to the sources; the wheel is built from the unpacked sdist, as an
installer given the sdist would build it, which also proves the sdist is complete. Prints the two
file names. A missing backend requirement stops it at once, naming what to install, instead of
setuptools' ``invalid command 'bdist_wheel'`` half-way through.
"""

from __future__ import annotations

import argparse
import importlib
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


# What to install for each build requirement, by its import name: Debian's package, then pip's.
INSTALL = {
    "setuptools": ("python3-setuptools", "setuptools"),
    "wheel": ("python3-wheel", "wheel"),
}


def requirements(pyproject: Path) -> list[str]:
    """The import names of pyproject.toml's [build-system] requires, versions left out."""
    try:
        import tomllib
    except ImportError:  # Python before 3.11: the list is one line of quoted names.
        line = re.search(r"^requires\s*=\s*\[(.*)\]", pyproject.read_text(encoding="utf-8"), re.MULTILINE)
        requires = re.findall(r'"([^"]+)"', line.group(1)) if line else []
    else:
        with pyproject.open("rb") as file:
            requires = tomllib.load(file).get("build-system", {}).get("requires", [])
    return [re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0].strip() for requirement in requires]


def missing_requirements(names: list[str]) -> list[str]:
    """Those of ``names`` this interpreter cannot import (the hooks run in this interpreter)."""
    missing = []
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    return missing


def install_hint(missing: list[str]) -> str:
    debian = " ".join(INSTALL.get(name, (f"python3-{name}", name))[0] for name in missing)
    pip = " ".join(INSTALL.get(name, (name, name))[1] for name in missing)
    return (
        f"build_dist.py needs the build backend's requirements, and {', '.join(missing)} cannot be imported by "
        f"{sys.executable}. Install {'it' if len(missing) == 1 else 'them'}: `sudo apt-get install {debian}` "
        f"(Debian, Ubuntu) or `{sys.executable} -m pip install {pip}`, then run it again."
    )


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
        if "invalid command 'bdist_wheel'" in done.stderr:
            raise SystemExit(f"{hook} failed: " + install_hint(["wheel"]))
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
    missing = missing_requirements(requirements(PROJECT / "pyproject.toml"))
    if missing:
        raise SystemExit(install_hint(missing))
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
