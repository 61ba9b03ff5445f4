"""The control-set report counts each family's verdicts and judges the targets from them."""

import json

from groundwatch.evaluation.probing.controls import report


def _files(tmp_path, verdicts: dict[str, str]):
    expected, records = [], []
    for i, (family, verdict) in enumerate(verdicts.items()):
        rid = f"c{i}"
        expected.append({"request_id": rid, "case": family, "claims": [{"contains": "claim", "expected": "x"}]})
        records.append({"request_id": rid, "model": "m@1", "claims": [{"text": "Other."},
                                                                        {"text": f"The claim {i}.", "verdict": verdict}]})
    (tmp_path / "e.jsonl").write_text("".join(json.dumps(e) + "\n" for e in expected))
    (tmp_path / "v.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return tmp_path / "v.jsonl", tmp_path / "e.jsonl"


def test_rewordings_and_pairs_are_counted_apart(tmp_path):
    verdicts, expected = _files(tmp_path, {"units": "SUPPORTED", "units_pair": "CONTRADICTED",
                                           "calendar": "CONTRADICTED", "calendar_pair": "SUPPORTED"})
    result = report(verdicts, expected)
    assert result["families"]["units"] == {"SUPPORTED": 1, "CONTRADICTED": 0, "NOT_ENOUGH_INFO": 0, "claims": 1}
    assert result["rewordings"] == {"claims": 2, "supported": 1, "contradicted": 1, "worst_family": "calendar",
                                    "worst_family_supported_share": 0.0}
    assert result["pairs"] == {"claims": 2, "not_supported": 1}
    assert not any(result["targets"].values())
    assert result["model"] == ["m@1"]
