"""Engine identity: the C++ engine reports the Python engine's version (grows with the C++ twin)."""

import pytest

import rocke
from rocke.engine import native_engine

pytestmark = pytest.mark.parity


def test_cpp_engine_version_equals_python_version():
    assert native_engine().version() == rocke.__version__
