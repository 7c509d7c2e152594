"""The motion service through HTTP: every route, the 402 of paid routes and every error path."""

import json
from datetime import date
from pathlib import Path

import pytest

from twlookup.services.motion.parsers import FEATURES, parse_web_features

pytestmark = pytest.mark.asyncio
HERE = Path(__file__).parent


async def test_easing_by_keyword_name_points_and_steps(client):
    r = await client.get("/motion/api/easing", params={"name": "ease-in-out", "samples": 3})
    body = r.json()
    assert r.status_code == 200 and body["css"] == "ease-in-out"
    assert body["control_points"] == [0.42, 0, 0.58, 1]
    assert [p["y"] for p in body["points"]] == pytest.approx([0, 0.5, 1], abs=1e-9)
    assert body["source"]["url"].startswith("https://www.w3.org/TR/css-easing-1/")
    r = await client.get("/motion/api/easing", params={"name": "easeOutBack"})
    assert r.json()["css"] == "cubic-bezier(0.34, 1.56, 0.64, 1)" and r.json()["overshoots"]
    assert "easings.net" in r.json()["source"]["url"]
    r = await client.get("/motion/api/easing", params={"x1": 0.3, "y1": -0.5, "x2": 0.7, "y2": 1.5})
    assert r.json()["kind"] == "custom" and r.json()["linear"].startswith("linear(0, ")
    r = await client.get("/motion/api/easing", params={"steps": 4, "position": "jump-both", "samples": 5})
    assert [p["y"] for p in r.json()["points"]] == [0.2, 0.4, 0.6, 0.8, 1.0]
    r = await client.get("/motion/api/easing", params={"name": "step-start", "samples": 2})
    assert r.json()["css"] == "step-start" and [p["y"] for p in r.json()["points"]] == [1, 1]


@pytest.mark.parametrize(
    ("params", "parameter"),
    [
        ({}, "name"),
        ({"name": "ease", "steps": 3}, "name"),
        ({"x1": 0.1, "y1": 0.2, "x2": 0.3}, "y2"),
        ({"x1": 1.5, "y1": 0, "x2": 0.5, "y2": 1}, "x1"),
        ({"steps": 1, "position": "jump-none"}, "steps"),
        ({"steps": 0}, "steps"),
        ({"name": "ease", "position": "middle"}, "position"),
    ],
)
async def test_easing_rejects_bad_input(client, params, parameter):
    r = await client.get("/motion/api/easing", params=params)
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == parameter


async def test_easing_unknown_name_is_404(client):
    r = await client.get("/motion/api/easing", params={"name": "wobbly"})
    assert r.status_code == 404 and r.json()["id"] == "wobbly"


async def test_easings_lists_keywords_first(client):
    body = (await client.get("/motion/api/easings")).json()
    names = [e["name"] for e in body["easings"]]
    assert names[:5] == ["ease", "ease-in", "ease-in-out", "ease-out", "linear"]
    assert {"ease-in-out-cubic", "step-start", "step-end"} <= set(names) and body["count"] == 31


async def test_spring_answer_and_bounds(client):
    r = await client.get("/motion/api/spring", params={"stiffness": 100, "damping": 10, "mass": 1})
    body = r.json()
    assert body["damping_ratio"] == 0.5 and body["regime"] == "under-damped" and body["overshoots"]
    assert body["max_error"] <= body["error_bound"] and body["css"].startswith("transition: transform ")
    r = await client.get("/motion/api/spring", params={"stiffness": 100, "damping": 40})
    assert r.json()["regime"] == "over-damped" and not r.json()["overshoots"]
    r = await client.get("/motion/api/spring", params={"stiffness": 1, "damping": 1, "mass": 10})
    assert r.status_code == 422 and "settle" in r.json()["detail"]
    r = await client.get("/motion/api/spring", params={"stiffness": 5000})
    assert r.status_code == 422 and r.json()["errors"][0]["allowed"]["maximum"] == 1000


async def test_keyframes_presets(client):
    r = await client.get("/motion/api/keyframes", params={"preset": "slide-up", "duration": 400})
    body = r.json()
    assert body["keyframes"].startswith("@keyframes slide-up {") and "400ms" in body["usage_css"]
    assert (
        "prefers-reduced-motion: reduce" in body["reduced_motion_css"]
        and "translateY" not in body["reduced_motion_css"]
    )
    r = await client.get("/motion/api/keyframes", params={"preset": "explode"})
    assert r.status_code == 422 and "bounce" in r.json()["errors"][0]["allowed"]


