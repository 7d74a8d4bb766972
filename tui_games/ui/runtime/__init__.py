"""The app's process and terminal machinery: the drivers (hang-ups, bounded web output), the
standby app the zygote forks, the rehearsal, the warm start, partial updates."""
