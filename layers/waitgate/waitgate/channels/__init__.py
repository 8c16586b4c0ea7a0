"""Reaching people where they work: contact points, and the messages each channel sends (pure rules).

E-mail (a MIME message with a plain-text and an HTML part) and Slack (Block Kit) are built here from
what a notice says and what the interrupt holds; the adapters send them (docs/channels.md).
"""
