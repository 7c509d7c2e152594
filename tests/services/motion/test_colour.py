"""Colour maths against published values (CSS Color 4's OKLab, WCAG contrast)."""

import pytest

from twlookup.services.motion import logic
from twlookup.services.motion.logic import colour


def test_parse_hex_forms():
    assert colour.parse_hex("#f00") == colour.RGB(1, 0, 0)
    assert colour.parse_hex("0f08").alpha == pytest.approx(0x88 / 255)
    assert colour.parse_hex("#336699").hex == "#336699"
    assert colour.parse_hex("#33669980").hex == "#33669980"
    for bad in ("#12", "#12345", "red", "#ggg"):
        with pytest.raises(ValueError):
            colour.parse_hex(bad)


def test_oklab_of_srgb_red_matches_css_color_4():
    # CSS Color 4 gives red as oklch(62.8% 0.2577 29.23)
    lab = colour.to_oklab(colour.parse_hex("#ff0000"))
    assert pytest.approx(0.62796, abs=1e-4) == lab.L
    assert lab.chroma == pytest.approx(0.2577, abs=1e-4)
    assert lab.hue == pytest.approx(29.23, abs=0.01)
    white = colour.to_oklab(colour.parse_hex("#fff"))
    assert pytest.approx(1, abs=1e-4) == white.L and white.chroma < 1e-4
    assert colour.from_oklab(lab).hex == "#ff0000"


def test_wcag_contrast_published_values():
    assert colour.contrast(colour.parse_hex("#000"), colour.parse_hex("#fff")) == pytest.approx(21)
    assert colour.contrast(colour.parse_hex("#777"), colour.parse_hex("#fff")) == pytest.approx(4.48, abs=0.01)
    assert colour.contrast(colour.parse_hex("#fff"), colour.parse_hex("#fff")) == pytest.approx(1)


def test_blue_to_yellow_avoids_the_grey_midpoint():
    blue, yellow = colour.parse_hex("#00f"), colour.parse_hex("#ff0")
    assert colour.greys_in_oklab(blue, yellow)
    g = logic.gradient([blue, yellow], "linear", 90, False)
    assert g.space == "oklch" and "in oklch" in g.css
    mid = colour.to_oklab(colour.mix_oklch(blue, yellow, 0.5))
    assert mid.chroma > 0.1  # a saturated midpoint, not grey
    red, orange = colour.parse_hex("#f00"), colour.parse_hex("#f80")
    assert logic.gradient([red, orange], "radial", 0, False).space == "oklab"
