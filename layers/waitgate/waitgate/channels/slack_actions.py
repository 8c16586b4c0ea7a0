"""The `action_id`s of waitgate's Slack buttons: `waitgate:<action>` (accept, reject), and the page
button's. The message builds them (`slack_blocks`), a click is read by them (`slack_clicks`)."""

from __future__ import annotations

ACTION_PREFIX = "waitgate:"  # action_id = waitgate:<action>
OPEN_PAGE_ACTION = f"{ACTION_PREFIX}open-page"
