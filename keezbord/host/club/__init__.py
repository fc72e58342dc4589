"""Club night (issue 17): several boards, one tournament, scored live over MQTT.

The tournament side: ``store`` (its SQLite), ``pairing``, ``standings``, ``service`` (the
MQTT client that collects results and pushes pairings), ``scoreboard`` (the projector
page and the control page), ``broker_config`` (Mosquitto's files). The board side:
``board_link`` (MQTT client with a durable outbox), ``reporter`` (what a game's journal
says), ``sim_board`` (simulated tables). ``protocol`` is the one place for topics and
message shapes. docs/club.md.
"""
