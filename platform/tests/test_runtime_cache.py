"""The code-object cache (rocke.runtime.cache): keys, verified loads, LRU eviction under a size bound,
atomic writes under concurrent processes, and the `rocke cache` verb."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import random
from pathlib import Path

import pytest

from rocke.cli import app
from rocke.runtime import CacheError, CacheKey, CodeObjectCache, default_cache_dir
from rocke.runtime.cache import MAGIC, SUFFIX


def _key(i: int = 0, **fields: str) -> CacheKey:
    base = {"kernel": f"k{i}", "digest": hashlib.sha256(str(i).encode()).hexdigest(), "arch": "sm_90",
            "flavor": "llvm22", "toolchain": "rocke 0.1.0; llvm22; ptxas 12.9"}
    return CacheKey(**{**base, **fields})


def _code(i: int, size: int = 1000) -> bytes:
    return hashlib.sha256(str(i).encode()).digest() * (size // 32) + b"\x7fELF"[: size % 32]


def test_every_key_field_selects_its_own_entry():
    key = _key()
    assert key.file_name() == _key().file_name() and key.file_name().endswith(SUFFIX)
    variants = [_key(kernel="other"), _key(digest="0" * 64), _key(arch="gfx942"), _key(flavor="llvm20"),
                _key(toolchain="rocke 0.1.0; llvm22; ptxas 12.8")]
    assert len({key.file_name(), *(v.file_name() for v in variants)}) == 6


def test_default_directory_is_the_environment_or_home(monkeypatch, tmp_path):
    monkeypatch.setenv("ROCKE_CACHE_DIR", str(tmp_path / "here"))
    assert default_cache_dir() == tmp_path / "here"
    assert CodeObjectCache().directory == tmp_path / "here"
    monkeypatch.delenv("ROCKE_CACHE_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_cache_dir() == tmp_path / ".cache" / "rocke"
    with pytest.raises(CacheError, match="max_bytes must be a positive int"):
        CodeObjectCache(tmp_path, max_bytes=0)


def test_store_then_load_and_build_once(tmp_path):
    cache = CodeObjectCache(tmp_path / "c")
    assert cache.load(_key()) is None
    builds = []
    code = cache.get_or_build(_key(), lambda: builds.append(1) or _code(0))
    assert code == _code(0) and cache.get_or_build(_key(), lambda: builds.append(1) or b"other") == _code(0)
    assert builds == [1]
    (entry,) = cache.entries()
    assert entry.key == _key() and entry.path.read_bytes().startswith(MAGIC)
    assert [p.name for p in (tmp_path / "c").iterdir()] == [_key().file_name()]  # no temporary left behind


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[:-7])
    elif how == "payload flipped":
        path.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    elif how == "header sha changed":
        header, rest = data.split(b"\n", 2)[1], data.split(b"\n", 2)[2]
        path.write_bytes(MAGIC + header.replace(b'"sha256": "', b'"sha256": "0') + b"\n" + rest)
    elif how == "garbage":
        path.write_bytes(b"\x00\x01 not an entry")
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "header only":
        path.write_bytes(data.split(b"\n", 2)[0] + b"\n")


@pytest.mark.parametrize("how", ["truncated", "payload flipped", "header sha changed", "garbage", "empty",
                                 "header only"])
def test_a_damaged_entry_is_rebuilt_never_returned(tmp_path, how):
    cache = CodeObjectCache(tmp_path)
    cache.store(_key(), _code(0))
    path = tmp_path / _key().file_name()
    _damage(path, how)
    assert cache.load(_key()) is None
    assert not path.exists()  # removed
    assert cache.get_or_build(_key(), lambda: _code(0)) == _code(0)
    assert cache.load(_key()) == _code(0)


def test_another_keys_entry_under_this_name_is_not_returned(tmp_path):
    cache = CodeObjectCache(tmp_path)
    cache.store(_key(1), _code(1))
    os.replace(tmp_path / _key(1).file_name(), tmp_path / _key(2).file_name())  # valid entry, wrong name
    assert cache.load(_key(2)) is None
    assert cache.entries() == []


def _set_used(cache: CodeObjectCache, key: CacheKey, when: float) -> None:
    os.utime(cache.directory / key.file_name(), (when, when))


def test_least_recently_used_entries_are_evicted_past_the_bound(tmp_path):
    cache = CodeObjectCache(tmp_path)
    cache.store(_key(0), _code(0))
    size = cache.entries()[0].bytes  # every entry here has this size
    cache = CodeObjectCache(tmp_path, max_bytes=3 * size + size // 2)
    for i in range(3):
        cache.store(_key(i), _code(i))
        _set_used(cache, _key(i), 1000.0 + i)
    assert [e.key.kernel for e in cache.entries()] == ["k0", "k1", "k2"]
    assert cache.load(_key(0)) == _code(0)  # a hit: k0 becomes the most recently used
    cache.store(_key(3), _code(3))  # over the bound: the least recently used (k1) goes
    assert sorted(e.key.kernel for e in cache.entries()) == ["k0", "k2", "k3"]
    assert sum(e.bytes for e in cache.entries()) <= cache.max_bytes
    cache.store(_key(4), _code(4, size=5 * size))  # larger than the bound: kept alone
    assert [e.key.kernel for e in cache.entries()] == ["k4"]


def test_clear_and_stale_temporaries_leave_other_files_alone(tmp_path):
    cache = CodeObjectCache(tmp_path)
    cache.store(_key(), _code(0))
    (tmp_path / "notes.txt").write_text("mine")
    stale, fresh = tmp_path / ".tmp-stale", tmp_path / ".tmp-fresh"
    stale.write_bytes(b"x")
    fresh.write_bytes(b"x")
    os.utime(stale, (1.0, 1.0))
    cache.evict()
    assert not stale.exists() and fresh.exists()
    size = (tmp_path / _key().file_name()).stat().st_size
    assert cache.clear() == (1, size)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


# ---- concurrent processes ---------------------------------------------------------------------------

KEYS = 6


def _worker(directory: str, seed: int, rounds: int, corrupt: bool) -> None:
    """get_or_build random keys under a tight bound; with corrupt, also damage entries in place (not
    atomically). Exit status 3 if a load ever returned bytes other than the key's own."""
    rng = random.Random(seed)
    cache = CodeObjectCache(directory, max_bytes=3 * 1300)  # room for about three of the six entries
    for _ in range(rounds):
        i = rng.randrange(KEYS)
        if corrupt and rng.random() < 0.3:
            path = Path(directory) / _key(i).file_name()
            try:
                data = path.read_bytes()
                with open(path, "r+b") as out:  # torn, in place
                    out.truncate(rng.randrange(len(data) + 1))
            except FileNotFoundError:
                pass
            continue
        if cache.get_or_build(_key(i), lambda i=i: _code(i)) != _code(i):
            os._exit(3)
    os._exit(0)


