"""Make docs/pictures/channel-email.png and channel-slack.png (`make pictures`) from what the channels
really build: the e-mail's own HTML part, and the Slack message's Block Kit blocks drawn the way Slack
lays them out (header, text, context, fields, buttons), each in Debian's headless chromium.

The message is alice's, for a pending approval that needs two accepts and has ben's so far. Nothing
is fetched: the pages are files of their own, the e-mail's as sent (it loads nothing remote), the
Slack preview with inline styles only.
"""

from __future__ import annotations

import html
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from waitgate.channels.email_message import email_content
from waitgate.channels.message_facts import MessageFacts, Progress
from waitgate.channels.slack_blocks import message_blocks

HERE = Path(__file__).resolve().parent
CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
LINK = "https://approvals.example.com/interrupts/ow2.hs256.k1.eyJydW5JZCI6InJlbGVhc2UtNDIi…"

SAMPLE = MessageFacts(
    tenant_id="acme",
    run_id="release-42",
    node_id="ApproveRelease",
    interrupt_id="01JDX4T3Q6Z8",
    kind="approval",
    subject="Approval needed: Ship release 42 to production?",
    title="Ship release 42 to production?",
    description="Release 42 moves checkout to the new payment provider. Canary was green for 24 h.",
    recipient="alice",
    link=LINK,
    link_expires_at="2026-11-30T10:30:00Z",
    workflow="acme-release-train",
    deadline="2026-11-30T18:00:00Z",
    actions=("accept", "reject", "refine"),
    progress=Progress(required=2, accepted_by=("ben",)),
)

_SLACK_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><style>
body {{ margin: 0; padding: 24px; background: #fff; font: 15px/1.46 Lato, Arial, sans-serif; }}
body {{ color: #1d1c1d; }}
.msg {{ display: flex; gap: 8px; max-width: 640px; }}
.avatar {{ width: 36px; height: 36px; border-radius: 6px; background: #0b57d0; color: #fff; }}
.avatar {{ font-weight: bold; display: flex; align-items: center; justify-content: center; }}
.name {{ font-weight: 900; }}
.app {{ font-size: 10px; background: #e8e8e8; padding: 1px 3px; border-radius: 2px; color: #616061; }}
.app {{ margin-left: 4px; }}
.time {{ color: #616061; font-size: 12px; margin-left: 6px; }}
h3 {{ font-size: 18px; margin: 6px 0; }}
.ctx {{ color: #616061; font-size: 13px; margin: 6px 0; }}
.fields {{ display: grid; grid-template-columns: 1fr 1fr; gap: 4px 24px; margin: 6px 0; }}
.btns {{ display: flex; gap: 8px; margin: 10px 0; flex-wrap: wrap; }}
.btn {{ border: 1px solid #bbb; border-radius: 4px; padding: 3px 12px; font-weight: bold; }}
.btn {{ font-size: 14px; background: #fff; }}
.primary {{ background: #007a5a; color: #fff; border-color: #007a5a; }}
.danger {{ background: #e01e5a; color: #fff; border-color: #e01e5a; }}
code {{ background: #f6f6f6; border: 1px solid #ddd; border-radius: 3px; padding: 0 3px; }}
code {{ font-size: 12px; color: #e01e5a; }}
p {{ margin: 4px 0; }}
</style></head><body><div class="msg" id="shot"><div class="avatar">W</div><div>
<div><span class="name">waitgate</span><span class="app">APP</span><span class="time">10:00 AM</span></div>
{blocks}</div></div></body></html>"""


def mrkdwn(text: str) -> str:
    """Enough of Slack's mrkdwn for the preview: *bold*, `code`, line breaks (already &-escaped)."""
    shown = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    return re.sub(r"\*([^*]+)\*", r"<b>\1</b>", shown).replace("\n", "<br>")


def block_html(block: dict[str, Any]) -> str:
    kind = block["type"]
    if kind == "header":
        return f"<h3>{html.escape(block['text']['text'])}</h3>"
    if kind == "context":
        return '<div class="ctx">' + " ".join(mrkdwn(e["text"]) for e in block["elements"]) + "</div>"
    if kind == "section" and "fields" in block:
        return (
            '<div class="fields">'
            + "".join(f"<div>{mrkdwn(f['text'])}</div>" for f in block["fields"])
            + "</div>"
        )
    if kind == "section":
        return f"<p>{mrkdwn(block['text']['text'])}</p>"
    if kind == "actions":
        buttons = "".join(
            f'<span class="btn {e.get("style", "")}">{html.escape(e["text"]["text"])}'
            f"{' ↗' if 'url' in e else ''}</span>"
            for e in block["elements"]
        )
        return f'<div class="btns">{buttons}</div>'
    return ""


def pages(folder: Path) -> dict[str, Path]:
    email_page = folder / "email.html"
    email_page.write_text(email_content(SAMPLE).html, encoding="utf-8")
    slack_page = folder / "slack.html"
    slack_page.write_text(
        _SLACK_PAGE.format(blocks="".join(block_html(b) for b in message_blocks(SAMPLE))), encoding="utf-8"
    )
    return {"channel-email.png": email_page, "channel-slack.png": slack_page}


def main() -> int:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        print("Debian's chromium and chromium-driver are needed (make browser-deps)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="waitgate-pictures-") as folder:
        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for argument in (
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--hide-scrollbars",
            "--window-size=760,900",
            f"--user-data-dir={folder}/profile",
        ):
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
        try:
            for picture, page in pages(Path(folder)).items():
                driver.get(page.as_uri())
                target = (
                    driver.find_element(By.ID, "shot")
                    if "slack" in picture
                    else driver.find_element(By.TAG_NAME, "body")
                )
                (HERE / picture).write_bytes(target.screenshot_as_png)
                print(f"wrote docs/pictures/{picture}")
        finally:
            driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
