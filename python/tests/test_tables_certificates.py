"""Endgame tables and proof certificates from Python, against the search and the checker."""

import random

import pytest

import dakon
from conftest import random_positions


@pytest.mark.parametrize("rules", ["dakon", "kalah"])
def test_tables_probe_the_searched_values(tmp_path, rules: str) -> None:
    tiers = dakon.tables.build(holes=3, max_seeds=8, rules=rules, tables_dir=str(tmp_path), threads=2)
    assert [t["seeds"] for t in tiers] == list(range(9)) and all(t["built"] for t in tiers)
    again = dakon.tables.build(holes=3, max_seeds=8, rules=rules, tables_dir=str(tmp_path))
    assert not any(t["built"] for t in again)
    rng = random.Random(5)
    for p in random_positions(rng, rules, 200, max_holes=3, max_seeds=3):
        if p.holes == 3 and p.seeds_on_board <= 8:
            expected = dakon.solve(p, use_tables=False).value
            assert dakon.tables.probe(p, tables_dir=str(tmp_path)) == expected
            with_tables = dakon.solve(p, tables_dir=str(tmp_path))
            assert with_tables.value == expected and with_tables.tables


def test_table_errors(tmp_path) -> None:
    with pytest.raises(dakon.TableError, match="no table for 4 seeds on a board of 3 holes per row"):
        dakon.tables.probe("1,0,1/0,2,0 3/4 1", tables_dir=str(tmp_path))
    dakon.tables.build(holes=2, max_seeds=3, tables_dir=str(tmp_path))
    tier = next(tmp_path.glob("*k2.dkt"))
    data = bytearray(tier.read_bytes())
    data[-1] ^= 0xFF
    tier.write_bytes(bytes(data))
    # The build wrote the tier's memory image too, which a load reads instead of the file:
    # without it, the damaged file is decoded.
    tier.with_suffix(".dkm").unlink()
    with pytest.raises(dakon.TableError, match=str(tier.name)):
        dakon.solve("1,0/0,1 0/0 0", tables_dir=str(tmp_path))
    with pytest.raises(ValueError, match="max_seeds: expected an integer from 0 to 127, found 128"):
        dakon.tables.build(holes=2, max_seeds=128, tables_dir=str(tmp_path))


@pytest.mark.parametrize("rules", ["dakon", "kalah", "kalah-empty-capture"])
def test_certificates_are_checked_by_the_independent_checker(tmp_path, rules: str) -> None:
    rng = random.Random(6)
    for i, p in enumerate(random_positions(rng, rules, 12, max_holes=5, max_seeds=4)):
        path = tmp_path / f"{i}.dkc"
        written = dakon.certificates.write(p, path, small_seeds=2)
        value = dakon.solve(p).value
        assert written["value"] == value and written["lower"] == written["upper"] == value
        assert written["checked"] is True and written["file"] == str(path)
        report = dakon.certificates.check(path)
        assert report["status"] == "holds" and report["rules"] == rules and report["position"] == str(p)
        assert report["checked_lower"] == report["checked_upper"] == value


def test_bounds_only_certificates_and_bad_files(tmp_path) -> None:
    path = tmp_path / "cut.dkc"
    written = dakon.certificates.write(dakon.Position.start(7, 4), path, node_limit=3000, threads=1)
    assert written["value"] is None and written["lower"] <= 20 <= written["upper"]
    assert dakon.certificates.check(path)["status"] == "holds"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(dakon.CertificateError, match="malformed"):
        dakon.certificates.check(path)
    with pytest.raises(OSError):
        dakon.certificates.check(tmp_path / "missing.dkc")
    with pytest.raises(OSError):
        dakon.certificates.write("2,2/2,2 0/0 0", tmp_path / "no-such-dir" / "x.dkc")
    # The format's bound on the board, as on the command line; up front, before any search.
    with pytest.raises(ValueError, match="small_seeds: expected an integer from 0 to 64, found 65"):
        dakon.certificates.write("2,2/2,2 0/0 0", tmp_path / "x.dkc", small_seeds=65)
    with pytest.raises(ValueError, match="small_seeds: expected an integer from 0 to 29, found 30"):
        dakon.certificates.write(dakon.Position.start(6, 6), tmp_path / "x.dkc", small_seeds=30)
    assert not (tmp_path / "x.dkc").exists()


def test_certificate_small_seeds_above_twelve(tmp_path) -> None:
    # Above the default of 12, as far as the format allows: the checker solves every board of
    # up to 14 seeds itself.
    p = "3,3,3/3,3,3 0/0 0"
    written = dakon.certificates.write(p, tmp_path / "l14.dkc", small_seeds=14, threads=1)
    assert written["small_seeds"] == 14 and written["checked"] is True and written["value"] == dakon.solve(p).value
    report = dakon.certificates.check(tmp_path / "l14.dkc")
    assert report["status"] == "holds" and report["L"] == 14
