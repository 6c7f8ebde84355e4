"""The awards of a match and of a tournament: the Most Valuable Player and the Best Playing Pony.

The committee of the tournament records them (``services``), every change in the audit trail; the
public pages, the report and the API read them (``selectors``).
"""
