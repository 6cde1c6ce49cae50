"""The Battle phase (1.07), in one package: who fights where and the Voice and Prescience
before the plans (:mod:`.flow`), the plans (:mod:`.plans`), their resolution
(:mod:`.resolution`), the state it keeps (:mod:`.model`), its actions and events, and its
declaration for the registry (:mod:`.spec`)."""
