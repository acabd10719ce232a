"""The two extension modules carry the same core (grows with the library families' C++ twins)."""

import pytest
import rocke_engine
import rocke_library_engine

pytestmark = pytest.mark.parity


def test_library_engine_and_platform_engine_share_the_core_version():
    assert rocke_library_engine.platform_version() == rocke_engine.version()
