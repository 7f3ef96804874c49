"""Paces and clocks: live clocks, turn-based deadlines, time-outs, pauses and absences (a room beside the tables).

The room itself is :class:`greenlight.web.clocks.room.ClocksRoom` (imported from there, so that the API can read
:mod:`.pace` without loading the room's routes).
"""
