"""The composition root: the ``mentat`` command, which wires the parts together.

The only package that may import all of ``rules`` (the engine), ``bot`` (the
application and its store) and ``cogs`` (the Discord layer): ``mentat run``
opens the store, builds the Discord client around the application and connects;
the other sub-commands come from ``bot`` and need no Discord at all.
"""
