"""Median us a call of fastscore.score / fastscore.waits over the conformance hands (one call each):
``PYTHONPATH=CHECKOUT python scripts/ab_single.py`` (the cases from $FASTSCORE_CONFORMANCE or ../shared/conformance)."""
import json, os, statistics, time
from pathlib import Path
import fastscore
folder = Path(os.environ.get("FASTSCORE_CONFORMANCE", Path(__file__).resolve().parents[2] / "shared" / "conformance"))
cases = [json.loads(line)["case"] for line in open(folder / "score_cases.jsonl")]
wcases = [json.loads(line)["case"] for line in open(folder / "waits_cases.jsonl")]
for c in cases[:5]: fastscore.score(**c)
for c in wcases[:5]: fastscore.waits(**c)
def median_us(f, cs):
    ts = []
    for c in cs:
        t = time.perf_counter(); f(**c); ts.append(time.perf_counter() - t)
    return round(statistics.median(ts) * 1e6, 1)
print(json.dumps({"score_us": median_us(fastscore.score, cases), "waits_us": median_us(fastscore.waits, wcases)}))
