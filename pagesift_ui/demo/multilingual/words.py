"""Word banks of the multilingual scenario: Hochschule Talheim in German, English and French.

The German text uses the words a German university uses ("Studierende", "Wohnheim",
"Austausch"), so an English query about housing for exchange students matches none of it.
"""

from __future__ import annotations

from ..kit.text import NO_OPENERS, Topic

__all__ = [
    "ABOUT_DE", "ABOUT_EN", "EXCHANGE_EN", "FR_GENERAL", "HOUSING_EN", "INTERNATIONAL_DE",
    "NEWS_DE", "NEWS_EN", "PROGRAMMES", "RESEARCH_DE", "RESEARCH_EN", "STUDY_DE", "STUDY_EN",
    "THEMES_DE", "THEMES_EN", "WOHNEN_DE",
]

DE_OPENERS = ("",) * 12 + ("Wichtig: ", "Gut zu wissen: ", "Übrigens: ")
DE_CLOSERS = (".",)

STUDY_DE = Topic((
    "die Hochschule bietet mehr als 40 Studiengänge an",
    "das Studium verbindet Theorie und Praxis",
    "Vorlesungen und Übungen finden in kleinen Gruppen statt",
    "ein Praxissemester ist fester Bestandteil des Studiums",
    "die Regelstudienzeit im Bachelor beträgt sieben Semester",
    "Bewerbungen für das Wintersemester sind bis zum 15. Juli möglich",
    "die Lehrenden kommen aus Wissenschaft und Wirtschaft",
    "Labore und Werkstätten stehen den Studierenden offen",
    "die Studienberatung hilft bei der Wahl des passenden Studiengangs",
    "viele Studiengänge können auch berufsbegleitend studiert werden",
    "Prüfungen finden am Ende jedes Semesters statt",
    "die Abschlussarbeit wird häufig in Zusammenarbeit mit einem Unternehmen geschrieben",
), DE_OPENERS, DE_CLOSERS)

WOHNEN_DE = Topic((
    "das Studierendenwerk vermietet Zimmer in sechs Wohnheimen",
    "die Miete liegt zwischen 280 und 420 Euro im Monat",
    "Austauschstudierende erhalten auf Wunsch ein möbliertes Zimmer",
    "die Kaution beträgt zwei Monatsmieten",
    "Zimmer werden in der Reihenfolge der Anträge vergeben",
    "private Zimmer und Wohngemeinschaften findest du auf der Wohnungsbörse",
    "das International Office hilft bei der Suche nach einer Unterkunft",
    "alle Zimmer verfügen über einen Internetanschluss",
    "die Mietverträge laufen in der Regel über ein oder zwei Semester",
    "in den Wohnheimen gibt es Gemeinschaftsküchen und Waschräume",
    "der Antrag auf ein Zimmer sollte früh gestellt werden",
    "für kurze Aufenthalte stehen Gästezimmer zur Verfügung",
), DE_OPENERS, DE_CLOSERS)

INTERNATIONAL_DE = Topic((
    "die Hochschule pflegt Partnerschaften mit mehr als 90 Hochschulen weltweit",
    "ein Auslandssemester ist in fast allen Studiengängen möglich",
    "das Erasmus-Programm fördert Aufenthalte an europäischen Partnerhochschulen",
    "Austauschstudierende werden in den ersten Wochen von Buddys begleitet",
    "die Kurse des Sprachenzentrums sind kostenlos",
    "das International Office berät zu Stipendien und Fristen",
    "die Orientierungswoche findet vor Beginn der Vorlesungen statt",
    "Leistungen aus dem Ausland werden nach Absprache anerkannt",
    "internationale Gäste sind in allen Fakultäten willkommen",
    "der Welcome Day stellt Campus, Stadt und Hochschule vor",
), DE_OPENERS, DE_CLOSERS)

RESEARCH_DE = Topic((
    "das Institut forscht zu {field}",
    "Projekte werden von Bund, Land und EU gefördert",
    "die Ergebnisse fließen direkt in die Lehre ein",
    "Unternehmen aus der Region sind wichtige Partner",
    "Promovierende arbeiten in kooperativen Verfahren mit Universitäten",
    "das Labor wurde {year} modernisiert",
    "das Team veröffentlicht regelmäßig in Fachzeitschriften",
    "Transfer und Weiterbildung gehören zum Auftrag des Instituts",
), NO_OPENERS, DE_CLOSERS)

ABOUT_DE = Topic((
    "die Hochschule Talheim wurde 1971 gegründet",
    "heute lernen hier rund 7.000 Studierende",
    "die Hochschule gliedert sich in fünf Fakultäten",
    "der Campus liegt am Rand der Altstadt",
    "die Hochschule ist eine der größten Arbeitgeberinnen der Region",
    "Nachhaltigkeit ist im Leitbild der Hochschule verankert",
    "das Präsidium leitet die Hochschule",
    "der Hochschulrat berät die Hochschule in strategischen Fragen",
), NO_OPENERS, DE_CLOSERS)

