"""Launch-contract rules shared by the conv families' contract.py (host-side, Python only: a launch
contract is written by the Python engine and read by hosts as JSON)."""

from __future__ import annotations

from rocke.families.launch import LaunchError

from .geometry import WindowSpec, output_hw


def fitting_output_hw(family: str, spec: WindowSpec, h: int, w: int) -> tuple[int, int]:
    """(Ho, Wo) of an H x W input; LaunchError when the padded input is smaller than the window."""
    ho, wo = output_hw(spec, h, w)
    if ho < 1 or wo < 1:
        raise LaunchError(f"{family}: a {h} x {w} input padded by {spec.pad_h}, {spec.pad_w} is smaller than the "
                          f"filter window")
    return ho, wo
