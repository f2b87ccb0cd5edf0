"""The packaged rule profiles: their names and files (the tables themselves are :mod:`fastscore.rules`').

A profile is a rule table TOML file (docs/rules.md, "Profiles"; docs/profiles/): the rows in
force with their points, what each replaces and the shapes that take it, and the scoring options
(round minimum, Chicken rule, payout).  This module only names them, so that the command line can
list them without loading anything.
"""

#: Profile name -> its file, relative to the ``fastscore`` package.  ``lrc`` is the default table.
#: ``taiwan`` and the ``taiwan-*`` profiles are the app tables of the mahjong16 project
#: (docs/profiles/): the same rows with other values.  ``hk-taiwanese`` is the HK-style Taiwanese table.
PROFILES = {
    "lrc": "rules.toml",
    "taiwan": "profiles/taiwan.toml",                    # mahjong16 taiwan_base
    "taiwan-masters": "profiles/taiwan-masters.toml",        # mahjong16 mahjong_masters
    "taiwan-mj888": "profiles/taiwan-mj888.toml",            # mahjong16 mj888
    "taiwan-zhaishenye": "profiles/taiwan-zhaishenye.toml",  # mahjong16 zhaishenye
    "taiwan-star31": "profiles/taiwan-star31.toml",          # mahjong16 gametower_star31
    "taiwan-zhonghua": "profiles/taiwan-zhonghua.toml",      # mahjong16 zhonghua
    "hk-taiwanese": "profiles/hk-taiwanese.toml",            # AngusCYMan HK-style Taiwanese guide
}

__all__ = ["PROFILES"]