async def test_gradient(client):
    r = await client.get("/motion/api/gradient", params={"colors": "#00f,#ff0", "type": "conic", "animate": "1"})
    body = r.json()
    assert body["interpolation"] == "oklch" and "@property --angle" in body["animation_css"]
    assert body["contrast_black_text"] == pytest.approx(2.44, abs=0.01)  # #0000ff against black
    r = await client.get("/motion/api/gradient?colors=%23ff0000,%230000ff")  # URL-encoded '#'
    assert r.status_code == 200 and r.json()["colors"] == ["#ff0000", "#0000ff"]
    r = await client.get("/motion/api/gradient", params={"colors": "#ff0000,#0000ff"})
    assert r.json()["colors"] == ["#ff0000", "#0000ff"] and r.json()["animation_css"] is None
    for bad in ("#ff0000", "#12,#34", "red,blue"):
        r = await client.get("/motion/api/gradient", params={"colors": bad})
        assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "colors"


async def test_video(client):
    r = await client.get("/motion/api/video", params={"width": 1281, "quality": "high", "codec": "all"})
    body = r.json()
    h264 = body["commands"][0]
    assert body["width"] == 1280 and "-movflags +faststart" in h264["command"] and "scale=1280:-2" in h264["command"]
    assert "-crf 18" in h264["command"] and "-an" in h264["command"]
    assert [c["codec"] for c in body["commands"]] == ["h264", "vp9", "av1"]
    assert "autoplay muted loop playsinline" in body["html"]
    r = await client.get("/motion/api/video", params={"codec": "hevc"})
    assert r.status_code == 422


async def test_support_libraries_a11y(client):
    body = (await client.get("/motion/api/support")).json()
    rows = {f["id"]: f for f in body["features"]}
    assert body["data_version"] == "3.40.0" and rows["linear-easing"]["baseline_low_date"] == "2023-12-11"
    assert rows["linear-easing"]["support"]["chrome"] == "113"
    libs = (await client.get("/motion/api/libraries")).json()["libraries"]
    motion = next(x for x in libs if x["id"] == "motion")
    assert (
        motion["package_licence"] == "MIT"
        and motion["unpacked_bytes"] > 0
        and motion["source"]["url"].startswith("https://www.npmjs.com/")
    )
    a11y = (await client.get("/motion/api/a11y")).json()["items"]
    assert {"2.2.2", "2.3.1", "2.3.3", "prefers-reduced-motion"} <= {i["criterion"] for i in a11y}


async def test_paid_routes_ask_for_payment_on_the_testnet(client):
    for path, params in (("/motion/api/pro/motion-kit", {"brand": "#e63946"}), ("/motion/api/pro/export", {})):
        r = await client.get(path, params=params)
        assert r.status_code == 402
        assert r.json()["accepts"][0]["network"] == "eip155:84532"
    r = await client.get("/motion/api/pro/motion-kit", params={"brand": "nothex"})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "brand"


async def test_motion_kit_logic_without_payment(client):
    from twlookup.services.motion.operations import motion_kit
    from twlookup.services.motion.schemas import MotionKitQuery

    kit = motion_kit(MotionKitQuery(brand="#000000", style="playful"))
    assert kit.text_colour == "white" and kit.contrast_on_white == 21
    assert kit.durations_ms == [150, 250, 400, 600] and "--motion-base: 400ms;" in kit.css_variables
    assert kit.enter.css == "cubic-bezier(0.34, 1.56, 0.64, 1)" and kit.spring.max_error <= kit.spring.error_bound


async def test_web_features_importer_reads_the_real_format():
    doc = json.loads((HERE / "web-features-sample.json").read_text())
    # the sample holds three real features; the others are filled with a copy to satisfy the importer
    doc["features"].update({fid: doc["features"]["animations-css"] for fid in FEATURES if fid not in doc["features"]})
    rows = {r.id: r for r in parse_web_features(doc, "3.40.0", date(2026, 11, 23))}
    assert rows["linear-easing"].baseline == "high" and str(rows["linear-easing"].baseline_high_date) == "2026-06-11"
    assert rows["prefers-reduced-motion"].support["safari"]
    with pytest.raises(ValueError):
        parse_web_features({"features": {}}, "x", date(2026, 1, 1))
    with pytest.raises(ValueError):
        parse_web_features([], "x", date(2026, 1, 1))


async def test_libraries_importer_reads_npm_documents_and_keeps_the_rest(client, tmp_path):
    from twlookup.platform.store.seed import ingest
    from twlookup.services.motion.data import import_libraries

    doc = json.loads((HERE / "npm-motion.json").read_text())
    doc[0]["version"] = "99.0.0"
    path = tmp_path / "npm.json"
    path.write_text(json.dumps(doc))
    try:
        assert ingest(import_libraries, path) == 7
        libs = {x["id"]: x for x in (await client.get("/motion/api/libraries")).json()["libraries"]}
        assert libs["motion"]["version"] == "99.0.0" and libs["motion"]["package_licence"] == "MIT"
        assert libs["motion"]["note"].startswith("Motion") and libs["gsap"]["version"] == "3.15.0"
    finally:  # put the shipped data back for the other tests (a re-seed through the same path)
        from twlookup.cli import DEFAULT_DATA
        from twlookup.services.motion.data import seed_motion

        ingest(lambda session, _path: seed_motion(session, DEFAULT_DATA), path)
    path.write_text("{}")
    with pytest.raises(ValueError):
        ingest(import_libraries, path)


