"""The packaged rule profiles: their names and files (the tables themselves are :mod:`fastscore.rules`').

A profile is a rule table TOML file (docs/rules.md, "Profiles"; docs/profiles/): the rows in
force with their points, what each replaces and the shapes that take it, and the scoring options
(round minimum, Chicken rule, payout).  This module only names them, so that the command line can
list them without loading anything.
"""

#: Profile name -> its file, relative to the ``fastscore`` package.  ``lrc`` is the default table.
PROFILES = {
    "lrc": "rules.toml",
    "taiwan": "profiles/taiwan.toml",
}

__all__ = ["PROFILES"]
