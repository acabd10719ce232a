"""Launch contracts of platform's families in the C++ engine (rocke_engine.launch_contract): the
same JSON bytes as the Python contracts over every config of each family's config file and a set
of problems (tails, bias, sizes at and past the i32 limits), and the same LaunchError texts."""

from __future__ import annotations

import pytest
import rocke_engine

from rocke.families import get_family
from rocke.families.configs import family_configs
from rocke.families.launch import LaunchError

pytestmark = pytest.mark.parity

PROBLEMS = {
    "elementwise": [{"n": 1}, {"n": 1000}, {"n": 2**31 - 1}, {"n": 2**31}, {"n": 0}, {"m": 3}, {}],
    "gemm": [{"m": 100, "n": 70, "k": 33}, {"m": 1, "n": 1, "k": 1}, {"m": 65536, "n": 65536, "k": 1},
             {"m": 1, "n": 1, "k": 0}, {"m": 2**31, "n": 1, "k": 1}, {"m": 1, "n": 1}],
}


def _outcome(call, *args):
    try:
        return call(*args)
    except (LaunchError, ValueError, KeyError) as exc:
        return (type(exc).__name__, str(exc))


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_cpp_contracts_equal_python_contracts(name):
    family = get_family(name)
    seen = 0
    for line in family_configs(family):
        if line.refuse:
            continue
        spec = family.spec.from_kv(line.kv)
        for problem in PROBLEMS[name]:
            py = _outcome(lambda s, p: family.launch(s, p).to_json(), spec, problem)
            cpp = _outcome(rocke_engine.launch_contract, name, line.kv, problem)
            assert py == cpp, (line.kv, problem)
            seen += isinstance(py, str)
    assert seen >= 10


def test_a_bad_spec_is_the_spec_error_and_an_unknown_family_a_key_error():
    with pytest.raises(ValueError, match="gemm: unknown key 'x'"):
        rocke_engine.launch_contract("gemm", "x=1", {"m": 1, "n": 1, "k": 1})
    with pytest.raises(KeyError, match="no C\\+\\+ launch contract for family 'nope'"):
        rocke_engine.launch_contract("nope", "", {})