async def test_video_all_writes_each_codec_to_its_own_file(client):
    body = (await client.get("/motion/api/video", params={"codec": "all"})).json()
    outputs = {c["codec"]: c["command"].rsplit(" ", 1)[1] for c in body["commands"]}
    assert outputs == {"h264": "output.mp4", "vp9": "output-vp9.webm", "av1": "output-av1.webm"}
    for name in outputs.values():
        assert f'src="{name}"' in body["html"]


@pytest.mark.parametrize(
    ("params", "level", "idx"),
    [
        # the examples of AV1 spec Annex A (Levels): 426x240@30 is 2.0 ... 7680x4320@30 is 6.0
        ({"width": 426, "height": 240}, "2.0", "00"),
        ({"width": 854, "height": 480}, "3.0", "04"),
        ({"width": 1280, "height": 720}, "3.1", "05"),
        ({"width": 1920, "height": 1080}, "4.0", "08"),
        ({"width": 1920, "height": 1080, "fps": 60}, "4.1", "09"),
        ({"width": 3840, "height": 2160}, "5.0", "12"),
        ({"width": 3840, "height": 2160, "fps": 60}, "5.1", "13"),
        ({"width": 7680, "height": 4320}, "6.0", "16"),
        ({"width": 1080, "height": 1920}, "4.0", "08"),  # portrait: 2,073,600 samples > 3.1's MaxPicSize
        ({"width": 1920}, "4.0", "08"),  # height defaults to 16:9 (1080)
    ],
)
async def test_av1_codecs_string_level_follows_the_frame_size(client, params, level, idx):
    body = (await client.get("/motion/api/video", params={"codec": "av1", **params})).json()
    assert body["av1_level"] == level
    assert f'codecs="av01.0.{idx}M.08"' in body["html"]


async def test_gradient_contrast_is_the_minimum_along_the_gradient(client):
    # magenta → green runs in OKLCH (an OKLab mix would pass through grey) along the shorter hue
    # arc, through red: red against black is (0.2126 + 0.05) / 0.05 = 5.25:1, below both ends
    # (magenta 6.70:1, green 15.3:1), so black text gets 5.25 along the gradient, not 6.70
    body = (await client.get("/motion/api/gradient", params={"colors": "#ff00ff,#00ff00"})).json()
    assert body["interpolation"] == "oklch"
    assert body["contrast_black_text"] == pytest.approx(5.25, abs=0.01)
    assert "along the gradient" in body["contrast_note"]


async def test_a11y_items_cite_the_criterion_their_source_is(client):
    items = (await client.get("/motion/api/a11y")).json()["items"]
    for item in items:
        if "WCAG" in (item["source"]["title"] or ""):
            assert f"Success Criterion {item['criterion']} " in item["source"]["title"], item["id"]


@pytest.mark.parametrize("pad", ["\x85", "\ufeff", "\u3000", " \t"])
async def test_brand_with_whitespace_around_is_read_as_the_document_says(client, pad):
    """`brand` may have whitespace around its hex. Declared with `\\s`, ECMAScript (the OpenAPI
    clients, schemathesis) and Rust (pydantic) disagreed on U+0085 and U+FEFF: a brand valid by
    the document was refused (422), and the colour parser (Python's strip) left U+FEFF in place.
    The pattern now spells its whitespace out, and the parser strips the same characters."""
    import re

    from twlookup.services.motion.operations import motion_kit
    from twlookup.services.motion.schemas import MotionKitQuery

    spec = (await client.get("/motion/openapi.json")).json()
    (brand,) = [p for p in spec["paths"]["/api/pro/motion-kit"]["get"]["parameters"] if p["name"] == "brand"]
    padded = f"{pad}#e63946{pad}"
    assert re.search(brand["schema"]["pattern"], padded)  # valid by the document
    r = await client.get("/motion/api/pro/motion-kit", params={"brand": padded})
    assert r.status_code == 402, r.text  # valid: it asks for payment
    assert motion_kit(MotionKitQuery(brand=padded)).brand == motion_kit(MotionKitQuery(brand="#e63946")).brand
    assert (await client.get("/motion/api/pro/motion-kit", params={"brand": f"{pad}#e6394"})).status_code == 422
