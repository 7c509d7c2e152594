"""Domain rules of the health service against published worked examples and every band's edges.

The data comes straight from data/health/*.yaml, so these tests also pin the sourced numbers.
"""

from datetime import date

import pytest

from twlookup.cli import DEFAULT_DATA
from twlookup.platform.records import Citation
from twlookup.services.health import records
from twlookup.services.health.data import from_directory
from twlookup.services.health.logic import blood_pressure, glucose, meal, readings, screening

H = from_directory(DEFAULT_DATA / "health")


def band(s, d):
    return blood_pressure.grade_bp(H.bp, s, d).band.id


# ---------------------------------------------------------------- blood pressure bands
# 2022 Taiwan guideline: normal <120 and <80; elevated 120-129 and <80; stage 1 130-139 or 80-89;
# stage 2 >=140 or >=90. Each cut-off is tested exactly on it and one below.


@pytest.mark.parametrize(
    ("s", "d", "expected"),
    [
        (50, 20, "normal"),  # lowest accepted reading
        (119, 79, "normal"),
        (120, 79, "elevated"),  # systolic exactly on 120
        (129, 79, "elevated"),
        (130, 79, "stage-1"),  # systolic exactly on 130
        (119, 80, "stage-1"),  # diastolic exactly on 80 with a normal systolic
        (139, 89, "stage-1"),
        (140, 70, "stage-2"),  # systolic exactly on 140
        (125, 90, "stage-2"),  # diastolic exactly on 90
        (300, 199, "stage-2"),  # highest accepted reading
    ],
)
def test_bp_bands_on_every_cut_off(s, d, expected):
    assert band(s, d) == expected


def test_bp_target_crisis_and_low_edges():
    assert blood_pressure.grade_bp(H.bp, 129, 79).at_target
    assert not blood_pressure.grade_bp(H.bp, 130, 79).at_target and not blood_pressure.grade_bp(H.bp, 129, 80).at_target
    # crisis is "above 180 or above 120": exactly 180/120 is not, 181 or 121 is
    assert not blood_pressure.grade_bp(H.bp, 180, 120).crisis
    assert blood_pressure.grade_bp(H.bp, 181, 100).crisis and blood_pressure.grade_bp(H.bp, 170, 121).crisis
    # low: below 90 or below 60
    assert not blood_pressure.grade_bp(H.bp, 90, 60).low
    assert blood_pressure.grade_bp(H.bp, 89, 70).low and blood_pressure.grade_bp(H.bp, 100, 59).low


def test_bp_average_of_a_7_2_2_like_series_is_graded_on_the_mean():
    # hand-worked: (132+128+126+130)/4 = 129.0, (84+80+78+82)/4 = 81.0 -> stage 1 by the diastolic
    avg = blood_pressure.average_bp(H.bp, [(132, 84), (128, 80), (126, 78), (130, 82)])
    assert (avg.systolic, avg.diastolic, avg.band.id) == (129.0, 81.0, "stage-1")


def test_bp_actions_put_the_crisis_first():
    grades = [blood_pressure.grade_bp(H.bp, 185, 100), blood_pressure.grade_bp(H.bp, 120, 70)]
    actions = blood_pressure.bp_actions(H.bp, grades, blood_pressure.average_bp(H.bp, [(185, 100), (120, 70)]))
    assert "119" in actions[0] and "crisis" in actions[0]


