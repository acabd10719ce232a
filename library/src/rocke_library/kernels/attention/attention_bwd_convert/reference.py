"""float64 numpy reference of attention_bwd_convert, from the definition: every output element is
its workspace element (dkv_mode=split: the sum over the group's query heads
h_kv * group .. h_kv * group + group - 1 of the per-query-head slices), rounded once to the
output dtype. Workspaces are logical [tokens, heads, D] arrays (batched tokens are b * S + s)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .spec import AttentionBwdConvertSpec


def reference(spec: AttentionBwdConvertSpec, inputs: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """{tensor: [tokens, heads, D] float64} for every output the spec converts, from
    inputs["<tensor>_acc"] and inputs["group"]."""
    group = int(inputs["group"])
    out = {}
    for tensor in spec.tensors:
        ws = np.asarray(inputs[f"{tensor}_acc"]).astype(np.float64)
        if tensor != "dq" and spec.dkv_mode == "split":
            t, h_q, d = ws.shape
            summed = np.zeros((t, h_q // group, d))
            for g in range(group):
                summed += ws.reshape(t, h_q // group, group, d)[:, :, g, :]
            ws = summed
        out[tensor] = ws
    return out
