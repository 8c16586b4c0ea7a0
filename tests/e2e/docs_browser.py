"""What a person does with a notification link in the browser, for `make docs-check`: open the
page (HTML) and press Accept, which posts the page's form as a browser posts it (urlencoded, to the
link's own URL) and gets the answer page.

    python -m tests.e2e.docs_browser <file holding the block's output>
The link is the last http(s) URL of /interrupts/ in that output.
"""

from __future__ import annotations

import re
import sys
import urllib.request
from urllib.parse import urlencode

from tests.support.html_form import submitted_fields

LINK = re.compile(r"https?://\S+/interrupts/\S+")


def press_accept(link: str) -> dict[str, object]:
    page = urllib.request.Request(link, headers={"Accept": "text/html"})
    with urllib.request.urlopen(page, timeout=30) as response:
        html = response.read().decode("utf-8")
        assert response.status == 200 and "text/html" in response.headers["Content-Type"], response.status
    assert 'value="accept"' in html, "the page has no Accept button"
    body = urlencode(submitted_fields(html, "accept")).encode("ascii")
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html"}
    submit = urllib.request.Request(link, data=body, method="POST", headers=headers)
    with urllib.request.urlopen(submit, timeout=30) as response:
        answer = response.read().decode("utf-8")
        status = int(response.status)
    assert "Your answer was recorded" in answer, answer
    return {"status": status}


def main(output_file: str) -> int:
    links = LINK.findall(open(output_file, encoding="utf-8").read())  # noqa: SIM115
    if not links:
        print("docs-check: the block printed no link to open", file=sys.stderr)
        return 1
    answer = press_accept(links[-1])
    print(f"(docs-check browser) pressed Accept: {answer['status']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
