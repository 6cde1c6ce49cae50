"""Mentat's rules engine for Dune (standard library only).

Importing it imports the phases' registry (:mod:`rules.phases`), and with it every phase's
package: each phase's own actions and events register themselves as their classes are made,
so the log reads back any of them whichever module was imported first.
"""

from rules import phases as phases