def test_concurrent_processes_never_see_a_torn_or_foreign_entry(tmp_path):
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_worker, args=(str(tmp_path), seed, 150, seed == 0)) for seed in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    assert [worker.exitcode for worker in workers] == [0, 0, 0, 0]
    cache = CodeObjectCache(tmp_path)
    for entry in cache.entries():
        assert cache.load(entry.key) == _code(int(entry.key.kernel[1:]))
    assert not list(tmp_path.glob(".tmp-*"))


# ---- rocke cache ------------------------------------------------------------------------------------


def test_cache_verb_shows_and_clears(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ROCKE_CACHE_DIR", str(tmp_path))
    cache = CodeObjectCache()
    cache.store(_key(1), _code(1))
    cache.store(_key(2), _code(2))
    assert app.main(["cache", "show"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"cache: {tmp_path}: 2 code object(s), ")
    assert out[1].startswith("  k1  sm_90  llvm22  ") and out[2].startswith("  k2  sm_90  llvm22  ")
    assert app.main(["cache", "show", "--json"]) == 0
    assert '"kernel": "k2"' in capsys.readouterr().out
    assert app.main(["cache", "clear"]) == 0
    assert capsys.readouterr().out.startswith("cache: removed 2 code object(s), ")
    assert cache.entries() == []