def test_a_low_average_is_not_called_normal_in_what_to_do():
    grades = [blood_pressure.grade_bp(H.bp, 85, 55)]
    actions = blood_pressure.bp_actions(H.bp, grades, blood_pressure.average_bp(H.bp, [(85, 55)]))
    assert not any(a.startswith("Normal range") for a in actions)
    assert any("low blood pressure" in a for a in actions)
    # a low reading inside a normal average keeps the normal advice and adds the low note
    grades = [blood_pressure.grade_bp(H.bp, 85, 55), blood_pressure.grade_bp(H.bp, 115, 75)]
    actions = blood_pressure.bp_actions(H.bp, grades, blood_pressure.average_bp(H.bp, [(85, 55), (115, 75)]))
    assert actions[0].startswith("Normal range") and any("low blood pressure" in a for a in actions)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("135-85", "not a systolic/diastolic pair"),
        ("abc", "not a systolic/diastolic pair"),
        ("120/80,", "empty entry"),
        ("120/80,,130/85", "empty entry"),
        ("80/80", "must be higher than diastolic"),
        ("80/120", "must be higher than diastolic"),
        ("350/90", "systolic 350 is outside"),
        ("49/30", "systolic 49 is outside"),
        ("120/10", "diastolic 10 is outside"),
        ("120/80," * 6 + "120/80", "7 readings given; at most 6"),
    ],
)
def test_bp_reading_errors(text, fragment):
    with pytest.raises(readings.ReadingError, match=fragment):
        readings.parse_bp_readings(text, 6)


def test_six_readings_is_the_maximum_accepted():
    assert len(readings.parse_bp_readings(",".join(["120/80"] * 6), 6)) == 6


def test_bp_report_morning_hypertension_trend_and_summary():
    tagged = [("morning", (138, 88)), ("evening", (126, 78)), ("morning", (134, 84)), ("evening", (124, 76))]
    r = blood_pressure.bp_report(H.bp, tagged)
    assert (r.morning.systolic, r.morning.diastolic) == (136.0, 86.0)
    assert (r.evening.systolic, r.evening.diastolic) == (125.0, 77.0)
    assert r.morning_hypertension is True
    assert r.morning_minus_evening == (11.0, 9.0)
    # later half (134/84, 124/76) minus earlier half (138/88, 126/78)
    assert r.trend == (-3.0, -3.0)
    assert r.band_counts == {"stage-2": 0, "stage-1": 2, "elevated": 2, "normal": 0}
    text = blood_pressure.bp_doctor_summary(H.bp, r)
    assert "Morning average 136/86" in text and "morning hypertension" in text


def test_bp_report_arithmetic_checked_by_hand():
    tagged = readings.parse_bp_report("m:135/85,e:128/82,m:141/88,e:126/80,m:138/86,e:124/78,m:131/83", 28)
    r = blood_pressure.bp_report(H.bp, tagged)
    # all 7: 923/7 = 131.857, 582/7 = 83.14
    assert (r.overall.systolic, r.overall.diastolic) == (131.9, 83.1)
    # morning 545/4 = 136.25 (half rounds up, not to 136.2), 342/4 = 85.5; evening 378/3, 240/3
    assert (r.morning.systolic, r.morning.diastolic) == (136.3, 85.5)
    assert (r.evening.systolic, r.evening.diastolic) == (126.0, 80.0)
    assert r.evening.band.id == "stage-1"  # diastolic exactly 80
    assert r.morning_minus_evening == (10.3, 5.5)
    # later 3 (138,124,131 / 86,78,83) minus earlier 3 (135,128,141 / 85,82,88); the middle one is left out
    assert r.trend == (-3.7, -2.7)


def test_glucose_report_arithmetic_checked_by_hand():
    r = glucose.glucose_report(
        H.glucose, readings.parse_glucose_report("f:112,a:168,b:96,r:250,f:65,a:181,b:50,f:130", 120)
    )
    assert r.mean == 131.5  # 1052 / 8
    assert (r.with_target, r.in_target) == (7, 4)  # random excluded; 112, 168, 96, 130 in target
    assert (r.hypo_level1, r.hypo_level2) == (1, 1)
    assert r.estimated_a1c == 6.2  # (131.5 + 46.7) / 28.7 = 6.209


