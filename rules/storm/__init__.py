"""The Storm phase (1.01), in one package: its steps and rules (:mod:`.model`), the dials
(:mod:`.dials`), the storm cards played once the move is known (:mod:`.cards`), the storm's
move, its destruction and the storm order (:mod:`.move`), the Fremen's choice of their storm
losses (:mod:`.fremen`), its actions and events, and its declaration for the registry
(:mod:`.spec`).

The storm as a board piece (its sector, ``in_storm``, the storm order of the turns, movement
and shipment through it, a moderator's ``SetStorm``) is the board's and the position's, not
this phase's.
"""
