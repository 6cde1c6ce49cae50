"""The Revival phase (1.05), in one package: what a revival may bring back and costs
(:mod:`.prices`), the phase asking everyone at once (:mod:`.phase`), the Tleilaxu Ghola and
the Emperor's Karama revival (:mod:`.ghola`), the moderator's records (:mod:`.record`), its
actions and events, its standing order (:mod:`.orders`) and its declaration for the registry
(:mod:`.spec`)."""