def test_bp_report_gives_no_trend_for_one_morning_and_one_evening_reading():
    # it used to report e minus m (-7/-3) as a "trend", a time-of-day difference
    r = blood_pressure.bp_report(H.bp, readings.parse_bp_report("m:135/85,e:128/82", 28))
    assert r.trend is None and r.morning_minus_evening == (7.0, 3.0)
    r = blood_pressure.bp_report(H.bp, readings.parse_bp_report("m:135/85,e:128/82,m:131/83", 28))
    assert r.trend is None


def test_bp_report_morning_exactly_below_target_is_not_morning_hypertension():
    r = blood_pressure.bp_report(H.bp, [("morning", (129, 79))])
    assert r.morning_hypertension is False and r.evening is None and r.trend is None


def test_tagged_entries_need_known_slot_letters():
    with pytest.raises(readings.ReadingError, match="unknown slot letter 'x'"):
        readings.parse_tagged("x:120/80", 28, {"m": "morning", "e": "evening"}, "135/85")
    with pytest.raises(readings.ReadingError, match="has no slot letter"):
        readings.parse_tagged("120/80", 28, {"m": "morning", "e": "evening"}, "135/85")
    assert readings.parse_tagged("M:120/80", 28, {"m": "morning"}, "135/85") == [("morning", "120/80")]


# ---------------------------------------------------------------- glucose
# ADA Standards of Care 2025, section 6: before-meal 80-130, after-meal <180, level 1 <70, level 2 <54.


@pytest.mark.parametrize(
    ("value", "when", "expected"),
    [
        (20, "fasting", "hypoglycaemia-level-2"),  # lowest accepted value
        (53, "fasting", "hypoglycaemia-level-2"),
        (54, "fasting", "hypoglycaemia-level-1"),  # exactly on 54
        (69, "before-meal", "hypoglycaemia-level-1"),
        (70, "fasting", "below-target"),  # exactly on 70: not hypoglycaemia, below the 80 target
        (79, "before-meal", "below-target"),
        (80, "fasting", "in-target"),  # exactly on 80
        (130, "before-meal", "in-target"),  # exactly on 130
        (131, "fasting", "above-target"),
        (70, "after-meal", "in-target"),
        (179, "after-meal", "in-target"),
        (180, "after-meal", "above-target"),  # exactly on 180
        (600, "after-meal", "above-target"),  # highest accepted value
        (69, "random", "hypoglycaemia-level-1"),
        (70, "random", "no-target"),
        (199, "random", "no-target"),
    ],
)
def test_glucose_bands_on_every_cut_off(value, when, expected):
    assert glucose.grade_glucose(H.glucose, value, when).band == expected


@pytest.mark.parametrize(
    ("value", "when", "expected"),
    [
        (99, "fasting", "normal-range"),
        (100, "fasting", "prediabetes-range"),
        (125, "fasting", "prediabetes-range"),
        (126, "fasting", "diabetes-range"),
        (199, "random", None),
        (200, "random", "diabetes-range-with-symptoms"),
        (250, "after-meal", None),
    ],
)
def test_glucose_diagnostic_thresholds(value, when, expected):
    assert glucose.grade_glucose(H.glucose, value, when).diagnostic == expected


@pytest.mark.parametrize(
    ("value", "when", "warned"),
    [
        (239, "random", False),
        (240, "random", True),
        (240, "after-meal", True),
        (600, "fasting", True),
        (239.9, "fasting", False),
    ],
)
def test_very_high_readings_say_to_check_ketones_and_the_emergency_signs(value, when, warned):
    # A random 450 used to get only "only low values and very high values are flagged" plus a
    # diagnosis note for undiagnosed people: nothing on what to do. CDC: at 240 or more, check ketones.
    lines = glucose.glucose_explain(H.glucose, glucose.grade_glucose(H.glucose, value, when))
    assert any("ketones" in x and "119" in x for x in lines) is warned


def test_random_explanation_names_what_is_actually_checked():
    lines = glucose.glucose_explain(H.glucose, glucose.grade_glucose(H.glucose, 150, "random"))
    assert lines == [
        "A random reading has no target; it is checked only for hypoglycaemia (below 70), for 240 mg/dL or more "
        "(ketone check) and for 200 or more (diabetes range for people not diagnosed)."
    ]