NEWS_DE = Topic((
    "das Projekt wurde von Studierenden der Fakultät geleitet",
    "mehr als {n}0 Gäste kamen zur Veranstaltung",
    "die Ergebnisse werden im kommenden Semester vorgestellt",
    "die Präsidentin gratulierte dem Team",
    "die Förderung läuft über drei Jahre",
    "Schulen aus der Region waren eingeladen",
    "die Veranstaltung soll im nächsten Jahr wiederholt werden",
    "Fotos vom Tag gibt es bei der Pressestelle",
    "die Preisverleihung fand in der Aula statt",
), NO_OPENERS, DE_CLOSERS)

HOUSING_EN = Topic((
    "exchange students can rent a furnished room in one of six halls of residence",
    "housing for exchange students is arranged through the International Office",
    "rooms for exchange students cost between €280 and €420 a month",
    "the deposit for student housing is two months' rent",
    "apply for housing as soon as you receive your letter of acceptance",
    "exchange students who apply by the deadline are guaranteed a room",
    "private housing is hard to find at the start of the winter semester",
    "every room in student housing has internet access",
    "tenancy agreements usually run for one or two semesters",
    "halls have shared kitchens and laundry rooms",
    "guest rooms are available for exchange students who arrive before their contract starts",
    "the housing office answers questions from exchange students in English",
))

EXCHANGE_EN = Topic((
    "exchange students choose courses from the English-taught module catalogue",
    "a buddy helps exchange students settle in during the first weeks",
    "the orientation week takes place before lectures begin",
    "German language courses are free for exchange students",
    "exchange students receive a transcript of records at the end of their stay",
    "most exchange students come through the Erasmus+ programme",
    "the International Office is the first point of contact for exchange students",
    "exchange students can join all university sports and societies",
))

STUDY_EN = Topic((
    "the programme is taught entirely in English",
    "teaching combines lectures, lab work and projects with companies",
    "a practical semester gives you experience in industry",
    "the standard period of study is seven semesters",
    "there are no tuition fees, only a semester contribution",
    "applications for the winter semester close on 15 July",
    "lecturers bring experience from both research and industry",
    "small classes make it easy to talk to your lecturers",
), NO_OPENERS)

RESEARCH_EN = Topic((
    "the institute works on {field}",
    "projects are funded by the federal government, the state and the EU",
    "research results feed directly into teaching",
    "companies in the region are important partners",
    "doctoral candidates work in cooperation with partner universities",
    "the team publishes regularly in international journals",
), NO_OPENERS)

ABOUT_EN = Topic((
    "Talheim University of Applied Sciences was founded in 1971",
    "today around 7,000 people study here",
    "the university is organised in five faculties",
    "the campus lies on the edge of the old town",
    "sustainability is part of the university's mission",
    "the university works closely with companies in the region",
), NO_OPENERS)

NEWS_EN = Topic((
    "the project was led by a team from the Faculty of Engineering",
    "more than {n}0 guests attended the event",
    "the results will be presented next semester",
    "the president congratulated the team",
    "the funding runs for three years",
    "schools from the region were invited",
), NO_OPENERS)

FR_GENERAL = Topic((
    "la Hochschule Talheim propose plus de 40 formations",
    "les cours ont lieu en petits groupes",
    "le bureau des relations internationales vous accompagne dans vos démarches",
    "un logement meublé peut être réservé dans une résidence universitaire",
    "les cours d'allemand sont gratuits",
    "le campus se trouve au bord de la vieille ville",
    "les candidatures pour le semestre d'hiver sont ouvertes jusqu'au 15 juillet",
    "la vie associative est riche et variée",
), NO_OPENERS)

# (German name, English name or "" when taught only in German)
PROGRAMMES = (
    ("Maschinenbau", "Mechanical Engineering"), ("Elektrotechnik", "Electrical Engineering"),
    ("Informatik", "Computer Science"), ("Wirtschaftsinformatik", ""),
    ("Betriebswirtschaftslehre", "Business Administration"), ("Soziale Arbeit", ""),
    ("Architektur", ""), ("Bauingenieurwesen", "Civil Engineering"),
    ("Mechatronik", "Mechatronics"), ("Medieninformatik", ""), ("Pflegewissenschaft", ""),
    ("Wirtschaftsingenieurwesen", "Industrial Engineering"), ("Umwelttechnik",
                                                              "Environmental Engineering"),
    ("Logistik", ""), ("Gesundheitsmanagement", ""), ("Kommunikationsdesign", ""),
    ("Angewandte Mathematik", ""), ("Energietechnik", "Energy Systems"),
    ("Tourismusmanagement", "International Tourism Management"), ("Lebensmitteltechnologie", ""),
    ("Fahrzeugtechnik", ""), ("Data Science", "Data Science"), ("Physiotherapie", ""),
    ("Internationales Management", "International Management"),
)

# research and news themes, German and English (same order)
THEMES_DE = ("Wasserstofftechnik", "Robotik", "Pflege im Alter", "nachhaltige Logistik",
             "künstliche Intelligenz", "Energiespeicher", "Leichtbau", "digitale Lehre",
             "Kreislaufwirtschaft", "Elektromobilität", "Wassermanagement", "Medizintechnik")
THEMES_EN = ("hydrogen technology", "robotics", "care for older people", "sustainable logistics",
             "artificial intelligence", "energy storage", "lightweight construction",
             "digital teaching", "circular economy", "electric mobility", "water management",
             "medical technology")
