"""discord.py glue: slash commands, buttons, channels, permissions. No rules logic."""