def test_hypoglycaemia_explanation_says_how_to_treat():
    g = glucose.grade_glucose(H.glucose, 50, "random")
    lines = glucose.glucose_explain(H.glucose, g)
    assert g.hypoglycaemia == 2 and any("15 to 20 g" in x for x in lines)


@pytest.mark.parametrize(("mean", "a1c"), [(126, 6.0), (154, 7.0), (183, 8.0), (97, 5.0)])
def test_estimated_a1c_matches_the_adag_table(mean, a1c):
    # ADAG (Nathan 2008) table: HbA1c 5% ~ 97, 6% ~ 126, 7% ~ 154, 8% ~ 183 mg/dL
    assert glucose.estimated_a1c(H.glucose, mean) == a1c


def test_glucose_report_counts():
    tagged = [("fasting", 112.0), ("after-meal", 168.0), ("before-meal", 96.0), ("random", 65.0), ("fasting", 50.0)]
    r = glucose.glucose_report(H.glucose, tagged)
    assert r.count == 5 and r.mean == 98.2 and (r.lowest, r.highest) == (50.0, 168.0)
    assert r.with_target == 4 and r.in_target == 3  # 112, 168, 96 in target; 50 is hypoglycaemia
    assert (r.hypo_level1, r.hypo_level2) == (1, 1)
    assert r.estimated_a1c == round((98.2 + 46.7) / 28.7, 1)


@pytest.mark.parametrize(
    ("text", "fragment"), [("f:abc", "not a glucose value"), ("f:700", "outside 20 to 600"), ("f:19", "outside")]
)
def test_glucose_entry_errors(text, fragment):
    tagged = readings.parse_tagged(text, 120, {"f": "fasting"}, "112")
    with pytest.raises(readings.ReadingError, match=fragment):
        readings.parse_glucose(tagged[0][1], 1)


# ---------------------------------------------------------------- screening eligibility (HPA, 2025 rules)


def status(**kw):
    person = screening.Person(
        kw.pop("age"),
        kw.pop("sex"),
        kw.pop("smoker", "never"),
        kw.pop("betel", "never"),
        kw.pop("indigenous", False),
        frozenset(kw.pop("family", ())),
        kw.pop("pack_years", None),
        kw.pop("quit_years", None),
    )
    assert not kw
    return {r.programme.id: r.status for r in screening.screening_eligibility(H.programmes, person)}


@pytest.mark.parametrize(
    ("age", "family", "expected"),
    [
        (39, ("colorectal",), "not-eligible"),
        (40, ("colorectal",), "eligible"),
        (44, ("colorectal",), "eligible"),
        (44, (), "not-eligible"),
        (45, (), "eligible"),
        (74, (), "eligible"),
        (75, (), "not-eligible"),
    ],
)
def test_colorectal_ages(age, family, expected):
    assert status(age=age, sex="male", family=family)["colorectal"] == expected


@pytest.mark.parametrize(
    ("age", "sex", "expected"),
    [
        (39, "female", "not-eligible"),
        (40, "female", "eligible"),
        (74, "female", "eligible"),
        (75, "female", "not-eligible"),
        (50, "male", "not-eligible"),
    ],
)
def test_breast_ages(age, sex, expected):
    assert status(age=age, sex=sex)["breast"] == expected


def test_cervical_interval_follows_the_age():
    results = {
        r.programme.id: r
        for r in screening.screening_eligibility(H.programmes, screening.Person(29, "female", "never"))
    }
    assert results["cervical"].matched[0].interval_en == "once every 3 years"
    results = {
        r.programme.id: r
        for r in screening.screening_eligibility(H.programmes, screening.Person(30, "female", "never"))
    }
    assert results["cervical"].matched[0].interval_en == "once a year"
    assert status(age=24, sex="female")["cervical"] == "not-eligible"
    assert status(age=25, sex="female")["cervical"] == "eligible"


