"""The Battle phase's picture, in one place: a battle's reveal as everyone saw it
(:mod:`.reveal`), its drawing (:mod:`.plans`), the scene maker that says when one is due and
in what words (:mod:`.scene`), and the worked examples of its tests and docs
(:mod:`.examples`). The rest of the picture pipeline knows it only as a scene
(:mod:`bot.render.scene`), found by the phase's name (``SCENES`` in :mod:`.scene`)."""
