"""Word banks of the fieldguide scenario: the Marshland Bird Guide."""

from __future__ import annotations

from ..kit.text import NO_OPENERS, Topic

__all__ = ["HABITATS", "HABITAT_NOTES", "NESTING_NOTES", "RECORDS"]

#: (habitat, its species); every species has a page with habitat and nesting notes.
HABITATS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Reed beds", ("Reed warbler", "Sedge warbler", "Bearded tit", "Bittern", "Water rail",
                   "Marsh harrier", "Reed bunting", "Cetti's warbler", "Savi's warbler",
                   "Spotted crake", "Little bittern", "Purple heron")),
    ("Open water", ("Great crested grebe", "Little grebe", "Tufted duck", "Pochard",
                    "Mute swan", "Coot", "Goldeneye", "Goosander", "Black tern", "Common tern",
                    "Osprey", "Kingfisher")),
    ("Wet meadows", ("Lapwing", "Redshank", "Snipe", "Curlew", "Black-tailed godwit",
                     "Yellow wagtail", "Meadow pipit", "Skylark", "Corncrake", "Ruff",
                     "Garganey", "Shoveler")),
    ("Carr woodland", ("Willow tit", "Marsh tit", "Treecreeper", "Lesser spotted woodpecker",
                       "Chiffchaff", "Blackcap", "Garden warbler", "Woodcock", "Tawny owl",
                       "Long-eared owl", "Siskin", "Redpoll")),
)
HABITAT_NOTES = Topic((
    "the {bird} is found where {place} meets shallow water",
    "in winter the {bird} moves to the larger lakes of the valley",
    "the {bird} needs {place} that are never grazed or cut in summer",
    "numbers of the {bird} have grown since the {place} were restored",
    "the {bird} feeds along the margins of the {place} at dawn and dusk",
    "look for the {bird} where the {place} are wettest",
    "the {bird} avoids {place} that dry out before June",
    "the best habitat for the {bird} is a mosaic of {place} and open pools",
), openers=NO_OPENERS)
NESTING_NOTES = Topic((
    "the {bird} builds its nest low among the {place}",
    "nesting starts in late April and most {bird} pairs raise two broods",
    "a {bird} nest holds four to six eggs, incubated for about two weeks",
    "the {bird} returns to the same nesting site year after year",
    "disturbance near the nest makes the {bird} desert its eggs",
    "the {bird} lines its nest with soft plant down from the {place}",
    "young {bird} leave the nest before they can fly well",
    "the nesting season of the {bird} ends by early August",
), openers=NO_OPENERS)
RECORDS = Topic((
    "the first record on the reserve was in {year}",
    "{n} pairs were counted in the last survey",
    "the reserve holds about {n} per cent of the county population",
    "ringing has shown birds returning here for up to {n} years",
    "volunteers count them every spring along fixed routes",
    "sightings can be sent to the reserve office",
), openers=NO_OPENERS)
