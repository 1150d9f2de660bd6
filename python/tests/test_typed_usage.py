"""The typed example of the API (`typed_usage.py`, which `mypy --strict` checks) runs."""

from typed_usage import use_the_api


def test_the_typed_usage_runs() -> None:
    result = use_the_api()
    assert result["value"] == 6 and result["report"] == "holds" and result["written"] == 6
    assert result["values"] == [6.0] and result["tiers"] == 4 and result["probed"] == 0
