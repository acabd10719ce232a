"""rocke_library_engine raises the typed Python twins of the C++ errors (the translator both
modules share, rocke/bindings/exceptions.hpp), with the Python engine's text: SpecError,
ParseError, VerifyError, LowerError, UnknownArchError, not a flattened ValueError."""

from __future__ import annotations

import pytest
import rocke_engine
import rocke_library_engine

from rocke.arch.errors import UnknownArchError
from rocke.families import get_family
from rocke.families.configs import family_configs
from rocke.families.spec import SpecError
from rocke.ir import Builder, f32, print_kernel
from rocke.ir.errors import ParseError, VerifyError
from rocke.ir.samples import sample_kernels
from rocke.lower import LowerError, lower


def _big_lds() -> str:
    b = Builder("big", max_workgroup_size=64)
    big = b.lds_alloc(f32, 40960)  # 163840 bytes: gfx950's limit, above gfx942's
    b.lds_store(big, b.thread_id_x(), b.const(0.0, f32))
    return print_kernel(b.finish())


def _python_error(fn) -> BaseException:
    with pytest.raises(Exception) as info:
        fn()
    return info.value


@pytest.mark.parametrize("module", [rocke_library_engine, rocke_engine], ids=["library", "platform"])
def test_lower_ir_errors_are_typed(module) -> None:
    lower_ir = module.lower_ir if module is rocke_library_engine else module.lower
    cases = [
        (ParseError, "this is not rocke.ir/1 text\n", "gfx942"),
        (VerifyError, print_kernel(sample_kernels()["gemm_mfma"]), "gfx1100"),
        (LowerError, _big_lds(), "gfx942"),
        (UnknownArchError, print_kernel(sample_kernels()["axpy"]), "gfx90a"),
    ]
    for cls, text, arch in cases:
        with pytest.raises(cls) as info:
            lower_ir(text, arch, "llvm22")
        assert type(info.value) is cls, f"{cls.__name__}: got {type(info.value).__name__}"
        assert isinstance(info.value, ValueError)


def test_typed_errors_carry_the_python_engine_text() -> None:
    big = _big_lds()
    from rocke.ir import parse_kernel

    python = _python_error(lambda: lower(parse_kernel(big), arch="gfx942", flavor="llvm22"))
    native = _python_error(lambda: rocke_library_engine.lower_ir(big, "gfx942", "llvm22"))
    assert type(native) is type(python) is LowerError
    assert str(native) == str(python)
    assert (native.where, native.what) == (python.where, python.what)


def test_spec_refusal_is_spec_error_from_build_and_lower_family() -> None:
    family = get_family("conv_direct_fwd")
    refused = next(c for c in family_configs(family) if c.refuse)
    python = _python_error(lambda: family.build(family.spec.from_kv(refused.kv), refused.arch))
    for call in (lambda: rocke_library_engine.build_family(family.name, refused.kv, refused.arch),
                 lambda: rocke_library_engine.lower_family(family.name, refused.kv, refused.arch, "llvm22")):
        native = _python_error(call)
        assert type(native) is SpecError, type(native).__name__
        assert str(native) == str(python)


def test_unknown_family_is_key_error_and_unknown_arch_is_typed() -> None:
    with pytest.raises(KeyError) as info:
        rocke_library_engine.build_family("no_such_family", "a=1", "gfx942")
    assert type(info.value) is KeyError
    family = get_family("img2col")
    config = next(c for c in family_configs(family) if not c.refuse)
    with pytest.raises(UnknownArchError):
        rocke_library_engine.lower_family(family.name, config.kv, "gfx90a", "llvm22")


def test_lower_family_is_the_python_engine_bytes() -> None:
    for name in ("conv_direct_fwd", "img2col"):
        family = get_family(name)
        config = next(c for c in family_configs(family) if not c.refuse)
        kernel = family.build(family.spec.from_kv(config.kv), config.arch)
        for flavor in ("llvm20", "llvm22"):
            assert rocke_library_engine.lower_family(name, config.kv, config.arch, flavor) == lower(
                kernel, arch=config.arch, flavor=flavor)
