"""Where the money of 1,000 decided approvals goes, as pictures: one SVG per engine, a pair of stacked bars
per channel (waitgate, and AWS's sample sending the same kind of notice), one colour per billed part,
and a mark at the engine's target (the sample's cost, or half of it).

`python -m bench.cost_chart [BREAKDOWN]` draws the breakdown `python -m bench cost` wrote
(bench/results/cost-breakdown.json) into docs/pictures/cost-*.svg and keeps the figures beside them
(docs/pictures/cost.json), so the pictures can be drawn again from the very figures they show.
"""

from __future__ import annotations

import json
import sys
from html import escape
from pathlib import Path
from typing import Any

PICTURES = Path(__file__).resolve().parent.parent / "docs" / "pictures"
FIGURES = PICTURES / "cost.json"
COLOURS = {
    "Lambda requests": "#9ecae1",
    "Lambda GB-seconds": "#3182bd",
    "API Gateway": "#bcbddc",
    "Step Functions transitions": "#e6550d",
    "Lambda durable operations, data": "#fd8d3c",
    "DynamoDB reads (RRU)": "#a1d99b",
    "DynamoDB writes (WRU)": "#31a354",
    "SNS (publishes, e-mails)": "#fdd0a2",
    "SES e-mails, SQS requests": "#de2d26",
    "CloudWatch Logs ingestion": "#969696",
}
WIDTH, LEFT, RIGHT, BAR, GAP = 760, 150, 90, 18, 6


def file_name(engine: str) -> str:
    return "cost-" + engine.lower().replace(" ", "-") + ".svg"


def picture(engine: str, channels: dict[str, dict[str, dict[str, float]]], goal: float, prices: str) -> str:
    """One engine's SVG: for each channel, waitgate's bar over the sample's, in USD per 1,000."""
    largest = max(sum(parts.values()) for sides in channels.values() for parts in sides.values())
    scale = (WIDTH - LEFT - RIGHT) / largest
    y, shapes = 46, []
    for channel, sides in channels.items():
        shapes.append(_text(10, y + BAR + 3, channel, weight="bold"))
        for side, parts in sides.items():
            shapes.append(_text(LEFT - 8, y + BAR * 0.7, side, anchor="end"))
            x = float(LEFT)
            for part, usd in parts.items():
                if usd > 0:
                    shapes.append(
                        f'<rect x="{x:.1f}" y="{y}" width="{usd * scale:.1f}" height="{BAR}" '
                        f'fill="{COLOURS[part]}"><title>{escape(part)}: {usd:.4f} USD</title></rect>'
                    )
                    x += usd * scale
            shapes.append(_text(x + 6, y + BAR * 0.7, f"{sum(parts.values()):.3f}"))
            y += BAR + GAP
        target = LEFT + sum(sides["AWS sample"].values()) * goal * scale
        shapes.append(
            f'<line x1="{target:.1f}" y1="{y - 2 * (BAR + GAP) - 2}" x2="{target:.1f}" y2="{y - GAP + 2}" '
            'stroke="#000" stroke-dasharray="3,2"/>'
        )
        y += 14
    legend_y = y + 6
    for number, (part, colour) in enumerate(COLOURS.items()):
        lx, ly = 10 + (number % 3) * 250, legend_y + (number // 3) * 18
        shapes += [
            f'<rect x="{lx}" y="{ly}" width="12" height="12" fill="{colour}"/>',
            _text(lx + 18, ly + 10, part),
        ]
    height = legend_y + (len(COLOURS) + 2) // 3 * 18 + 30
    target_words = "the sample's cost" if goal == 1 else f"{goal:g} × the sample's cost"
    title = f"1,000 decided approvals on the {engine} engine, USD by what AWS bills (prices of {prices})"
    footer = f"dashed: the target, {target_words}; drawn by bench/cost_chart.py from docs/pictures/cost.json"
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">',
            f'<rect width="{WIDTH}" height="{height}" fill="#fff"/>',
            _text(10, 20, title, weight="bold"),
            *shapes,
            _text(10, height - 10, footer),
            "</svg>",
            "",
        ]
    )


def _text(x: float, y: float, words: str, anchor: str = "start", weight: str = "normal") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-weight="{weight}">{escape(words)}</text>'
    )


def pictures(figures: dict[str, Any]) -> dict[str, str]:
    """Each engine's file name and SVG."""
    return {
        file_name(engine): picture(engine, channels, figures["targets"][engine], figures["prices"])
        for engine, channels in figures["engines"].items()
    }


def main(arguments: list[str]) -> int:
    from bench.cost import BREAKDOWN

    source = Path(arguments[0]) if arguments else BREAKDOWN
    figures = json.loads(source.read_text(encoding="utf-8"))
    FIGURES.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    for name, svg in pictures(figures).items():
        (PICTURES / name).write_text(svg, encoding="utf-8")
        print(f"wrote docs/pictures/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
