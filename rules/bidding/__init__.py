"""The Bidding phase (1.04), in one package: its auction (:mod:`.auction`), the state it
keeps (:mod:`.model`), its actions and events, and its declaration for the registry
(:mod:`.spec`)."""