@pytest.mark.parametrize(
    ("age", "expected"),
    [
        (34, "not-eligible"),
        (35, "eligible"),
        (36, "not-eligible"),
        (45, "eligible"),
        (65, "eligible"),
        (66, "not-eligible"),
    ],
)
def test_hpv_only_at_35_45_65(age, expected):
    assert status(age=age, sex="female")["hpv"] == expected


def test_oral_rules():
    assert status(age=29, sex="male", smoker="current")["oral"] == "not-eligible"
    assert status(age=30, sex="male", smoker="current")["oral"] == "eligible"
    assert status(age=40, sex="male", smoker="former")["oral"] == "not-eligible"  # quit smoking, never chewed
    assert status(age=30, sex="female", betel="former")["oral"] == "eligible"  # quit chewing still counts
    assert status(age=18, sex="male", betel="current", indigenous=True)["oral"] == "eligible"
    assert status(age=17, sex="male", betel="current", indigenous=True)["oral"] == "not-eligible"
    assert status(age=25, sex="male", betel="current")["oral"] == "not-eligible"  # under 30, not indigenous


def test_lung_family_history_ages_differ_by_sex():
    assert status(age=44, sex="male", family=("lung",))["lung"] == "not-eligible"
    assert status(age=45, sex="male", family=("lung",))["lung"] == "eligible"
    assert status(age=39, sex="female", family=("lung",))["lung"] == "not-eligible"
    assert status(age=40, sex="female", family=("lung",))["lung"] == "eligible"
    assert status(age=75, sex="female", family=("lung",))["lung"] == "not-eligible"


def test_lung_heavy_smoker_rule():
    assert status(age=49, sex="male", smoker="current", pack_years=30)["lung"] == "not-eligible"
    assert status(age=50, sex="male", smoker="current", pack_years=20)["lung"] == "eligible"
    assert status(age=50, sex="male", smoker="current", pack_years=19.9)["lung"] == "not-eligible"
    assert status(age=60, sex="male", smoker="current")["lung"] == "need-information"
    # "戒菸未達 15 年": quit less than 15 years ago
    assert status(age=60, sex="female", smoker="former", pack_years=25, quit_years=14)["lung"] == "eligible"
    assert status(age=60, sex="female", smoker="former", pack_years=25, quit_years=15)["lung"] == "not-eligible"
    assert status(age=74, sex="male", smoker="current", pack_years=20)["lung"] == "eligible"
    assert status(age=75, sex="male", smoker="current", pack_years=40)["lung"] == "not-eligible"
    assert status(age=60, sex="female", smoker="former", pack_years=25)["lung"] == "need-information"
    assert status(age=60, sex="female", smoker="never")["lung"] == "not-eligible"


@pytest.mark.parametrize(
    ("age", "expected"), [(44, "not-eligible"), (45, "eligible"), (74, "eligible"), (75, "not-eligible")]
)
def test_stomach_h_pylori_test_45_to_74_both_sexes(age, expected):
    # funded nationwide from 2026-01-01 (MOHW, reported 2026-01-27): once in a lifetime, 45 to 74
    assert status(age=age, sex="male")["stomach"] == expected
    assert status(age=age, sex="female")["stomach"] == expected


def test_a_worked_person():
    # 55-year-old man who smokes 1 pack a day for 25 years and chews betel: colorectal (45-74),
    # oral (30+ smoker/chewer), lung (50-74, 25 pack-years), stomach (45-74); no female programmes.
    s = status(age=55, sex="male", smoker="current", betel="current", pack_years=25)
    assert {k for k, v in s.items() if v == "eligible"} == {"colorectal", "oral", "lung", "stomach"}


# ---------------------------------------------------------------- meal keywords


def ids(text):
    return [m.factor.id for m in meal.meal_matches(H.factors, text)]


