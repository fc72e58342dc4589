"""The referee you can hear (docs/voice.md): what is said (``spoken``, ``phrases``), the
queue off the event path (``queue``), the Pi's synthesiser and ALSA player (``player``)
and the hub's hook (``attach``)."""
