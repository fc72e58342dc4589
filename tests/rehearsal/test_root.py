"""The rehearsal's cache (root.py), checked without root: a machine with no cache folder
yet, and apt's packages carried from one run to the next through each run's own
archive folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from root import cache_dir, downloads, keep_archives, run_archives


def test_a_missing_cache_folder_is_made_and_packages_carry_over_between_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "no" / "cache" / "yet"
    monkeypatch.setenv("KEEZBORD_REHEARSAL_CACHE", str(cache))
    assert cache_dir() == cache and not cache.exists()
    first = run_archives(tmp_path / "run1")
    assert (first / "partial").is_dir() and list(first.glob("*.deb")) == []
    apt, pip = downloads()
    assert apt.is_dir() and pip.is_dir()
    # The first run fetched a package (and left a partial download): the cache keeps the
    # whole package only, and a package it has already is not written again.
    (first / "gcc-12_12.2.0-14_amd64.deb").write_bytes(b"deb one")
    (first / "partial" / "swig_4.1.0-0.2_amd64.deb").write_bytes(b"half")
    (apt / "make_4.3-4.1_amd64.deb").write_bytes(b"cached")
    (first / "make_4.3-4.1_amd64.deb").write_bytes(b"other")
    keep_archives(first)
    assert sorted(p.name for p in apt.iterdir() if p.is_file()) == [
        "gcc-12_12.2.0-14_amd64.deb",
        "make_4.3-4.1_amd64.deb",
    ]
    assert (apt / "make_4.3-4.1_amd64.deb").read_bytes() == b"cached"
    # The next run starts with them, in a folder of its own (apt locks its archives).
    second = run_archives(tmp_path / "run2")
    assert (second / "gcc-12_12.2.0-14_amd64.deb").read_bytes() == b"deb one"
    assert second != apt and not (second / "lock").exists()
