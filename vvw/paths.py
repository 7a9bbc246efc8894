"""Files and folders named on the command line: checked early, refused in one clear line.

:func:`folder_to_write` is an argparse type (the folder is made if missing, so a bad one is
refused before any game starts) and :func:`make_folder` the same check for a folder known
later; :func:`write_file` writes a file the user named. :class:`PathError` says in one line
why a path cannot be used, naming it.
"""

import argparse
import os
from pathlib import Path

from vvw.errors import UsageError


class PathError(UsageError):
    """A file or folder named by the user cannot be used; ``str()`` is one line saying why."""


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def make_folder(folder: Path) -> Path:
    """``folder``, made (with its parents) if missing; :class:`PathError` if it cannot be."""
    if folder.exists() and not folder.is_dir():
        raise PathError(f"{folder} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise PathError(f"cannot make the folder {folder}: {_reason(error)}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PathError(f"cannot write into the folder {folder}: permission denied")
    return folder


def folder_to_write(text: str) -> Path:
    """An argparse type: a folder to write files into, made (with its parents) if missing."""
    try:
        return make_folder(Path(text))
    except PathError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def write_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` (replacing a file there); :class:`PathError` if it cannot."""
    if path.is_dir():
        raise PathError(f"cannot write {path}: it is a folder")
    parent = path.parent
    if not parent.is_dir():
        why = f"{parent} is not a folder" if parent.exists() else f"no folder {parent}"
        raise PathError(f"cannot write {path}: {why}")
    try:
        path.write_bytes(data)
    except OSError as error:
        raise PathError(f"cannot write {path}: {_reason(error)}") from None
