"""``python3 dev.py …``'s set-up: quiet, as the README's first command should be."""

import os
import subprocess
import sys

import dev

NOTICE = (
    "from setuptools.warnings import InformationOnly;"
    " InformationOnly.emit('Editable installation.', 'Please be careful with folders')"
)
"""setuptools' own notice at each editable install, emitted as its build emits it."""


def _emitted(environment: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", NOTICE], env=environment, capture_output=True, text=True
    )
    return done.stderr


def test_set_up_hides_setuptools_editable_installation_box():
    plain = {name: value for name, value in os.environ.items() if name != "PYTHONWARNINGS"}
    assert "Editable installation" in _emitted(plain)  # what a first set-up printed
    assert _emitted({**plain, **dev.QUIET_INSTALL}) == ""
