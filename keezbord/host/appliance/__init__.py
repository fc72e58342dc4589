"""The Pi as an appliance (issue 16): the systemd service, ``keezbord doctor``, the board's
name on the network (mDNS) and the QR code of the spectators' link. docs/install-pi.md.

Every path goes through ``paths.Layout`` (a root prefix: ``/`` on the Pi, a temporary
folder in the tests), every system command through an injected runner."""
