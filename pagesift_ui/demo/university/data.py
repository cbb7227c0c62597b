"""Names and headline parts of the university scenario (tables; no logic)."""

from __future__ import annotations

__all__ = [
    "JOURNALS_HOST",
    "COUNTRIES", "FACULTIES", "HEADLINE_OBJECTS", "HEADLINE_SUBJECTS", "HEADLINE_VERBS",
    "JOURNALS", "JOURNAL_GROUPS", "JOURNAL_OUTCOMES", "JOURNAL_REGIONS", "JOURNAL_THEMES",
    "NEWS_TAGS", "RESEARCH_FIELDS", "ROLES",
]

#: The university press's own host (a sub-site of the university).
JOURNALS_HOST = "journals.uni.localhost"

# faculty -> departments -> subjects taught (each subject becomes a course page)
FACULTIES: tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...] = (
    ("Arts and Humanities", (
        ("English Literature", ("English Literature", "Creative Writing")),
        ("History", ("History", "Ancient History", "Archaeology")),
        ("Music", ("Music", "Music Technology")),
        ("Philosophy", ("Philosophy", "Philosophy and Politics")),
        ("Modern Languages", ("French", "Spanish", "Japanese Studies")),
    )),
    ("Science and Engineering", (
        ("Chemistry", ("Chemistry", "Medicinal Chemistry")),
        ("Computer Science", ("Computer Science", "Software Engineering", "Data Science")),
        ("Physics", ("Physics", "Astrophysics")),
        ("Civil Engineering", ("Civil Engineering", "Architecture")),
        ("Mathematics", ("Mathematics", "Statistics")),
        ("Environmental Science", ("Environmental Science", "Marine Biology", "Geography")),
    )),
    ("Social Sciences", (
        ("Economics", ("Economics", "Accounting and Finance")),
        ("Law", ("Law", "Criminology")),
        ("Politics", ("Politics", "International Relations")),
        ("Business School", ("Business Management", "Marketing", "Tourism Management")),
        ("Psychology", ("Psychology", "Sociology")),
    )),
    ("Health and Medicine", (
        ("Medicine", ("Medicine", "Biomedical Science")),
        ("Nursing", ("Adult Nursing", "Midwifery")),
        ("Sport Science", ("Sport and Exercise Science", "Physiotherapy")),
        ("Pharmacy", ("Pharmacy", "Pharmacology")),
    )),
)

RESEARCH_FIELDS = (
    "coastal ecology", "machine learning", "medieval history", "public health", "urban design",
    "renewable energy", "cell biology", "climate policy", "criminal justice", "music cognition",
    "quantum materials", "child development", "financial regulation", "sports medicine",
    "data ethics", "marine robotics", "migration", "heritage science", "drug discovery",
    "digital humanities",
)

ROLES = (
    "Professor", "Reader", "Senior Lecturer", "Lecturer", "Associate Professor",
    "Research Fellow", "Teaching Fellow",
)

COUNTRIES = (
    "China", "India", "Nigeria", "Malaysia", "Vietnam", "Pakistan", "Ghana", "Kenya",
    "Saudi Arabia", "Thailand", "Indonesia", "Brazil", "Mexico", "Canada", "United States",
    "Japan", "South Korea", "Hong Kong", "Singapore", "Egypt", "Turkey", "Bangladesh",
    "Sri Lanka", "Nepal",
)

HEADLINE_SUBJECTS = (
    "Engineering students", "Chemistry researchers", "Medical students", "Law students",
    "Student volunteers", "Music students", "Northgate scientists", "Nursing students",
    "History researchers", "Computer science students", "Sports scholars", "Alumni",
    "International students", "Postgraduate researchers", "Business students",
    "Marine biologists", "Architecture students", "Student journalists", "Physics researchers",
    "Psychology students",
)
HEADLINE_VERBS = (
    "win", "launch", "celebrate", "unveil", "host", "raise money for", "take part in",
    "lead", "open", "complete", "support", "shortlisted for",
)
HEADLINE_OBJECTS = (
    "national robotics challenge", "new community garden", "record-breaking charity run",
    "regional science festival", "exhibition on coastal heritage", "mental health campaign",
    "award for teaching excellence", "clean beach project", "hackathon for local charities",
    "study of river pollution", "summer school for local pupils", "new sports pavilion",
    "open-air concert series", "green travel week", "oral history archive",
    "careers fair with 90 employers", "ocean survey off the Eastmere coast",
    "food bank appeal", "citizen science project", "debate on artificial intelligence",
    "wellbeing festival", "book prize for young writers", "bridge design competition",
    "cultural festival", "partnership with the city hospital",
)

NEWS_TAGS = (
    "research", "students", "community", "sport", "awards", "arts", "health", "international",
    "sustainability", "alumni", "teaching", "campus",
)

# (slug, title, short name, founded volume year)
JOURNALS = (
    ("ijsf", "International Journal of Student Finance", "IJSF"),
    ("jihe", "Journal of International Higher Education", "JIHE"),
    ("tar", "Tuition and Access Review", "TAR"),
    ("sism", "Studies in International Student Mobility", "SISM"),
    ("hefq", "Higher Education Fees Quarterly", "HEFQ"),
)
JOURNAL_THEMES = (
    "Tuition fee policy", "Student loan repayment", "International student recruitment",
    "Scholarship design", "Fee waivers", "Cost-sharing in higher education",
    "Differential tuition fees", "Student debt", "Means-tested grants",
    "Tuition-free higher education", "Graduate taxes", "Fee caps",
)
JOURNAL_OUTCOMES = (
    "enrolment", "retention", "completion", "graduate earnings", "access", "student choice",
    "institutional income", "participation",
)
JOURNAL_GROUPS = (
    "international students", "first-generation students", "part-time students",
    "mature students", "postgraduate students", "students from low-income families",
)
JOURNAL_REGIONS = (
    "England", "Australia", "Canada", "Germany", "Nigeria", "Vietnam", "the Nordic countries",
    "Chile", "New Zealand", "the Netherlands", "South Africa", "Japan", "Scotland",
)
