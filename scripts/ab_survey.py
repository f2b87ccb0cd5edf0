"""Seconds of fastscore.survey(suits="s") (460,715 hands), best of 3 after a warm-up: ``PYTHONPATH=CHECKOUT python scripts/ab_survey.py``."""
import fastscore, time
fastscore.survey(suits="s")  # compile or load
best = min(fastscore.survey(suits="s").seconds for _ in range(3))
r = fastscore.survey(suits="s")
print(round(best, 3), r.hands)
