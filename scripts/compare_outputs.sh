#!/usr/bin/env bash
# Compare the result files of two checkouts (batch and waits-batch on examples/hands.jsonl and on
# --sample 200000 --seed 1): scripts/compare_outputs.sh OLD_ROOT NEW_ROOT OUTDIR [PYTHON]
set -euo pipefail
OLD=$1; NEW=$2; OUT=$3; PY=${4:-python3}
mkdir -p $OUT/old $OUT/new
for side in old new; do
  root=$OLD; [ $side = new ] && root=$NEW
  cd $root
  PYTHONPATH=$root $PY -c 'from fastscore.cli import app; app()' batch examples/hands.jsonl -o $OUT/$side/ex.jsonl >/dev/null 2>&1 || true
  PYTHONPATH=$root $PY -c 'from fastscore.cli import app; app()' batch --sample 200000 --seed 1 -o $OUT/$side/s.parquet >/dev/null
  PYTHONPATH=$root $PY -c 'from fastscore.cli import app; app()' waits-batch --sample 200000 --seed 1 -o $OUT/$side/w.parquet >/dev/null
  PYTHONPATH=$root $PY -c 'from fastscore.cli import app; app()' waits-batch examples/hands.jsonl -o $OUT/$side/wex.jsonl >/dev/null 2>&1 || true
done
$PY - "$OUT" <<'PY'
import sys, json, pyarrow.parquet as pq
out = sys.argv[1]
for f in ("s.parquet", "w.parquet"):
    a, b = pq.read_table(f"{out}/old/{f}"), pq.read_table(f"{out}/new/{f}")
    same_names = a.column_names == b.column_names
    cols = [c for c in a.column_names if c in b.column_names]
    diff = [c for c in cols if not a.column(c).equals(b.column(c))]
    print(f, a.num_rows, "rows; same columns:", same_names, "; differing columns:", diff or "none",
          "; only old:", sorted(set(a.column_names) - set(b.column_names)), "; only new:", sorted(set(b.column_names) - set(a.column_names)))
for f in ("ex.jsonl", "wex.jsonl"):
    try:
        a = [json.loads(l) for l in open(f"{out}/old/{f}")]; b = [json.loads(l) for l in open(f"{out}/new/{f}")]
        print(f, len(a), "records; identical:", a == b)
    except FileNotFoundError as e:
        print(f, "missing", e)
PY
