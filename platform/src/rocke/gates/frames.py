"""Framed records: how native emitters stream many kernels through one process.

A stream is a sequence of records and one end marker, all LF-terminated:

    @@rocke-record <index> <kind> <nbytes>\\n<payload: exactly nbytes bytes>\\n
    @@rocke-end <configs>\\n

Records of one config share its index (0-based, in config-file order); the end
marker counts configs. ``kind`` is ``ir``, ``ll:<flavor>`` or ``refusal``. The reader is strict: a missing
end marker (a truncated stream), a count that disagrees with the records, a short
payload, or any stray byte is a FrameError. The C++ writer is rocke/gates/frames.hpp.
"""

from __future__ import annotations

from dataclasses import dataclass

RECORD = b"@@rocke-record "
END = b"@@rocke-end "


class FrameError(ValueError):
    """A malformed or truncated record stream."""


@dataclass(frozen=True)
class Record:
    index: int
    kind: str
    payload: str


def write_record(index: int, kind: str, payload: str) -> bytes:
    data = payload.encode()
    return RECORD + f"{index} {kind} {len(data)}\n".encode() + data + b"\n"


def write_end(configs: int) -> bytes:
    return END + f"{configs}\n".encode()


def read_records(stream: bytes) -> list[Record]:
    records: list[Record] = []
    pos = 0
    while True:
        if stream.startswith(END, pos):
            line_end = stream.find(b"\n", pos)
            if line_end < 0:
                raise FrameError("truncated end marker")
            count_text = stream[pos + len(END):line_end].decode("ascii", "replace")
            configs = len({r.index for r in records})
            if not count_text.isdigit() or int(count_text) != configs:
                raise FrameError(f"end marker says {count_text} configs, stream has {configs}")
            if line_end + 1 != len(stream):
                raise FrameError(f"{len(stream) - line_end - 1} stray bytes after the end marker")
            return records
        if not stream.startswith(RECORD, pos):
            if pos >= len(stream):
                raise FrameError(f"stream ends after {len(records)} records without an end marker (truncated)")
            raise FrameError(f"expected a record header at byte {pos}")
        line_end = stream.find(b"\n", pos)
        if line_end < 0:
            raise FrameError(f"truncated header of record {len(records)}")
        fields = stream[pos + len(RECORD):line_end].decode("ascii", "replace").split(" ")
        if len(fields) != 3 or not fields[0].isdigit() or not fields[2].isdigit():
            raise FrameError(f"malformed header of record {len(records)}")
        index, kind, size = int(fields[0]), fields[1], int(fields[2])
        start, stop = line_end + 1, line_end + 1 + size
        if stop + 1 > len(stream) or stream[stop:stop + 1] != b"\n":
            raise FrameError(f"record {index} ({kind}) is truncated")
        records.append(Record(index, kind, stream[start:stop].decode()))
        pos = stop + 1
