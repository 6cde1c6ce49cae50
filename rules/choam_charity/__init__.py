"""The CHOAM Charity phase (1.03), in one package: its claims (:mod:`.charity`), its action
and event, its standing order (:mod:`.orders`) and its declaration for the registry
(:mod:`.spec`)."""
