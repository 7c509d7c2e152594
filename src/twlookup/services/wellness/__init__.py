"""wellness: telehealth eligibility, mood/PHQ-9/GAD-7 self-scoring, sleep, breathing, crisis lines
(spec document 3, "wellness"). Answers are not stored."""