def test_meal_matches_chinese_and_english_group_1_first():
    assert ids("早餐吃培根蛋餅,晚上牛肉麵配啤酒") == ["processed-meat", "alcohol", "red-meat"]
    assert ids("Two sausages and a steak") == ["processed-meat", "red-meat"]
    assert ids("嚼檳榔") == ["areca-nut"]
    assert ids("kimchi fried rice") == ["pickled-vegetables"]
    assert ids("泡菜鍋") == ["pickled-vegetables"]


def test_english_keywords_are_whole_words():
    assert ids("hamburger") == ["red-meat"]  # "ham" inside "hamburger" is not processed meat
    assert ids("vegetable stir-fries") == []
    assert ids("steamed fish with rice and greens") == []


def test_western_pickles_are_not_the_asian_pickled_vegetables_of_iarc_2b():
    # IARC's Group 2B entry is "pickled vegetables (traditional in Asia)"
    assert ids("burger with pickles") == ["red-meat"]
    assert ids("sausage and sauerkraut") == ["processed-meat"]
    assert ids("pickled mustard greens") == ["pickled-vegetables"]


def test_mould_keywords_do_not_fire_on_preserved_vegetables_or_bad_luck():
    assert ids("霉乾菜炒飯") == ["pickled-vegetables"]  # used to add aflatoxins (Group 1) via 霉
    assert ids("今天好倒霉,吃白飯") == []
    assert ids("麵包發霉了") == ["aflatoxins"]


def test_meal_match_reports_the_keywords():
    (hit,) = meal.meal_matches(H.factors, "HOT DOG and another hot dog")
    assert hit.factor.id == "processed-meat" and hit.keywords == ("hot dog",)


def test_every_rule_and_factor_names_a_source_and_the_checked_date():
    for topic in ("counseling", "glp1", "cancer_diet", "screening", "monitoring"):
        assert H.documents[topic].checked.isoformat() == "2026-11-22"
    for p in H.programmes:  # each under its own page's title, also where pages share an address
        assert p.source.url.startswith("http") and p.source.title == p.doc["source"]["title"]
    for f in H.factors:
        assert f.source.url.startswith("http") and f.group in ("1", "2A", "2B")
        assert f.source.title == f.doc["source"]["title"]
    for c in (
        H.bp.source,
        H.bp.crisis_source,
        H.bp.low_source,
        H.glucose.source,
        H.glucose.diagnosis_source,
        H.glucose.a1c_source,
    ):
        assert c.url.startswith("https://") and c.title


def test_a_bad_record_in_a_document_fails_naming_file_record_and_field(tmp_path):
    import shutil

    from twlookup.platform.records import DataFileError
    from twlookup.services.health.data import from_directory

    folder = tmp_path / "health"
    shutil.copytree(DEFAULT_DATA / "health", folder)
    path = folder / "monitoring.yaml"
    text = path.read_text(encoding="utf-8")
    assert "  - id: stage-2\n" in text and "    systolic_min: 140\n" in text
    path.write_text(text.replace("    systolic_min: 140\n", "    systolic_min: high\n", 1), encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        from_directory(folder)
    assert str(path) in str(err.value) and "'stage-2'" in str(err.value) and "field systolic_min" in str(err.value)


def test_pages_are_cited_through_their_document():
    """A page is cited with its document's check date and sample flag; the document's own page
    also with its licence (no citation is built by hand, so none drops them)."""
    doc = records.Document(
        topic="glp1",
        source="https://example.org/main",
        source_title="Main",
        checked=date(2026, 11, 22),
        licence="CC BY 4.0",
        sample=True,
    )
    own = doc.cite_page(Citation(title="Main", url="https://example.org/main"))
    other = doc.cite_page(Citation(title="Other", url="https://example.org/other"))
    assert (own.title, own.licence, own.sample) == ("Main", "CC BY 4.0", True)
    assert (other.title, other.checked, other.sample) == ("Other", date(2026, 11, 22), True)
